import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { convexFusion } from './score-fusion.js';

const unitScore = fc.double({ min: 0, max: 1, noNaN: true });
const pairs = fc.array(fc.tuple(unitScore, unitScore), { maxLength: 40 });
const weight = fc.double({ min: 0, max: 1, noNaN: true });

describe('convexFusion', () => {
  test.each([
    { name: 'empty', first: [], second: [], weight: 0.5, expected: [] },
    { name: 'half and half', first: [1, 0.5, 0], second: [0, 1, 1], weight: 0.5, expected: [0.5, 0.75, 0.5] },
    { name: 'weight 0 keeps the first', first: [0.3, 0.7], second: [1, 0], weight: 0, expected: [0.3, 0.7] },
    { name: 'weight 1 keeps the second', first: [0.3, 0.7], second: [1, 0], weight: 1, expected: [1, 0] },
    { name: 'a quarter', first: [1], second: [0], weight: 0.25, expected: [0.75] },
  ])('$name', ({ first, second, weight, expected }) => {
    expect(convexFusion(first, second, { weight })).toEqual(expected);
  });

  it('weighs both halves equally by default', () => {
    expect(convexFusion([1], [0])).toEqual([0.5]);
  });

  test.each([
    { name: 'lists of different lengths', first: [1], second: [], weight: 0.5, error: /differ in length/ },
    { name: 'a NaN score', first: [Number.NaN], second: [0], weight: 0.5, error: /first\[0\] is NaN/ },
    { name: 'a score above 1', first: [0], second: [1.5], weight: 0.5, error: /second\[0\] is 1.5/ },
    { name: 'a negative score', first: [-0.1], second: [0], weight: 0.5, error: /first\[0\]/ },
    { name: 'a weight above 1', first: [], second: [], weight: 2, error: /weight/ },
    { name: 'a NaN weight', first: [], second: [], weight: Number.NaN, error: /weight/ },
  ])('throws on $name', ({ first, second, weight, error }) => {
    expect(() => convexFusion(first, second, { weight })).toThrow(error);
  });

  it('stays in [0, 1], between the two scores, one per item', () => {
    fc.assert(
      fc.property(pairs, weight, (list, w) => {
        const fused = convexFusion(
          list.map((p) => p[0]),
          list.map((p) => p[1]),
          { weight: w },
        );
        expect(fused).toHaveLength(list.length);
        fused.forEach((f, i) => {
          const [a, b] = list[i] as [number, number];
          expect(f).toBeGreaterThanOrEqual(0);
          expect(f).toBeLessThanOrEqual(1);
          expect(f).toBeGreaterThanOrEqual(Math.min(a, b) - 1e-12);
          expect(f).toBeLessThanOrEqual(Math.max(a, b) + 1e-12);
        });
      }),
    );
  });

  it('is monotone: an item better in both lists is fused no lower', () => {
    fc.assert(
      fc.property(unitScore, unitScore, unitScore, unitScore, weight, (a, b, c, d, w) => {
        const [low, high] = convexFusion([Math.min(a, c), Math.max(a, c)], [Math.min(b, d), Math.max(b, d)], {
          weight: w,
        });
        expect(high as number).toBeGreaterThanOrEqual(low as number);
      }),
    );
  });

  it('does not mutate its input', () => {
    const first = Object.freeze([0.2, 0.4]);
    const second = Object.freeze([0.6, 0.8]);
    convexFusion(first, second);
    expect(first).toEqual([0.2, 0.4]);
  });
});
