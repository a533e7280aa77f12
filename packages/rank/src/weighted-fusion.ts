/** Options of {@link fuseScores}. */
export interface ScoreFusionOptions {
  /**
   * Weight of each list, by position: a list's scores count × its weight. A
   * list without a weight counts × 1. Each weight must be a finite number ≥ 0.
   * The usual use: the question as asked at 1, phrasings of it a little lower.
   * @default 1 for every list
   */
  readonly weights?: readonly number[];
  /**
   * How much the lists other than an id's best add to its score, in [0, 1]:
   * score = best + rest × (sum of the other weighted scores). 0 is CombMAX
   * (an id scores what its best list gives it), 1 is CombSUM (every list
   * adds in full). Between them, an id found by several lists gains over one
   * found by a single list with the same best score, without a list of many
   * weak matches outweighing one strong match.
   * @default 0
   */
  readonly rest?: number;
}

/** One id with its score in one list (e.g. a normalised relevance in [0, 1]). */
export interface ScoredId {
  readonly id: string;
  readonly score: number;
}

/** One id after fusion. */
export interface FusedScore {
  readonly id: string;
  readonly score: number;
  /** Positions of the lists that hold the id, ascending. */
  readonly lists: readonly number[];
  /** Position of the list that gave the id its best weighted score (the first such list on a tie). */
  readonly best: number;
}

/**
 * Fuses scored lists of ids (each list from one way of asking, e.g. one
 * phrasing of a question) into one list, by the ids' weighted scores:
 * CombMAX by default, CombSUM with `rest: 1`, or in between. Unlike
 * {@link reciprocalRankFusion}, it keeps how good each match is, so the lists'
 * scores must already share a scale (normalise each first).
 *
 * - An id's weighted score in a list is its score × the list's weight; a
 *   duplicate id within one list counts at its highest score.
 * - score(id) = best weighted score + rest × (the sum of its other weighted scores).
 * - An id that scores at least as high as another in every list that holds the
 *   other, and is held by every list, never ranks below it.
 * - Sorted by score descending; ties go to the id held by more lists, then to
 *   the smaller id (UTF-16 order). The result, scores included bit for bit,
 *   does not depend on the order of the lists (each moved with its weight) or
 *   of the ids within a list, except for the list positions it reports.
 * - Empty input, or only empty lists → `[]`. The input is not mutated.
 *
 * @throws {RangeError} If a score is negative or not finite, a weight is
 *   negative or not finite, `weights` is longer than `lists`, or `rest` is
 *   outside [0, 1].
 *
 * @example
 * fuseScores([[{ id: 'a', score: 1 }, { id: 'b', score: 0.5 }], [{ id: 'b', score: 1 }]], { weights: [1, 0.8] });
 * // → [{ id: 'a', score: 1, lists: [0], best: 0 }, { id: 'b', score: 0.8, lists: [0, 1], best: 1 }]
 */
export function fuseScores(lists: readonly (readonly ScoredId[])[], options: ScoreFusionOptions = {}): FusedScore[] {
  const { weights = [], rest = 0 } = options;
  if (!(rest >= 0 && rest <= 1)) throw new RangeError(`fuseScores: rest must be between 0 and 1, got ${String(rest)}`);
  if (weights.length > lists.length) {
    throw new RangeError(`fuseScores: ${weights.length} weights for ${lists.length} lists; give at most one per list`);
  }
  for (const [i, weight] of weights.entries()) {
    if (!(Number.isFinite(weight) && weight >= 0)) {
      throw new RangeError(`fuseScores: weights[${i}] is ${String(weight)}; each weight must be a finite number ≥ 0`);
    }
  }
  if (lists.length === 1) return fuseOne(lists[0] as readonly ScoredId[], weights[0] ?? 1);
  // id → (list position → weighted score)
  const found = new Map<string, Map<number, number>>();
  for (const [position, list] of lists.entries()) {
    const weight = weights[position] ?? 1;
    for (const [i, { id, score }] of list.entries()) {
      if (!(Number.isFinite(score) && score >= 0)) {
        throw new RangeError(
          `fuseScores: lists[${position}][${i}].score is ${String(score)}; each score must be a finite number ≥ 0`,
        );
      }
      const byList = found.get(id) ?? new Map<number, number>();
      byList.set(position, Math.max(byList.get(position) ?? 0, score * weight));
      found.set(id, byList);
    }
  }
  const fused: FusedScore[] = [];
  for (const [id, byList] of found) {
    const positions = [...byList.keys()].sort((a, b) => a - b);
    let best = positions[0] as number;
    for (const p of positions) if ((byList.get(p) as number) > (byList.get(best) as number)) best = p;
    // Summed in ascending order: floating-point addition is not associative,
    // and this keeps the score independent of the order of the lists.
    const others = positions
      .filter((p) => p !== best)
      .map((p) => byList.get(p) as number)
      .sort((a, b) => a - b);
    let sum = 0;
    for (const s of others) sum += s;
    fused.push({ id, score: (byList.get(best) as number) + rest * sum, lists: positions, best });
  }
  return fused.sort(
    (a, b) => b.score - a.score || b.lists.length - a.lists.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * {@link fuseScores} of one list, the usual case (a question asked one way): each id at its best weighted score,
 * which is what the general case computes (best + rest × 0), without a map of lists per id.
 */
function fuseOne(list: readonly ScoredId[], weight: number): FusedScore[] {
  const best = new Map<string, number>();
  for (const [i, { id, score }] of list.entries()) {
    if (!(Number.isFinite(score) && score >= 0)) {
      throw new RangeError(
        `fuseScores: lists[0][${i}].score is ${String(score)}; each score must be a finite number ≥ 0`,
      );
    }
    best.set(id, Math.max(best.get(id) ?? 0, score * weight));
  }
  const fused: FusedScore[] = [];
  for (const [id, score] of best) fused.push({ id, score, lists: [0], best: 0 });
  return fused.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
