/** Options for {@link diversify}. */
export interface DiversifyOptions<T> {
  /** The group an item belongs to (in a documentation search: its page). */
  readonly key: (item: T) => string;
  /**
   * Multiplier applied once per better-scored item of the same group: the
   * n-th item of a group (from 0) scores `score × decay^n`. In (0, 1]; 1
   * changes nothing.
   * @default 0.6
   */
  readonly decay?: number;
}

/**
 * Spreads a ranked list over its groups, so the first results come from
 * several pages rather than from every section of one.
 *
 * Each item's score becomes `score × decay^n`, where n is the number of items
 * of its group with a higher score (ties broken by input order), and the list
 * is sorted by that score, best first (stable). This is what greedily picking
 * the best discounted item at each step would give, in O(n log n): within a
 * group the order never changes, so each item's discount is known upfront.
 *
 * Edges: an empty list gives `[]`; `decay` 1 gives the items sorted by score;
 * the best item keeps its score. Items are copied (`{ ...item, score }`); the
 * input is not mutated.
 *
 * @throws {RangeError} If `decay` is not in (0, 1] or a score is not finite.
 *
 * @example
 * diversify(
 *   [{ page: 'a', score: 1 }, { page: 'a', score: 0.9 }, { page: 'b', score: 0.8 }],
 *   { key: (r) => r.page, decay: 0.5 },
 * );
 * // → [{ page: 'a', score: 1 }, { page: 'b', score: 0.8 }, { page: 'a', score: 0.45 }]
 */
export function diversify<T extends { readonly score: number }>(
  items: readonly T[],
  options: DiversifyOptions<T>,
): T[] {
  const { key, decay = 0.6 } = options;
  if (!(decay > 0 && decay <= 1)) {
    throw new RangeError(`diversify: decay must be a number in (0, 1], got ${String(decay)}`);
  }
  for (const [i, item] of items.entries()) {
    if (!Number.isFinite(item.score)) {
      throw new RangeError(
        `diversify: items[${i}].score is ${String(item.score)}; every score must be a finite number`,
      );
    }
  }
  const order = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.score - a.item.score || a.index - b.index);
  const seen = new Map<string, number>();
  // Ties go by that order, so a page's own order holds even where a discount rounds to a tie.
  const discounted = order.map(({ item }, position) => {
    const group = key(item);
    const before = seen.get(group) ?? 0;
    seen.set(group, before + 1);
    return { item: { ...item, score: item.score * decay ** before }, position };
  });
  return discounted.sort((a, b) => b.item.score - a.item.score || a.position - b.position).map((d) => d.item);
}
