import type { ChunkHit } from '@docs/store';
import type { TermCounts } from '../idf.js';

/** A library's candidates as retrieval scored them: hits, their within-library scores, how many query terms each holds. */
export interface ScoredHits {
  readonly hits: readonly ChunkHit[];
  readonly raw: readonly number[];
  readonly covered: readonly number[];
}

/** A chunk one phrasing found in one library. */
export interface PhrasingHit {
  readonly hit: ChunkHit;
  /** The lexical within-library score before normalisation (0 for a section only vectors found): what breaks ties across libraries. */
  readonly raw: number;
  /** Normalised within its library, [0, 1]. */
  readonly score: number;
  /** The same without the heading boost (the `words` part of signalScore), normalised within its library. */
  readonly plain: number;
  /** How many of the phrasing's terms the chunk holds. */
  readonly coverage: number;
  /** Which of the phrasing's terms (indices) the chunk holds. */
  readonly held: readonly number[];
}

/** What one phrasing found in one library. */
export interface PhrasingHits {
  readonly list: readonly PhrasingHit[];
  /** The most terms any chunk found holds. */
  readonly bestCoverage: number;
  readonly counts: TermCounts;
  /**
   * In a hybrid answer, on the topic's list only: each candidate's cosine similarity to the question, as a share of
   * the library's best (see fusePhrasings); undefined in a lexical one.
   */
  readonly similarity?: ReadonlyMap<number, number>;
}

/** Lexical candidates with which terms each holds and how common each term is. */
export interface LexicalHits extends ScoredHits {
  /** `raw` without the heading boost: what the chunk's words alone are worth. */
  readonly plain: readonly number[];
  readonly held: readonly (readonly number[])[];
  readonly counts: TermCounts;
}

/** What a phrasing finds in a library it is not searched in, or that holds none of its words: nothing, and these counts. */
export function noHits(counts: TermCounts = { frequencies: [], chunks: 0 }): PhrasingHits {
  return { list: [], bestCoverage: 0, counts };
}

/** Scored hits as a phrasing's list, best first. */
export function phrasingHits(
  scored: ScoredHits,
  scores: readonly number[],
  held: readonly (readonly number[])[],
  counts: TermCounts,
  plain: readonly number[] = scores,
): PhrasingHits {
  const list = scored.hits
    .map((hit, i) => ({
      hit,
      raw: scored.raw[i] ?? 0,
      score: scores[i] ?? 0,
      plain: plain[i] ?? 0,
      coverage: scored.covered[i] ?? 1,
      held: held[i] ?? [],
    }))
    .sort((x, y) => y.score - x.score || y.raw - x.raw);
  return { list, bestCoverage: scored.covered.reduce((best, c) => Math.max(best, c), 0), counts };
}
