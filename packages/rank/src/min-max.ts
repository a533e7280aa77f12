/** Options of {@link minMaxNormalize}. */
export interface MinMaxOptions {
  /**
   * The score that maps to 0. By default the smallest score given, so the
   * weakest of the list becomes 0 however good it is. A retriever with a
   * natural zero (BM25: a text that matches nothing scores 0) passes that
   * instead, so a list's weaker results keep their share of the best score
   * rather than a share of an arbitrary range. Must not exceed any score.
   * @default the minimum of `scores`
   */
  readonly floor?: number;
}

/**
 * Scales scores linearly to [0, 1] so that scores from different retrievers
 * (BM25, cosine similarity, ...) can be compared and thresholded.
 *
 * - The maximum maps to exactly 1 and the minimum (or `options.floor`) to exactly 0.
 * - One score, or all scores equal → every score is 1.0 (each is "the best"
 *   there is, so none should be dropped by a relative threshold).
 * - Empty input → `[]`.
 * - Order is preserved: `output[i]` corresponds to `scores[i]`, and the
 *   mapping is monotone (a < b ⇒ na ≤ nb, a === b ⇒ na === nb).
 * - The input is not mutated.
 *
 * @param scores - Raw scores, in any order and on any finite scale.
 * @returns A new array of normalised scores, same length and order.
 * @throws {RangeError} If any score is NaN, Infinity or -Infinity (the message
 *   names the index and the value), or if `floor` is not finite or exceeds a score.
 *
 * @example
 * minMaxNormalize([2, 4, 6]);               // → [0, 0.5, 1]
 * minMaxNormalize([3, 3]);                  // → [1, 1]
 * minMaxNormalize([2, 4, 8], { floor: 0 }); // → [0.25, 0.5, 1]
 */
export function minMaxNormalize(scores: readonly number[], options: MinMaxOptions = {}): number[] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i] as number;
    if (!Number.isFinite(score)) {
      throw new RangeError(`minMaxNormalize: scores[${i}] is ${String(score)}; every score must be a finite number`);
    }
    if (score < min) min = score;
    if (score > max) max = score;
  }
  if (scores.length === 0) return [];
  if (options.floor !== undefined) {
    if (!Number.isFinite(options.floor)) {
      throw new RangeError(`minMaxNormalize: floor is ${String(options.floor)}; it must be a finite number`);
    }
    if (options.floor > min) {
      throw new RangeError(
        `minMaxNormalize: floor ${options.floor} exceeds the score ${min}; it must not exceed any score`,
      );
    }
    min = options.floor;
  }
  if (max === min) return scores.map(() => 1);

  // Two finite scores can still be more than Number.MAX_VALUE apart; halving
  // both ends keeps the range finite (halving is exact for such large values),
  // where the naive form would give 0 everywhere and NaN at the maximum.
  const scale = Number.isFinite(max - min) ? 1 : 0.5;
  const low = min * scale;
  const range = max * scale - low;
  // (s - low) ≤ range for every s ≤ max, and IEEE division of x by y ≥ x is
  // ≤ 1, so results stay in [0, 1] without clamping; max gives exactly 1.
  return scores.map((score) => (score * scale - low) / range);
}
