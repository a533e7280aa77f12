import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { diversify } from './diversify.js';

const item = (page: string, score: number, id = `${page}${score}`) => ({ id, page, score });
const byPage = { key: (r: { page: string }) => r.page };
const ids = (items: readonly { id: string }[]) => items.map((i) => i.id);

describe('diversify', () => {
  test.each([
    { name: 'empty', items: [], decay: 0.5, expected: [] },
    { name: 'one item', items: [item('a', 1)], decay: 0.5, expected: ['a1'] },
    {
      name: "a second page comes before the first page's second section",
      items: [item('a', 1), item('a', 0.9), item('b', 0.8)],
      decay: 0.5,
      expected: ['a1', 'b0.8', 'a0.9'],
    },
    {
      name: 'a much better section of the same page still comes first',
      items: [item('a', 1), item('a', 0.9), item('b', 0.3)],
      decay: 0.5,
      expected: ['a1', 'a0.9', 'b0.3'],
    },
    {
      name: 'decay 1 only sorts',
      items: [item('a', 0.2), item('a', 1), item('b', 0.5)],
      decay: 1,
      expected: ['a1', 'b0.5', 'a0.2'],
    },
    {
      name: 'ties keep input order',
      items: [item('b', 1, 'first'), item('a', 1, 'second')],
      decay: 0.5,
      expected: ['first', 'second'],
    },
  ])('$name', ({ items, decay, expected }) => {
    expect(ids(diversify(items, { ...byPage, decay }))).toEqual(expected);
  });

  it('discounts the n-th section of a page by decay^n', () => {
    const out = diversify([item('a', 1), item('a', 1, 'x'), item('a', 1, 'y')], { ...byPage, decay: 0.5 });
    expect(out.map((r) => r.score)).toEqual([1, 0.5, 0.25]);
  });

  it('does not mutate its input', () => {
    const input = [item('a', 1), item('a', 0.9)];
    const copy = structuredClone(input);
    diversify(input, byPage);
    expect(input).toEqual(copy);
  });

  test.each([0, -0.5, 1.5, Number.NaN])('rejects decay %s', (decay) => {
    expect(() => diversify([item('a', 1)], { ...byPage, decay })).toThrow(RangeError);
  });

  it('rejects a score that is not finite', () => {
    expect(() => diversify([item('a', Number.NaN)], byPage)).toThrow('items[0].score is NaN');
  });

  const lists = fc.array(
    fc.record({ page: fc.constantFrom('a', 'b', 'c', 'd'), score: fc.double({ min: 0, max: 1, noNaN: true }) }),
    { maxLength: 40 },
  );
  const decays = fc.double({ min: 0.01, max: 1, noNaN: true });

  it('returns the same items, scores non-increasing, each at most its own', () => {
    fc.assert(
      fc.property(lists, decays, (raw, decay) => {
        const items = raw.map((r, i) => ({ ...r, id: String(i) }));
        const out = diversify(items, { ...byPage, decay });
        expect([...ids(out)].sort()).toEqual([...ids(items)].sort());
        for (let i = 1; i < out.length; i++) expect(out[i]?.score).toBeLessThanOrEqual(out[i - 1]?.score ?? 0);
        for (const r of out) expect(r.score).toBeLessThanOrEqual(items[Number(r.id)]?.score ?? 0);
      }),
    );
  });

  it("keeps each page's own order and the best item's score", () => {
    fc.assert(
      fc.property(lists, decays, (raw, decay) => {
        const items = raw.map((r, i) => ({ ...r, id: String(i) }));
        const out = diversify(items, { ...byPage, decay });
        const sorted = [...items].sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id));
        for (const page of ['a', 'b', 'c', 'd']) {
          expect(ids(out.filter((r) => r.page === page))).toEqual(ids(sorted.filter((r) => r.page === page)));
        }
        if (items.length > 0) expect(out[0]?.score).toBe(sorted[0]?.score);
      }),
    );
  });
});
