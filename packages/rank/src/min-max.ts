/**
 * Scales scores linearly to [0, 1] so that scores from different retrievers
 * (BM25, cosine similarity, ...) can be compared and thresholded.
 *
 * - The maximum maps to exactly 1 and the minimum to exactly 0.
 * - One score, or all scores equal → every score is 1.0 (each is "the best"
 *   there is, so none should be dropped by a relative threshold).
 * - Empty input → `[]`.
 * - Order is preserved: `output[i]` corresponds to `scores[i]`, and the
 *   mapping is monotone (a < b ⇒ na ≤ nb, a === b ⇒ na === nb).
 * - The input is not mutated.
 *
 * @param scores - Raw scores, in any order and on any finite scale.
 * @returns A new array of normalised scores, same length and order.
 * @throws {RangeError} If any score is NaN, Infinity or -Infinity; the message
 *   names the index and the value.
 *
 * @example
 * minMaxNormalize([2, 4, 6]); // → [0, 0.5, 1]
 * minMaxNormalize([3, 3]);    // → [1, 1]
 */
export function minMaxNormalize(scores: readonly number[]): number[] {
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
