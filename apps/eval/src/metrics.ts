import { headingsMatch, libraryName, normalisePath } from './headings.js';

/** A labelled answer: a section (or, with no heading, a whole page) of one library's docs. */
export interface GoldEntry {
  readonly library: string;
  readonly path: string;
  readonly heading?: string | null;
  /** 2 primary answer (default), 1 supporting. */
  readonly grade?: number;
}

/** One ranked answer as the engine reported it. */
export interface RankedEntry {
  readonly library: string;
  readonly path: string;
  /** Breadcrumb, outermost first; the last element is the section's own heading. */
  readonly heading: readonly string[];
  /** The page title; a gold heading equal to it means the whole page. */
  readonly title?: string;
}

export interface QueryScore {
  readonly rr: number;
  readonly ndcg: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly hit10: number;
  /** 1-based rank of the first hit, or null. */
  readonly firstRank: number | null;
}

/**
 * Whether a ranked entry answers a gold entry: same library (version
 * ignored), same path (extension ignored), and, when the gold names a
 * section, a breadcrumb that passes through it (a sub-section of a gold
 * section counts) or a page title equal to it (the whole page is gold).
 */
export function isHit(result: RankedEntry, gold: GoldEntry): boolean {
  if (libraryName(result.library) !== libraryName(gold.library)) return false;
  if (normalisePath(result.path) !== normalisePath(gold.path)) return false;
  if (gold.heading === null || gold.heading === undefined || gold.heading === '') return true;
  if (result.heading.some((h) => headingsMatch(h, gold.heading))) return true;
  return result.title !== undefined && headingsMatch(result.title, gold.heading);
}

/**
 * MRR@k, nDCG@k (gain 2^grade − 1, each gold entry credited once, primary
 * entries first), recall@5/10 over primary entries, and hit@k.
 */
export function scoreQuery(gold: readonly GoldEntry[], ranked: readonly RankedEntry[], k = 10): QueryScore {
  const entries = [...gold].map((g) => ({ ...g, grade: g.grade === 1 ? 1 : 2 })).sort((a, b) => b.grade - a.grade);
  const matched = entries.map(() => false);
  const gains: number[] = [];
  const primaryHits: number[] = [];
  for (const result of ranked.slice(0, k)) {
    let gain = 0;
    let primary = 0;
    for (let j = 0; j < entries.length; j++) {
      const g = entries[j];
      if (!g || matched[j] || !isHit(result, g)) continue;
      matched[j] = true;
      gain = 2 ** g.grade - 1;
      primary = g.grade === 2 ? 1 : 0;
      break;
    }
    gains.push(gain);
    primaryHits.push(primary);
  }
  const first = gains.findIndex((x) => x > 0);
  const dcg = gains.reduce((sum, x, i) => sum + x / Math.log2(i + 2), 0);
  const ideal = entries
    .map((g) => 2 ** g.grade - 1)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, x, i) => sum + x / Math.log2(i + 2), 0);
  const primaries = entries.filter((g) => g.grade === 2).length;
  const recallAt = (n: number) =>
    primaries === 0 ? 0 : primaryHits.slice(0, n).reduce((a, b) => a + b, 0) / primaries;
  return {
    rr: first === -1 ? 0 : 1 / (first + 1),
    ndcg: ideal > 0 ? dcg / ideal : 0,
    recall5: recallAt(5),
    recall10: recallAt(10),
    hit10: first === -1 ? 0 : 1,
    firstRank: first === -1 ? null : first + 1,
  };
}

export interface Summary {
  readonly n: number;
  readonly mrr: number;
  readonly ndcg: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly hit10: number;
}

/** Means over a group of query scores. */
export function summarise(scores: readonly QueryScore[]): Summary {
  const mean = (f: (s: QueryScore) => number) =>
    scores.length === 0 ? 0 : scores.reduce((sum, s) => sum + f(s), 0) / scores.length;
  return {
    n: scores.length,
    mrr: mean((s) => s.rr),
    ndcg: mean((s) => s.ndcg),
    recall5: mean((s) => s.recall5),
    recall10: mean((s) => s.recall10),
    hit10: mean((s) => s.hit10),
  };
}
