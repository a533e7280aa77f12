/**
 * How much of a question a text holds, by information rather than by word
 * count: each of the question's terms weighs its inverse document frequency
 * over the documentation searched, so a rare word ("cors") weighs more than a
 * common one ("enable"), and a word no section uses weighs the most of all.
 */

/** One library's counts for one phrasing's terms. */
export interface TermCounts {
  /** For each term, how many chunks hold it. */
  readonly frequencies: readonly number[];
  /** How many chunks the library has. */
  readonly chunks: number;
}

/**
 * The terms' weights over all the libraries searched (their counts added):
 * BM25's inverse document frequency, ln(1 + (N − df + 0.5) / (df + 0.5)),
 * which stays above 0 even for a word every chunk holds.
 */
export function idfWeights(counts: readonly TermCounts[], termCount: number): number[] {
  const chunks = counts.reduce((sum, c) => sum + c.chunks, 0);
  return Array.from({ length: termCount }, (_, t) => {
    const df = counts.reduce((sum, c) => sum + (c.frequencies[t] ?? 0), 0);
    return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
  });
}

/** The share, in [0, 1], of the terms' total weight that the held terms (indices) carry. */
export function heldShare(weights: readonly number[], held: readonly number[]): number {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total === 0) return 0;
  const have = [...new Set(held)].reduce((sum, t) => sum + (weights[t] ?? 0), 0);
  return Math.min(1, have / total);
}
