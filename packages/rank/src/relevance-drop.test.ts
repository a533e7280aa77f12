import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { relevanceDrop } from './relevance-drop.js';

const scored = (...scores: number[]) => scores.map((score, i) => ({ id: `d${i}`, score }));
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('relevanceDrop', () => {
  test.each([
    { name: 'empty', scores: [], drop: undefined, expected: [] },
    { name: 'one item', scores: [0.1], drop: undefined, expected: ['d0'] },
    {
      name: 'default drop 0.5 keeps ≥ half the top',
      scores: [1, 0.5, 0.49, 0.1],
      drop: undefined,
      expected: ['d0', 'd1'],
    },
    { name: 'all scores equal', scores: [3, 3, 3], drop: undefined, expected: ['d0', 'd1', 'd2'] },
    { name: 'drop 0 keeps every non-negative score', scores: [5, 1, 0], drop: 0, expected: ['d0', 'd1', 'd2'] },
    { name: 'drop 0 drops negative scores', scores: [5, 0, -1], drop: 0, expected: ['d0', 'd1'] },
    { name: 'drop 1 keeps only the top tie', scores: [5, 5, 4.999], drop: 1, expected: ['d0', 'd1'] },
    { name: 'top score 0 keeps the zeros', scores: [0, 0, -1], drop: 0.5, expected: ['d0', 'd1'] },
    { name: 'negative top keeps only the top tie', scores: [-1, -1, -2], drop: 0.5, expected: ['d0', 'd1'] },
    { name: 'negative top with drop 0', scores: [-1, -2], drop: 0, expected: ['d0'] },
    { name: 'unsorted input filters against the max', scores: [0.2, 1, 0.6], drop: 0.5, expected: ['d1', 'd2'] },
  ])('$name', ({ scores, drop, expected }) => {
    const options = drop === undefined ? {} : { drop };
    expect(ids(relevanceDrop(scored(...scores), options))).toEqual(expected);
  });

  test.each([
    { drop: -0.1, message: 'drop must be a number in [0, 1], got -0.1' },
    { drop: 1.5, message: 'drop must be a number in [0, 1], got 1.5' },
    { drop: Number.NaN, message: 'drop must be a number in [0, 1], got NaN' },
    { drop: Number.POSITIVE_INFINITY, message: 'got Infinity' },
  ])('rejects drop $drop', ({ drop, message }) => {
    expect(() => relevanceDrop(scored(1), { drop })).toThrow(RangeError);
    expect(() => relevanceDrop(scored(1), { drop })).toThrow(message);
  });

  test.each([
    { scores: [1, Number.NaN], message: 'items[1].score is NaN' },
    { scores: [Number.POSITIVE_INFINITY, 1], message: 'items[0].score is Infinity' },
    { scores: [1, Number.NEGATIVE_INFINITY], message: 'items[1].score is -Infinity' },
  ])('rejects $message', ({ scores, message }) => {
    expect(() => relevanceDrop(scored(...scores))).toThrow(RangeError);
    expect(() => relevanceDrop(scored(...scores))).toThrow(message);
  });

  it('returns the same item objects in a new array without mutating the input', () => {
    const items = Object.freeze(scored(2, 1.5, 0.1).map((item) => Object.freeze(item)));
    const result = relevanceDrop(items);
    expect(result).not.toBe(items);
    expect(result[0]).toBe(items[0]);
    expect(result[1]).toBe(items[1]);
    expect(items).toHaveLength(3);
  });

  it('on a sorted list returns a prefix whose items all meet the threshold, and nothing after it does', () => {
    const sortedScores = fc
      .array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }))
      .map((scores) => scores.sort((a, b) => b - a));
    const drop = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(sortedScores, drop, (scores, d) => {
        const items = scored(...scores);
        const kept = relevanceDrop(items, { drop: d });
        expect(kept).toEqual(items.slice(0, kept.length));
        if (items.length > 0) expect(kept.length).toBeGreaterThan(0);
        const top = scores[0] as number;
        const meets = (score: number) => (top > 0 ? score >= d * top : score === top);
        for (const item of kept) expect(meets(item.score)).toBe(true);
        for (const item of items.slice(kept.length)) expect(meets(item.score)).toBe(false);
      }),
    );
  });
});
