/** Options of {@link rerank}. */
export interface RerankOptions {
  /**
   * How many of the first items are reordered; the rest keep their place
   * after them. Must be a whole number ≥ 0; more than the items is all of them.
   * @default every item that has a score
   */
  readonly top?: number;
}

/**
 * Reorders the first items of a ranked list by a re-ranker's scores (a
 * cross-encoder reads query and passage together, so it orders a short list
 * better than the retrievers that found it, at a cost that forbids scoring
 * every candidate). `scores[i]` is the score of `items[i]`.
 *
 * - The first `n = min(top, scores.length, items.length)` items come out by
 *   score descending; equal scores keep their order in the input (stable).
 * - Items from position `n` on keep their order and come after them: the
 *   result is a permutation of the input.
 * - Scores need not be normalised (logits are fine) but must be finite.
 * - No items, or `top` 0 → the items unchanged (a copy). The input is not mutated.
 *
 * @throws {RangeError} If a score the reorder uses is NaN or infinite, or `top` is not a whole number ≥ 0.
 *
 * @example
 * rerank(['a', 'b', 'c'], [0.1, 0.9]); // → ['b', 'a', 'c']
 */
export function rerank<T>(items: readonly T[], scores: readonly number[], options: RerankOptions = {}): T[] {
  const { top = scores.length } = options;
  if (!(Number.isInteger(top) && top >= 0)) {
    throw new RangeError(`rerank: top must be a whole number >= 0, got ${String(top)}`);
  }
  const n = Math.min(top, scores.length, items.length);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(scores[i])) {
      throw new RangeError(`rerank: scores[${i}] is ${String(scores[i])}; every score must be a finite number`);
    }
  }
  const head = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (scores[b] as number) - (scores[a] as number) || a - b,
  );
  return [...head.map((i) => items[i] as T), ...items.slice(n)];
}
