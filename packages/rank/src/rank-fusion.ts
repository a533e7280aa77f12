/** Options for {@link reciprocalRankFusion}. */
export interface RankFusionOptions {
  /**
   * RRF constant: score(d) = Σ 1 / (k + rank), rank starting at 1. Must be >= 0 finite.
   * Larger k flattens the difference between top and lower ranks.
   * @default 60
   */
  readonly k?: number;
}

/** One id with its fused score. */
export interface FusedResult {
  readonly id: string;
  readonly score: number;
}

/**
 * Reciprocal rank fusion of several ranked id lists (best first), e.g. a
 * keyword ranking and a vector ranking. Only ranks matter, so the lists'
 * scores never need to be on the same scale.
 *
 * - score(id) = Σ over lists containing id of 1 / (k + rank), rank starting at 1.
 * - A duplicate id within one list counts at its first (best) position only;
 *   the later copy still occupies its position, so ids after it keep the rank
 *   they have in the list as given.
 * - The result is sorted by score descending, ties broken by id ascending
 *   (UTF-16 code unit order, not locale-dependent). Each id's contributions
 *   are summed in a fixed order, so the result, scores included bit for bit,
 *   does not depend on the order of the input lists.
 * - Empty input, or only empty lists → `[]`. The input is not mutated.
 *
 * @param rankings - Ranked lists of ids, each best first.
 * @param options - See {@link RankFusionOptions}.
 * @returns One entry per distinct id.
 * @throws {RangeError} If `k` is negative, NaN or infinite.
 *
 * @example
 * reciprocalRankFusion([['a', 'b'], ['b', 'c']], { k: 0 });
 * // → [{ id: 'b', score: 1.5 }, { id: 'a', score: 1 }, { id: 'c', score: 0.5 }]
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  options: RankFusionOptions = {},
): FusedResult[] {
  const { k = 60 } = options;
  if (!(Number.isFinite(k) && k >= 0)) {
    throw new RangeError(`reciprocalRankFusion: k must be a finite number >= 0, got ${String(k)}`);
  }

  const contributions = new Map<string, number[]>();
  for (const ranking of rankings) {
    const seen = new Set<string>();
    ranking.forEach((id, index) => {
      if (seen.has(id)) return;
      seen.add(id);
      const score = 1 / (k + index + 1);
      const list = contributions.get(id);
      if (list === undefined) contributions.set(id, [score]);
      else list.push(score);
    });
  }

  const fused: FusedResult[] = [];
  for (const [id, scores] of contributions) {
    // Floating-point addition is not associative; summing in sorted order
    // makes the score independent of which list came first.
    scores.sort((a, b) => a - b);
    let score = 0;
    for (const s of scores) score += s;
    fused.push({ id, score });
  }
  return fused.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
