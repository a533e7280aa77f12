/** Options for {@link relevanceDrop}. */
export interface RelevanceDropOptions {
  /**
   * Keep items whose score ≥ drop × top score. In [0, 1]: 0 keeps every item
   * with a non-negative score, 1 keeps only the items tied with the top.
   * @default 0.5
   */
  readonly drop?: number;
}

/**
 * Cuts a ranked list where relevance falls off, relative to the best hit, so
 * that a weak tail is not sent to the reader just because it was retrieved.
 *
 * Items are assumed sorted best first (score descending). An item is kept when
 * `score >= drop * topScore`, where `topScore` is the maximum score in the
 * list; order is preserved, so for sorted input the result is a prefix.
 *
 * Edges:
 * - Empty input → `[]`.
 * - One item → that item (it is the top).
 * - All scores equal → every item.
 * - Top score ≤ 0: `drop × top` would be *above* a negative top and make the
 *   threshold meaningless, so only the items whose score equals the top are
 *   kept (for sorted input: the leading tie).
 *
 * The returned array is new, but holds the same item objects (not copies); the
 * input is not mutated.
 *
 * @param items - Ranked items, best first; each needs a finite `score`.
 * @param options - See {@link RelevanceDropOptions}.
 * @returns The kept items, in input order.
 * @throws {RangeError} If `drop` is NaN or outside [0, 1], or if any item's
 *   score is not finite (the message names the index and value).
 *
 * @example
 * relevanceDrop([{ id: 'a', score: 1 }, { id: 'b', score: 0.7 }, { id: 'c', score: 0.2 }]);
 * // → [{ id: 'a', score: 1 }, { id: 'b', score: 0.7 }]
 */
export function relevanceDrop<T extends { readonly score: number }>(
  items: readonly T[],
  options: RelevanceDropOptions = {},
): T[] {
  const { drop = 0.5 } = options;
  if (!(drop >= 0 && drop <= 1)) {
    throw new RangeError(`relevanceDrop: drop must be a number in [0, 1], got ${String(drop)}`);
  }

  let top = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < items.length; i++) {
    const score = (items[i] as T).score;
    if (!Number.isFinite(score)) {
      throw new RangeError(`relevanceDrop: items[${i}].score is ${String(score)}; every score must be a finite number`);
    }
    if (score > top) top = score;
  }
  if (items.length === 0) return [];

  if (top <= 0) return items.filter((item) => item.score === top);
  const threshold = drop * top;
  return items.filter((item) => item.score >= threshold);
}
