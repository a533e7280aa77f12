import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { rerank } from './rerank.js';

describe('rerank', () => {
  test.each([
    { name: 'no items', items: [], scores: [], top: undefined, expected: [] },
    {
      name: 'reorders the scored head, keeps the tail',
      items: ['a', 'b', 'c'],
      scores: [0.1, 0.9],
      top: undefined,
      expected: ['b', 'a', 'c'],
    },
    {
      name: 'equal scores keep their order',
      items: ['a', 'b', 'c'],
      scores: [1, 1, 1],
      top: undefined,
      expected: ['a', 'b', 'c'],
    },
    { name: 'top limits the reorder', items: ['a', 'b', 'c'], scores: [0, 1, 2], top: 2, expected: ['b', 'a', 'c'] },
    { name: 'top 0 changes nothing', items: ['a', 'b'], scores: [0, 1], top: 0, expected: ['a', 'b'] },
    { name: 'top past the end is all', items: ['a', 'b'], scores: [0, 1], top: 10, expected: ['b', 'a'] },
    { name: 'more scores than items', items: ['a'], scores: [0, 1], top: undefined, expected: ['a'] },
    { name: 'logits below zero', items: ['a', 'b'], scores: [-3.5, -1.2], top: undefined, expected: ['b', 'a'] },
  ])('$name', ({ items, scores, top, expected }) => {
    expect(rerank(items, scores, top === undefined ? {} : { top })).toEqual(expected);
  });

  test.each([
    { name: 'a NaN score', scores: [Number.NaN], top: undefined, error: /scores\[0\] is NaN/ },
    { name: 'an infinite score', scores: [0, Number.POSITIVE_INFINITY], top: undefined, error: /scores\[1\]/ },
    { name: 'a fractional top', scores: [0], top: 1.5, error: /top/ },
    { name: 'a negative top', scores: [0], top: -1, error: /top/ },
  ])('throws on $name', ({ scores, top, error }) => {
    expect(() => rerank(['a', 'b'], scores, top === undefined ? {} : { top })).toThrow(error);
  });

  it('ignores a bad score outside the reordered head', () => {
    expect(rerank(['a', 'b', 'c'], [0, 1, Number.NaN], { top: 2 })).toEqual(['b', 'a', 'c']);
  });

  it('gives a permutation: the head sorted by score, the tail untouched', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { maxLength: 30 }),
        fc.nat({ max: 40 }),
        (scores, top) => {
          const items = scores.map((_, i) => i);
          const out = rerank(items, scores, { top });
          expect([...out].sort((a, b) => a - b)).toEqual(items);
          const n = Math.min(top, scores.length);
          const head = out.slice(0, n).map((i) => scores[i] as number);
          for (let i = 1; i < head.length; i++) expect(head[i - 1] as number).toBeGreaterThanOrEqual(head[i] as number);
          expect(out.slice(n)).toEqual(items.slice(n));
        },
      ),
    );
  });

  it('does not mutate its input', () => {
    const items = Object.freeze(['a', 'b']);
    expect(rerank(items, [0, 1])).toEqual(['b', 'a']);
    expect(items).toEqual(['a', 'b']);
  });
});
