/** Options of {@link convexFusion}. */
export interface ConvexFusionOptions {
  /**
   * The share of the second score (e.g. vector similarity) in the fused
   * score; the first (e.g. lexical) gets the rest. 0 keeps the first alone, 1
   * the second alone. Must be in [0, 1].
   * @default 0.5
   */
  readonly weight?: number;
}

/**
 * A convex combination of two normalised scores per item:
 * `fused[i] = (1 − weight) · first[i] + weight · second[i]`. Unlike rank
 * fusion it keeps how far apart the scores are, not only their order, so a
 * retriever that is sure counts for more than one that barely prefers.
 *
 * - Both lists hold scores in [0, 1] (normalise them first, e.g. with
 *   minMaxNormalize); an item a retriever did not find scores 0 there.
 * - The result is in [0, 1], same length and order as the input; it is
 *   monotone in each list (raising one score never lowers the fused one).
 * - weight 0 gives `first` back exactly, weight 1 `second`.
 * - Empty lists → `[]`. The input is not mutated.
 *
 * @throws {RangeError} If the lists differ in length, a score is not a number
 *   in [0, 1], or `weight` is not in [0, 1].
 *
 * @example
 * convexFusion([1, 0.5, 0], [0, 1, 1], { weight: 0.5 }); // → [0.5, 0.75, 0.5]
 */
export function convexFusion(
  first: readonly number[],
  second: readonly number[],
  options: ConvexFusionOptions = {},
): number[] {
  const { weight = 0.5 } = options;
  if (!(weight >= 0 && weight <= 1)) {
    throw new RangeError(`convexFusion: weight must be between 0 and 1, got ${String(weight)}`);
  }
  if (first.length !== second.length) {
    throw new RangeError(`convexFusion: the lists differ in length (${first.length} and ${second.length})`);
  }
  const check = (list: readonly number[], name: string) => {
    for (let i = 0; i < list.length; i++) {
      const score = list[i] as number;
      if (!(score >= 0 && score <= 1)) {
        throw new RangeError(`convexFusion: ${name}[${i}] is ${String(score)}; scores must be in [0, 1]`);
      }
    }
  };
  check(first, 'first');
  check(second, 'second');
  // Written so that weight 0 and 1 return the input exactly, and the sum cannot pass 1 by rounding.
  return first.map((a, i) => {
    const b = second[i] as number;
    if (weight === 0) return a;
    if (weight === 1) return b;
    return Math.min(1, (1 - weight) * a + weight * b);
  });
}
