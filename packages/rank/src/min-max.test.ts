import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { minMaxNormalize } from './min-max.js';

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

describe('minMaxNormalize', () => {
  test.each([
    { name: 'empty', scores: [], expected: [] },
    { name: 'one score', scores: [7], expected: [1] },
    { name: 'one negative score', scores: [-3], expected: [1] },
    { name: 'all scores equal', scores: [2, 2, 2], expected: [1, 1, 1] },
    { name: 'zero and negative zero are equal', scores: [0, -0], expected: [1, 1] },
    { name: 'ascending', scores: [2, 4, 6], expected: [0, 0.5, 1] },
    { name: 'order preserved', scores: [6, 2, 4], expected: [1, 0, 0.5] },
    { name: 'negative scores', scores: [-10, -5, 0], expected: [0, 0.5, 1] },
    { name: 'range wider than MAX_VALUE', scores: [-Number.MAX_VALUE, 0, Number.MAX_VALUE], expected: [0, 0.5, 1] },
  ])('$name', ({ scores, expected }) => {
    expect(minMaxNormalize(scores)).toEqual(expected);
  });

  test.each([
    { scores: [1, Number.NaN, 3], message: 'scores[1] is NaN' },
    { scores: [Number.POSITIVE_INFINITY], message: 'scores[0] is Infinity' },
    { scores: [1, 2, Number.NEGATIVE_INFINITY], message: 'scores[2] is -Infinity' },
  ])('rejects $message', ({ scores, message }) => {
    expect(() => minMaxNormalize(scores)).toThrow(RangeError);
    expect(() => minMaxNormalize(scores)).toThrow(message);
  });

  it('does not mutate its input and returns a new array', () => {
    const scores = Object.freeze([3, 1, 2]);
    const result = minMaxNormalize(scores);
    expect(scores).toEqual([3, 1, 2]);
    expect(result).not.toBe(scores);
  });

  it('keeps scores in [0, 1], with max → 1 and min → 0', () => {
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1 }), (scores) => {
        const normalized = minMaxNormalize(scores);
        expect(normalized).toHaveLength(scores.length);
        for (const n of normalized) {
          expect(n).toBeGreaterThanOrEqual(0);
          expect(n).toBeLessThanOrEqual(1);
        }
        const max = Math.max(...scores);
        const min = Math.min(...scores);
        scores.forEach((score, i) => {
          if (score === max) expect(normalized[i]).toBe(1);
          else if (score === min) expect(normalized[i]).toBe(0);
        });
      }),
    );
  });

  it('keeps the input order: a < b ⇒ na <= nb, a === b ⇒ na === nb', () => {
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1 }), (scores) => {
        const normalized = minMaxNormalize(scores);
        scores.forEach((a, i) => {
          scores.forEach((b, j) => {
            const na = normalized[i] as number;
            const nb = normalized[j] as number;
            if (a < b) expect(na).toBeLessThanOrEqual(nb);
            if (a === b) expect(na).toBe(nb);
          });
        });
      }),
    );
  });

  test.each([
    { scores: [2, 4, 8], floor: 0, expected: [0.25, 0.5, 1] },
    { scores: [5], floor: 0, expected: [1] },
    { scores: [0, 0], floor: 0, expected: [1, 1] },
    { scores: [3, 6], floor: 3, expected: [0, 1] },
  ])('floor $floor maps to 0: $scores → $expected', ({ scores, floor, expected }) => {
    expect(minMaxNormalize(scores, { floor })).toEqual(expected);
  });

  test.each([
    { floor: 5, message: /floor 5 exceeds the score 2/ },
    { floor: Number.NaN, message: /floor is NaN/ },
    { floor: Number.NEGATIVE_INFINITY, message: /floor is -Infinity/ },
  ])('rejects floor $floor', ({ floor, message }) => {
    expect(() => minMaxNormalize([2, 4], { floor })).toThrow(message);
  });

  it('with a floor below every score, stays in [0, 1], keeps order and maps the maximum to 1', () => {
    const nonNegative = fc.double({ min: 0, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(fc.array(nonNegative, { minLength: 1 }), (scores) => {
        const normalized = minMaxNormalize(scores, { floor: 0 });
        const max = Math.max(...scores);
        scores.forEach((a, i) => {
          const na = normalized[i] as number;
          expect(na).toBeGreaterThanOrEqual(0);
          expect(na).toBeLessThanOrEqual(1);
          if (a === max) expect(na).toBe(1);
          scores.forEach((b, j) => {
            if (a < b) expect(na).toBeLessThanOrEqual(normalized[j] as number);
          });
        });
      }),
    );
  });
});
