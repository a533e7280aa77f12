import { convexFusion, type FusedScore, fuseScores, reciprocalRankFusion } from '@docs/rank';
import type { ChunkHit } from '@docs/store';
import { isOtherEntryPointPage } from '../history.js';
import { shareOfBest } from '../hybrid.js';
import { heldShare } from '../idf.js';
import type { RankingConfig } from '../ranking.js';
import type { Phrasing } from './analyze.js';
import type { PhrasingHit, PhrasingHits } from './hits.js';
import type { Target } from './target.js';

/** A section one library found, its phrasings' scores fused. */
export interface Candidate {
  readonly target: Target;
  readonly hit: ChunkHit;
  /** Within-library score before normalisation, from the phrasing that gave the chunk its best score. */
  readonly raw: number;
  /** The phrasings' scores fused, [0, 1]. */
  readonly score: number;
  /** The same without the heading boost, as a share of the library's best such score (scaled as `score` is). */
  readonly plain: number;
  /** For each phrasing, the terms (indices) the chunk holds; undefined where the phrasing did not find it. */
  readonly held: ReadonlyArray<readonly number[] | undefined>;
}

/** A library's candidates above its own drop, and how much of the question its best ones hold. */
export interface LibraryCandidates {
  readonly list: Candidate[];
  /** The best over the phrasings of weight × (share of the terms the best chunk holds)^coverageExponent. */
  readonly coverage: number;
  /** The best over the phrasings of weight × the share of the question's information its best chunk holds. */
  readonly information: number;
  /** Whether a chunk it found holds a phrasing's rarest word (of those any library holds). */
  readonly holdsRarest: boolean;
  /** Whether a chunk it found holds every term of a phrasing. */
  readonly holdsAll: boolean;
}

/**
 * Whether some section found holds every word of a phrasing: the answer's `match` is then "all". The one rule, read
 * by the answer and by the bounds on what an unsearched library could change (bounds.ts).
 */
export function matchesAll(libraries: readonly LibraryCandidates[]): boolean {
  return libraries.some((l) => l.holdsAll);
}

/**
 * A library's phrasings fused (fusePhrasings), before the question's words' worth over every library searched is
 * known: what its candidates are and how much of each phrasing they cover. Kept per library while a search over
 * many opens more of them, so each is fused once and its other hits are let go of as soon as it is scored.
 */
export interface FusedLibrary {
  readonly list: Candidate[];
  /** See LibraryCandidates.coverage. */
  readonly coverage: number;
  /** See LibraryCandidates.holdsAll. */
  readonly holdsAll: boolean;
  /**
   * Per phrasing, the sets of terms (indices, as each hit holds them) that the hits it found hold, each once;
   * undefined where the phrasing found nothing or has no terms. All the information and rarest word are read from.
   */
  readonly held: ReadonlyArray<ReadonlyArray<readonly number[]> | undefined>;
}

/**
 * One library's answer to every phrasing, fused into one list ({@link fuseScores}:
 * each phrasing's normalised scores weighed, the topic's most), then cut at the
 * library's own drop. A chunk under the drop within its own library is under it
 * in any merged list (scaling a library's scores keeps their ratios), so it is let go
 * here: over many libraries, most are. What reads the other libraries (the question's
 * words' worth over all of them) is added by {@link withWorth}.
 */
export function fusePhrasings(
  target: Target,
  hits: readonly PhrasingHits[],
  phrasings: readonly Phrasing[],
  ranking: RankingConfig,
): FusedLibrary {
  const byId = hits.map((h) => new Map(h.list.map((c) => [c.hit.id, c])));
  const lexical = fuseScores(
    hits.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.score }))),
    { weights: phrasings.map((p) => p.weight), rest: ranking.fusionRest },
  );
  const lexicalPlain = new Map(
    fuseScores(
      hits.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.plain }))),
      { weights: phrasings.map((p) => p.weight), rest: ranking.fusionRest },
    ).map((f) => [f.id, f.score]),
  );
  const similarity = hits[0]?.similarity;
  const { fused, plain } = similarity
    ? withQuestionVector(lexical, lexicalPlain, similarity, phrasings, ranking)
    : { fused: lexical, plain: lexicalPlain };
  // Fused scores can pass 1; each library's best goes back to 1, as with one phrasing, unless its best is a section
  // the entry-point weight kept down: the scale's top is then what that section would score without the weight, so
  // the weight holds in the merged list too (a library whose best answer is `pydantic.mypy` gives it half).
  const weightOf = entryWeights(hits, ranking);
  const top = ceiling(fused, (f) => f.score, weightOf);
  const topPlain = ceiling(fused, (f) => plain.get(f.id) ?? 0, weightOf);
  const list: Candidate[] = [];
  for (const f of fused) {
    const wordsAlone = plain.get(f.id) ?? 0;
    // Under the drop by both measures (see aboveDrop): under it in any merged list too.
    if (f.score < ranking.drop * top && wordsAlone < ranking.drop * topPlain) continue;
    const id = Number(f.id);
    const best = byId[f.best]?.get(id) as PhrasingHit;
    list.push({
      target,
      hit: best.hit,
      raw: best.raw,
      score: top > 0 ? f.score / top : 0,
      plain: topPlain > 0 ? wordsAlone / topPlain : 0,
      held: byId.map((m) => m.get(id)?.held),
    });
  }
  let coverage = 0;
  let holdsAll = false;
  const held: (number[][] | undefined)[] = [];
  for (const [i, h] of hits.entries()) {
    const phrasing = phrasings[i] as Phrasing;
    holdsAll ||= h.bestCoverage > 0 && h.bestCoverage === phrasing.terms.length;
    if (h.list.length === 0 || phrasing.terms.length === 0) {
      held.push(undefined);
      continue;
    }
    coverage = Math.max(
      coverage,
      phrasing.weight * (h.bestCoverage / phrasing.terms.length) ** ranking.coverageExponent,
    );
    // Each set once, in the order its hit holds it: a share is a sum over the set, and sums depend on their order.
    const sets = new Map<string, readonly number[]>();
    for (const c of h.list) {
      const key = c.held.join(',');
      if (!sets.has(key)) sets.set(key, c.held);
    }
    held.push([...sets.values()] as number[][]);
  }
  return { list, coverage, holdsAll, held };
}

/**
 * A fused library with what the question's words are worth over every library searched (`information` and `rarest`,
 * per phrasing): how much of that its best hit holds, and whether a hit holds the rarest word.
 */
export function withWorth(
  fused: FusedLibrary,
  phrasings: readonly Phrasing[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
): LibraryCandidates {
  let informationHeld = 0;
  let holdsRarest = false;
  for (const [i, sets] of fused.held.entries()) {
    if (sets === undefined) continue;
    const phrasing = phrasings[i] as Phrasing;
    const weights = information[i] ?? [];
    const share = sets.reduce((most, held) => Math.max(most, heldShare(weights, held)), 0);
    informationHeld = Math.max(informationHeld, phrasing.weight * share);
    const r = rarest[i] ?? -1;
    holdsRarest ||= r >= 0 && sets.some((held) => held.includes(r));
  }
  return {
    list: fused.list,
    coverage: fused.coverage,
    information: informationHeld,
    holdsRarest,
    holdsAll: fused.holdsAll,
  };
}

/** Each found section's entry-point weight (signals.ts), by id: less than 1 only on another entry point's page. */
function entryWeights(hits: readonly PhrasingHits[], ranking: RankingConfig): (id: string) => number {
  const other = new Set<string>();
  for (const h of hits) for (const c of h.list) if (isOtherEntryPointPage(c.hit.path)) other.add(String(c.hit.id));
  return (id) => (other.has(id) ? ranking.entryPointWeight : 1);
}

/** The best of `score` over `fused`, each with its entry-point weight undone (a weight of 0 leaves the score as it is). */
function ceiling(fused: readonly FusedScore[], score: (f: FusedScore) => number, weightOf: (id: string) => number) {
  let best = 0;
  for (const f of fused) {
    const weight = weightOf(f.id);
    best = Math.max(best, weight > 0 ? score(f) / weight : score(f));
  }
  return best;
}

/**
 * A hybrid library's phrasings, fused lexically, fused once with the question's
 * vector ({@link fuseWithQuestion}), each as a share of its best, the vector
 * weighing `vectorWeight` × the topic's share of the phrasings' weights: the
 * question's meaning counts as much against the question's own words as with
 * no alternatives (then it is the fusion it always was), and the alternatives
 * add words, not another vote for the same meaning. Fused into the topic's
 * list instead, the vector counted inside the best score of a section the
 * topic led (no more than the words' 1 for the section both retrievers put
 * first) and on top of it, in `rest`, for one an alternative led, so with three
 * phrasings a section one alternative named overtook the question's best by
 * both measures (docs/ranking.md, issue 42).
 */
function withQuestionVector(
  lexical: readonly FusedScore[],
  lexicalPlain: ReadonlyMap<string, number>,
  similarity: ReadonlyMap<number, number>,
  phrasings: readonly Phrasing[],
  ranking: RankingConfig,
): { fused: FusedScore[]; plain: Map<string, number> } {
  const total = phrasings.reduce((sum, p) => sum + p.weight, 0);
  const weight = total > 0 ? (ranking.vectorWeight * (phrasings[0]?.weight ?? 0)) / total : 0;
  const top = lexical[0]?.score ?? 0;
  const topPlain = Math.max(0, ...lexicalPlain.values());
  const share = (score: number, best: number) => (best > 0 ? Math.min(1, score / best) : 0);
  const vector = lexical.map((f) => similarity.get(Number(f.id)) ?? 0);
  const scores = fuseWithQuestion(
    lexical.map((f) => share(f.score, top)),
    vector,
    weight,
    ranking,
  );
  const plains = fuseWithQuestion(
    lexical.map((f) => share(lexicalPlain.get(f.id) ?? 0, topPlain)),
    vector,
    weight,
    ranking,
  );
  const fused = lexical
    .map((f, i) => ({ ...f, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score || b.lists.length - a.lists.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { fused, plain: new Map(lexical.map((f, i) => [f.id, plains[i] ?? 0])) };
}

/**
 * A library's lexical scores (its phrasings fused, as shares of the best) fused
 * with the question's similarity (shares of the best): `convexFusion` with
 * `weight`, or reciprocal rank fusion of the two orders when `fusion` is `rrf`.
 * With the question alone (no alternatives), the fusion a hybrid library's one list always had.
 */
export function fuseWithQuestion(
  lexical: readonly number[],
  similarity: readonly number[],
  weight: number,
  ranking: Pick<RankingConfig, 'fusion' | 'rrfK'>,
): number[] {
  if (ranking.fusion !== 'rrf') return convexFusion(lexical, similarity, { weight });
  const order = (scores: readonly number[]) =>
    scores
      .map((score, i) => ({ id: String(i), score }))
      .filter((e) => e.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((e) => e.id);
  const rrf = new Map(
    reciprocalRankFusion([order(lexical), order(similarity)], { k: ranking.rrfK }).map((f) => [f.id, f.score]),
  );
  return shareOfBest(lexical.map((_, i) => rrf.get(String(i)) ?? 0));
}
