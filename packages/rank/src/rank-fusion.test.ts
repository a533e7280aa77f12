import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { reciprocalRankFusion } from './rank-fusion.js';

describe('reciprocalRankFusion', () => {
  test.each([
    { name: 'no lists', rankings: [], k: undefined, expected: [] },
    { name: 'only empty lists', rankings: [[], []], k: undefined, expected: [] },
    {
      name: 'one list keeps its order',
      rankings: [['b', 'a']],
      k: undefined,
      expected: [
        { id: 'b', score: 1 / 61 },
        { id: 'a', score: 1 / 62 },
      ],
    },
    {
      name: 'k = 0',
      rankings: [
        ['a', 'b'],
        ['b', 'c'],
      ],
      k: 0,
      expected: [
        { id: 'b', score: 1.5 },
        { id: 'a', score: 1 },
        { id: 'c', score: 0.5 },
      ],
    },
    {
      name: 'a duplicate within one list counts at its first position only',
      rankings: [['a', 'b', 'a', 'c']],
      k: 0,
      expected: [
        { id: 'a', score: 1 },
        { id: 'b', score: 0.5 },
        { id: 'c', score: 0.25 },
      ],
    },
    {
      name: 'the same id in different lists adds up',
      rankings: [['x'], ['x'], ['y']],
      k: 1,
      expected: [
        { id: 'x', score: 1 },
        { id: 'y', score: 0.5 },
      ],
    },
    {
      name: 'ties broken by id ascending',
      rankings: [
        ['b', 'a'],
        ['a', 'b'],
      ],
      k: 60,
      expected: [
        { id: 'a', score: 1 / 61 + 1 / 62 },
        { id: 'b', score: 1 / 61 + 1 / 62 },
      ],
    },
    {
      name: 'ties use code unit order, not locale order',
      rankings: [['b'], ['B'], ['a']],
      k: 0,
      expected: [
        { id: 'B', score: 1 },
        { id: 'a', score: 1 },
        { id: 'b', score: 1 },
      ],
    },
  ])('$name', ({ rankings, k, expected }) => {
    const result = reciprocalRankFusion(rankings, k === undefined ? {} : { k });
    expect(result.map((r) => r.id)).toEqual(expected.map((e) => e.id));
    result.forEach((r, i) => {
      expect(r.score).toBeCloseTo(expected[i]?.score ?? Number.NaN, 12);
    });
  });

  test.each([
    { k: -1, message: 'k must be a finite number >= 0, got -1' },
    { k: Number.NaN, message: 'got NaN' },
    { k: Number.POSITIVE_INFINITY, message: 'got Infinity' },
  ])('rejects k = $k', ({ k, message }) => {
    expect(() => reciprocalRankFusion([['a']], { k })).toThrow(RangeError);
    expect(() => reciprocalRankFusion([['a']], { k })).toThrow(message);
  });

  it('does not mutate its input', () => {
    const rankings = Object.freeze([Object.freeze(['b', 'a']), Object.freeze(['a'])]);
    expect(reciprocalRankFusion(rankings)).toHaveLength(2);
    expect(rankings).toEqual([['b', 'a'], ['a']]);
  });

  const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'A', '');
  const rankings = fc.array(fc.array(id, { maxLength: 8 }), { maxLength: 6 });
  const k = fc.oneof(fc.constant(0), fc.nat({ max: 100 }), fc.double({ min: 0, max: 1000, noNaN: true }));

  it('does not depend on the order of the input lists', () => {
    const shuffled = rankings.chain((lists) =>
      fc.tuple(fc.constant(lists), fc.shuffledSubarray(lists, { minLength: lists.length, maxLength: lists.length })),
    );
    fc.assert(
      fc.property(shuffled, k, ([lists, permuted], kk) => {
        expect(reciprocalRankFusion(permuted, { k: kk })).toEqual(reciprocalRankFusion(lists, { k: kk }));
      }),
    );
  });

  it('returns each distinct id once, sorted by score descending then id ascending', () => {
    fc.assert(
      fc.property(rankings, k, (lists, kk) => {
        const result = reciprocalRankFusion(lists, { k: kk });
        expect(new Set(result.map((r) => r.id))).toEqual(new Set(lists.flat()));
        expect(result).toHaveLength(new Set(lists.flat()).size);
        for (let i = 1; i < result.length; i++) {
          const prev = result[i - 1];
          const cur = result[i];
          if (prev === undefined || cur === undefined) continue;
          expect(prev.score > cur.score || (prev.score === cur.score && prev.id < cur.id)).toBe(true);
        }
      }),
    );
  });
});
