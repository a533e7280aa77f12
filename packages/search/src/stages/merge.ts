import { fuseScores } from '@docs/rank';
import type { ChunkHit } from '@docs/store';
import type { Retrieval } from '../hybrid.js';
import { heldShare } from '../idf.js';
import type { ResolvedOptions } from '../options.js';
import type { Phrasing } from './analyse.js';
import type { PhrasingHit, PhrasingHits } from './score-library.js';
import type { Target } from './target.js';

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
}

/** What the libraries searched found (see gather): per library answering, each phrasing's hits. */
export interface Found {
  readonly answering: readonly Target[];
  readonly found: readonly (readonly PhrasingHits[])[];
  /** Per phrasing, each term's information over everything searched. */
  readonly information: readonly (readonly number[])[];
  /** Per phrasing, its rarest term that some library holds (-1: none). */
  readonly rarest: readonly number[];
}

/** The merged list, best first, and whether some section holds every word of a phrasing. */
export interface Merged {
  readonly merged: readonly Candidate[];
  readonly match: 'all' | 'some';
}

/**
 * Stage 4: every library's phrasings fused into one list per library
 * ({@link fusePhrasings}), the lists scaled to compare across libraries
 * ({@link crossLibraryScale}) and merged best first, then re-ranked when a
 * re-ranker takes part.
 */
export async function merge(
  gathered: Found,
  phrasings: readonly Phrasing[],
  options: ResolvedOptions,
  retrieval: Retrieval,
): Promise<Merged> {
  const { answering, found, information, rarest } = gathered;
  const libraries = answering.map((target, t) =>
    fusePhrasings(target, found[t] as PhrasingHits[], phrasings, information, rarest, options),
  );
  const lists = crossLibraryScale(libraries, options);
  const match = found.some((l) => l.some((h, i) => h.bestCoverage > 0 && h.bestCoverage === phrasings[i]?.terms.length))
    ? 'all'
    : 'some';
  return { merged: await retrieval.rerank(bestFirst(lists.flat())), match };
}

/**
 * One library's answer to every phrasing, fused into one list ({@link fuseScores}:
 * each phrasing's normalised scores weighed, the topic's most), then cut at the
 * library's own drop. A chunk under the drop within its own library is under it
 * in any merged list (scaling a library's scores keeps their ratios), so it is let go
 * here: over many libraries, most are.
 */
export function fusePhrasings(
  target: Target,
  found: readonly PhrasingHits[],
  phrasings: readonly Phrasing[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
  options: ResolvedOptions,
): LibraryCandidates {
  const byId = found.map((h) => new Map(h.list.map((c) => [c.hit.id, c])));
  const fused = fuseScores(
    found.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.score }))),
    { weights: phrasings.map((p) => p.weight), rest: options.fusionRest },
  );
  const plain = new Map(
    fuseScores(
      found.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.plain }))),
      { weights: phrasings.map((p) => p.weight), rest: options.fusionRest },
    ).map((f) => [f.id, f.score]),
  );
  // Fused scores can pass 1; each library's best goes back to 1, as with one phrasing.
  const top = fused[0]?.score ?? 0;
  const topPlain = Math.max(0, ...plain.values());
  const list: Candidate[] = [];
  for (const f of fused) {
    const wordsAlone = plain.get(f.id) ?? 0;
    // Under the drop by both measures (see aboveDrop): under it in any merged list too.
    if (f.score < options.drop * top && wordsAlone < options.drop * topPlain) continue;
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
  let informationHeld = 0;
  let holdsRarest = false;
  for (const [i, h] of found.entries()) {
    const phrasing = phrasings[i] as Phrasing;
    if (h.list.length === 0 || phrasing.terms.length === 0) continue;
    coverage = Math.max(
      coverage,
      phrasing.weight * (h.bestCoverage / phrasing.terms.length) ** options.coverageExponent,
    );
    const weights = information[i] ?? [];
    const share = h.list.reduce((most, c) => Math.max(most, heldShare(weights, c.held)), 0);
    informationHeld = Math.max(informationHeld, phrasing.weight * share);
    const r = rarest[i] ?? -1;
    holdsRarest ||= r >= 0 && h.list.some((c) => c.held.includes(r));
  }
  return { list, coverage, information: informationHeld, holdsRarest };
}

/**
 * Min-max makes every library's best chunk 1.0, even a library that only
 * matches a stray word. Coverage, unlike BM25, means the same in every
 * library, so each library's scores are scaled by how its best coverage
 * compares with the best of any library (raised to the same exponent). And a
 * library none of whose chunks holds the question's rarest word, when another
 * library's do, is scaled by how much of the question's information its best
 * chunk holds compared with the best library's (raised to `idfExponent`): it
 * cannot outrank the library holding the word that tells them apart.
 */
function crossLibraryEvidence(found: readonly LibraryCandidates[], options: ResolvedOptions): number[] {
  const bestCoverage = Math.max(...found.map((f) => f.coverage));
  const bestInformation = Math.max(...found.map((f) => f.information));
  const someHoldRarest = found.some((f) => f.holdsRarest);
  return found.map(({ coverage, information, holdsRarest }) => {
    const byCoverage = bestCoverage > 0 ? coverage / bestCoverage : 1;
    const lacking = someHoldRarest && !holdsRarest && bestInformation > 0;
    return byCoverage * (lacking ? (information / bestInformation) ** options.idfExponent : 1);
  });
}

/**
 * Scales each library's scores so that a merged list compares like with
 * like, by term coverage and information (crossLibraryEvidence), in hybrid
 * answers too: scaling by each library's best cosine similarity instead cost
 * cross-library MRR@10 0.876 → 0.772 with all-MiniLM-L6-v2, whose cosines
 * are close together for every library (docs/ranking.md, "Measured with real
 * models").
 */
export function crossLibraryScale(found: readonly LibraryCandidates[], options: ResolvedOptions): Candidate[][] {
  if (found.length < 2) return found.map((f) => f.list);
  const factors = crossLibraryEvidence(found, options);
  return found.map(({ list }, i) => {
    const factor = factors[i] ?? 1;
    return factor === 1 ? list : list.map((c) => ({ ...c, score: c.score * factor, plain: c.plain * factor }));
  });
}

/**
 * Candidates best first: by score, then raw score, then library label (byLabel), then chunk id. Each library's label is
 * lowered once, not at each comparison: over many libraries, ties between libraries are most of the comparisons.
 */
function bestFirst(candidates: Candidate[]): Candidate[] {
  const lowered = new Map<Target, string>();
  for (const c of candidates) if (!lowered.has(c.target)) lowered.set(c.target, c.target.label.toLowerCase());
  const byLabelOf = (a: Target, b: Target) =>
    a === b ? 0 : byLabel(a.label, b.label, lowered.get(a) as string, lowered.get(b) as string);
  return candidates.sort(
    (a, b) => b.score - a.score || b.raw - a.raw || byLabelOf(a.target, b.target) || a.hit.id - b.hit.id,
  );
}

/**
 * Library labels in alphabetical order ignoring case, as `localeCompare` puts the letters, digits and punctuation of
 * `name@version`, without loading ICU's collator (~15 ms the first time in a process, on a one-question `docs search`);
 * `la` and `lb` are `a` and `b` lowercased.
 */
function byLabel(a: string, b: string, la: string, lb: string): number {
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
