import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { fuseScores, type ScoredId } from './weighted-fusion.js';

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const score = fc.double({ min: 0, max: 1, noNaN: true });
const list = fc.array(fc.record({ id: ids, score }), { maxLength: 6 });
const lists = fc.array(list, { maxLength: 5 });
const weight = fc.double({ min: 0, max: 2, noNaN: true });
const rest = fc.double({ min: 0, max: 1, noNaN: true });

/** The lists with their weights, shuffled together by a permutation fast-check picks. */
const permuted = <T>(items: readonly T[], order: readonly number[]): T[] =>
  order.map((i) => items[i] as T).concat(items.filter((_, i) => !order.includes(i)));

describe('fuseScores', () => {
  test.each([
    { name: 'no lists', lists: [], options: {}, expected: [] },
    { name: 'only empty lists', lists: [[], []], options: {}, expected: [] },
    {
      name: 'one list keeps its scores',
      lists: [
        [
          { id: 'a', score: 0.4 },
          { id: 'b', score: 0.9 },
        ],
      ],
      options: {},
      expected: [
        { id: 'b', score: 0.9, lists: [0], best: 0 },
        { id: 'a', score: 0.4, lists: [0], best: 0 },
      ],
    },
    {
      name: 'CombMAX: the best weighted score',
      lists: [
        [
          { id: 'a', score: 1 },
          { id: 'b', score: 0.5 },
        ],
        [{ id: 'b', score: 1 }],
      ],
      options: { weights: [1, 0.8] },
      expected: [
        { id: 'a', score: 1, lists: [0], best: 0 },
        { id: 'b', score: 0.8, lists: [0, 1], best: 1 },
      ],
    },
    {
      name: 'CombSUM with rest 1',
      lists: [
        [
          { id: 'a', score: 1 },
          { id: 'b', score: 0.5 },
        ],
        [{ id: 'b', score: 1 }],
      ],
      options: { weights: [1, 0.8], rest: 1 },
      expected: [
        { id: 'b', score: 1.3, lists: [0, 1], best: 1 },
        { id: 'a', score: 1, lists: [0], best: 0 },
      ],
    },
    {
      name: 'a duplicate within one list counts at its highest score',
      lists: [
        [
          { id: 'a', score: 0.2 },
          { id: 'a', score: 0.6 },
        ],
      ],
      options: {},
      expected: [{ id: 'a', score: 0.6, lists: [0], best: 0 }],
    },
    {
      name: 'a weight of 0 keeps the id, at 0',
      lists: [[{ id: 'a', score: 1 }], [{ id: 'b', score: 1 }]],
      options: { weights: [1, 0] },
      expected: [
        { id: 'a', score: 1, lists: [0], best: 0 },
        { id: 'b', score: 0, lists: [1], best: 1 },
      ],
    },
    {
      name: 'equal scores: the id held by more lists first',
      lists: [
        [{ id: 'a', score: 1 }],
        [
          { id: 'b', score: 1 },
          { id: 'a', score: 0 },
        ],
      ],
      options: {},
      expected: [
        { id: 'a', score: 1, lists: [0, 1], best: 0 },
        { id: 'b', score: 1, lists: [1], best: 1 },
      ],
    },
  ])('$name', ({ lists: input, options, expected }) => {
    expect(fuseScores(input as ScoredId[][], options)).toEqual(expected);
  });

  test.each([
    { name: 'a negative score', lists: [[{ id: 'a', score: -0.1 }]], options: {}, message: /lists\[0\]\[0\]\.score/ },
    { name: 'a NaN score', lists: [[{ id: 'a', score: Number.NaN }]], options: {}, message: /finite/ },
    { name: 'an infinite weight', lists: [[]], options: { weights: [Infinity] }, message: /weights\[0\]/ },
    { name: 'a negative weight', lists: [[]], options: { weights: [-1] }, message: /weights\[0\]/ },
    { name: 'more weights than lists', lists: [[]], options: { weights: [1, 1] }, message: /2 weights for 1 lists/ },
    { name: 'rest above 1', lists: [], options: { rest: 1.5 }, message: /rest/ },
    { name: 'rest NaN', lists: [], options: { rest: Number.NaN }, message: /rest/ },
  ])('rejects $name', ({ lists: input, options, message }) => {
    expect(() => fuseScores(input as ScoredId[][], options)).toThrow(message);
  });

  it('fuses one list as it fuses that list beside an empty one, scores to the bit', () => {
    fc.assert(
      fc.property(list, weight, rest, (l, w, r) => {
        // One list takes a path of its own; with an empty list beside it, the general one.
        expect(fuseScores([l], { weights: [w], rest: r })).toEqual(fuseScores([l, []], { weights: [w, 1], rest: r }));
      }),
    );
  });

  it('does not depend on the order of the lists (each moved with its weight) or of the ids in a list', () => {
    fc.assert(
      fc.property(
        lists.chain((ls) =>
          fc.tuple(
            fc.constant(ls),
            fc.array(weight, { minLength: ls.length, maxLength: ls.length }),
            fc.shuffledSubarray([...ls.keys()], { minLength: ls.length }),
          ),
        ),
        rest,
        ([ls, ws, order], r) => {
          const reversed = ls.map((l) => [...l].reverse());
          const a = fuseScores(ls, { weights: ws, rest: r }).map(({ id, score, lists: held }) => ({
            id,
            score,
            count: held.length,
          }));
          const b = fuseScores(permuted(reversed, order), { weights: permuted(ws, order), rest: r }).map(
            ({ id, score, lists: held }) => ({ id, score, count: held.length }),
          );
          expect(b).toEqual(a);
        },
      ),
    );
  });

  it('gives one entry per distinct id, sorted by score, scores within [best, sum] of the weighted scores', () => {
    fc.assert(
      fc.property(lists, rest, (ls, r) => {
        const fused = fuseScores(ls, { rest: r });
        expect(new Set(fused.map((f) => f.id)).size).toBe(new Set(ls.flat().map((s) => s.id)).size);
        for (let i = 1; i < fused.length; i++) expect(fused[i - 1]?.score).toBeGreaterThanOrEqual(fused[i]?.score ?? 0);
        for (const f of fused) {
          const per = f.lists.map((p) => Math.max(...(ls[p] ?? []).filter((s) => s.id === f.id).map((s) => s.score)));
          const sum = per.reduce((a, b) => a + b, 0);
          expect(f.score).toBeGreaterThanOrEqual(Math.max(...per) - 1e-12);
          expect(f.score).toBeLessThanOrEqual(sum + 1e-12);
          expect(per[f.lists.indexOf(f.best)]).toBe(Math.max(...per));
        }
      }),
    );
  });

  it('never ranks an id found by every list, at least as well, below one found by fewer', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 5 })
          .chain((n) =>
            fc.tuple(
              fc.array(score, { minLength: n, maxLength: n }),
              fc.array(fc.boolean(), { minLength: n, maxLength: n }),
              fc.array(weight, { minLength: n, maxLength: n }),
              fc.array(score, { minLength: n, maxLength: n }),
            ),
          ),
        rest,
        ([other, holds, ws, extra], r) => {
          fc.pre(holds.includes(false));
          // 'z' sorts after 'a', so only the rule, not the id order, can put it first.
          const ls = other.map((s, i) => [
            { id: 'z', score: Math.min(1, s + (extra[i] ?? 0)) },
            ...(holds[i] ? [{ id: 'a', score: s }] : []),
          ]);
          const fused = fuseScores(ls, { weights: ws, rest: r });
          const rankOf = (id: string) => fused.findIndex((f) => f.id === id);
          if (rankOf('a') !== -1) expect(rankOf('z')).toBeLessThan(rankOf('a'));
        },
      ),
    );
  });

  it('respects weights: raising a list’s weight never lowers an id’s score, and an id only that list holds scales with it', () => {
    fc.assert(
      fc.property(lists, fc.nat({ max: 4 }), weight, weight, rest, (ls, at, w1, w2, r) => {
        fc.pre(at < ls.length);
        const [low, high] = w1 <= w2 ? [w1, w2] : [w2, w1];
        const weights = (w: number) => ls.map((_, i) => (i === at ? w : 1));
        const before = new Map(fuseScores(ls, { weights: weights(low), rest: r }).map((f) => [f.id, f]));
        for (const f of fuseScores(ls, { weights: weights(high), rest: r })) {
          const was = before.get(f.id);
          expect(f.score).toBeGreaterThanOrEqual(was?.score ?? 0);
          if (f.lists.length === 1 && f.lists[0] === at && low > 0) {
            // Cross-multiplied: dividing by a subnormal weight (fast-check finds 5e-324) amplifies rounding without bound.
            expect(f.score * low).toBeCloseTo((was?.score ?? 0) * high, 9);
          }
        }
      }),
    );
  });

  it('does not mutate its input', () => {
    const input = [[{ id: 'a', score: 0.5 }], [{ id: 'a', score: 1 }]];
    const copy = structuredClone(input);
    fuseScores(input, { weights: [1, 0.5], rest: 0.5 });
    expect(input).toEqual(copy);
  });
});
