import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { encodedBytes } from './text-cost.js';
import { type BudgetItem, tokenBudget } from './token-budget.js';

const byLength = (text: string) => text.length;
const wordCount = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
const estimate = (text: string) => Math.ceil(text.length / 4);
const item = (id: string, tokens: number, content = id) => ({ id, content, tokens });
const ids = (items: readonly { id: string }[]) => items.map((kept) => kept.id);

describe('tokenBudget', () => {
  test.each([
    { name: 'empty input', tokens: [], budget: 100, kept: [], total: 0, skipped: 0 },
    { name: 'one item that fits', tokens: [10], budget: 100, kept: ['i0'], total: 10, skipped: 0 },
    { name: 'exactly the budget', tokens: [60, 40], budget: 100, kept: ['i0', 'i1'], total: 100, skipped: 0 },
    { name: 'budget 0 keeps nothing', tokens: [10, 0], budget: 0, kept: [], total: 0, skipped: 2 },
    { name: 'budget 0 on empty input', tokens: [], budget: 0, kept: [], total: 0, skipped: 0 },
    {
      name: 'budget Infinity keeps everything',
      tokens: [1e9, 1e9, 5],
      budget: Number.POSITIVE_INFINITY,
      kept: ['i0', 'i1', 'i2'],
      total: 2e9 + 5,
      skipped: 0,
    },
    {
      name: 'later oversized items are skipped while a later small one is kept',
      tokens: [700, 900, 400, 200, 100],
      budget: 1000,
      kept: ['i0', 'i3', 'i4'],
      total: 1000,
      skipped: 2,
    },
    {
      name: 'zero-token items always fit',
      tokens: [100, 5, 0],
      budget: 100,
      kept: ['i0', 'i2'],
      total: 100,
      skipped: 1,
    },
  ])('$name', ({ tokens, budget, kept, total, skipped }) => {
    const items = tokens.map((t, i) => item(`i${i}`, t));
    const result = tokenBudget(items, { budget });
    expect(ids(result.items)).toEqual(kept);
    expect(result.totalTokens).toBe(total);
    expect(result.skipped).toBe(skipped);
    expect(result.items.every((kept) => !kept.truncated)).toBe(true);
  });

  it('uses a default budget of 2000 tokens', () => {
    const result = tokenBudget([item('a', 1500), item('b', 600), item('c', 500)]);
    expect(ids(result.items)).toEqual(['a', 'c']);
    expect(result.totalTokens).toBe(2000);
  });

  test.each([
    {
      name: 'a paragraph boundary',
      content: 'First paragraph.\n\nSecond one here.\n\nThird paragraph is long.',
      budget: 40,
      expected: 'First paragraph.\n\nSecond one here.',
    },
    {
      name: 'a paragraph boundary even when a line boundary would keep more',
      content: 'Para one.\n\nline a\nline b\nline c',
      budget: 20,
      expected: 'Para one.',
    },
    {
      name: 'a blank line holding only spaces and CRLF line ends',
      content: 'Alpha.\r\n  \r\nBeta gamma delta.',
      budget: 12,
      expected: 'Alpha.',
    },
    {
      name: 'a line boundary when no paragraph fits',
      content: 'line one\nline two\nline three',
      budget: 20,
      expected: 'line one\nline two',
    },
    {
      name: 'a word boundary when no line fits',
      content: 'alpha beta gamma delta\nepsilon',
      budget: 12,
      expected: 'alpha beta',
    },
    { name: 'a character when no word fits', content: 'abcdefghijkl mnop', budget: 5, expected: 'abcde' },
    { name: 'a character without splitting a surrogate pair', content: 'ab😀cd', budget: 3, expected: 'ab' },
    { name: 'trailing whitespace trimmed', content: 'one two   \t  three four', budget: 9, expected: 'one two' },
  ])('cuts a top item larger than the budget at $name', ({ content, budget, expected }) => {
    const top = { id: 'top', content, tokens: 1000, url: '/docs/x' };
    const result = tokenBudget([top], { budget, countTokens: byLength });
    expect(result.items).toEqual([
      { id: 'top', content: expected, tokens: expected.length, url: '/docs/x', truncated: true },
    ]);
    expect(result.totalTokens).toBe(expected.length);
    expect(result.skipped).toBe(0);
  });

  it('cuts with the default estimator (ceil(length / 4))', () => {
    const content = `${'a'.repeat(30)}\n\n${'b'.repeat(30)}`;
    const result = tokenBudget([{ content, tokens: 100 }], { budget: 10 });
    expect(result.items).toEqual([{ content: 'a'.repeat(30), tokens: 8, truncated: true }]);
  });

  it('keeps later items that fit in what the cut top item left', () => {
    const top = item('top', 50, 'aaaa\n\nbbbb\n\ncccc');
    const result = tokenBudget([top, item('big', 3), item('small', 2)], { budget: 12, countTokens: byLength });
    expect(result.items.map(({ id, tokens, truncated }) => ({ id, tokens, truncated }))).toEqual([
      { id: 'top', tokens: 10, truncated: true },
      { id: 'small', tokens: 2, truncated: false },
    ]);
    expect(result.totalTokens).toBe(12);
    expect(result.skipped).toBe(1);
  });

  it('keeps the whole content when the caller overstated its tokens, still flagged truncated', () => {
    const result = tokenBudget([item('top', 999, 'short text  ')], { budget: 50, countTokens: byLength });
    expect(result.items).toEqual([{ id: 'top', content: 'short text', tokens: 10, truncated: true }]);
  });

  test.each([
    { name: 'a fractional budget', content: 'abc', budget: 0.5, countTokens: estimate },
    { name: 'a counter with fixed overhead', content: 'abc def', budget: 3, countTokens: (t: string) => 10 + t.length },
    { name: 'whitespace-only content', content: ' \n\n \t', budget: 3, countTokens: byLength },
  ])(
    'keeps the top item empty with 0 tokens when not one character fits: $name',
    ({ content, budget, countTokens }) => {
      const result = tokenBudget([item('top', 100, content), item('next', 0)], { budget, countTokens });
      expect(result.items).toEqual([
        { id: 'top', content: '', tokens: 0, truncated: true },
        { id: 'next', content: 'next', tokens: 0, truncated: false },
      ]);
      expect(result.totalTokens).toBe(0);
    },
  );

  it('returns shallow copies with all other properties and does not mutate the input', () => {
    const meta = { section: 'intro' };
    const input = Object.freeze([
      Object.freeze({ content: 'x', tokens: 1, meta }),
      Object.freeze({ content: 'y', tokens: 1, meta }),
    ]);
    const result = tokenBudget(input, { budget: 10 });
    expect(result.items[0]).toEqual({ content: 'x', tokens: 1, meta, truncated: false });
    expect(result.items[0]).not.toBe(input[0]);
    expect(result.items[0]?.meta).toBe(meta);
    expect(input[0]).not.toHaveProperty('truncated');
  });

  test.each([
    { budget: -1, message: 'budget must be a number >= 0 (or Infinity), got -1' },
    { budget: Number.NaN, message: 'got NaN' },
    { budget: Number.NEGATIVE_INFINITY, message: 'got -Infinity' },
  ])('rejects budget $budget', ({ budget, message }) => {
    expect(() => tokenBudget([item('a', 1)], { budget })).toThrow(RangeError);
    expect(() => tokenBudget([item('a', 1)], { budget })).toThrow(message);
  });

  test.each([
    { tokens: -1, message: 'items[1].tokens is -1' },
    { tokens: Number.NaN, message: 'items[1].tokens is NaN' },
    { tokens: Number.POSITIVE_INFINITY, message: 'items[1].tokens is Infinity' },
  ])('rejects item tokens $tokens, even with budget 0', ({ tokens, message }) => {
    const items = [item('a', 1), item('b', tokens)];
    expect(() => tokenBudget(items)).toThrow(RangeError);
    expect(() => tokenBudget(items, { budget: 0 })).toThrow(message);
  });

  test.each([
    { returned: -1, message: 'countTokens returned -1' },
    { returned: Number.NaN, message: 'countTokens returned NaN' },
  ])('rejects a countTokens that returns $returned', ({ returned, message }) => {
    expect(() => tokenBudget([item('a', 100, 'some text')], { budget: 5, countTokens: () => returned })).toThrow(
      message,
    );
  });

  const paragraph = `${'word '.repeat(80).trim()}\n${'more words here '.repeat(20).trim()}`;
  test.each([
    { level: 'paragraph', content: Array.from({ length: 300 }, () => paragraph).join('\n\n'), separator: '\n\n' },
    { level: 'line', content: Array.from({ length: 600 }, () => paragraph).join('\n'), separator: '\n' },
    { level: 'word', content: 'word '.repeat(50_000).trim(), separator: ' ' },
    { level: 'character', content: 'x'.repeat(250_000), separator: 'x' },
  ])('cuts a 200 KB text at a $level boundary with O(log n) calls to countTokens', ({ content, separator }) => {
    expect(content.length).toBeGreaterThan(200_000);
    let calls = 0;
    const counting = (text: string) => {
      calls++;
      return estimate(text);
    };
    const started = performance.now();
    const result = tokenBudget([{ content, tokens: estimate(content) }], { budget: 1000, countTokens: counting });
    const elapsed = performance.now() - started;
    const top = result.items[0];
    expect(top?.truncated).toBe(true);
    expect(top?.tokens).toBeLessThanOrEqual(1000);
    expect(top?.tokens).toBe(estimate(top?.content ?? ''));
    expect(content.startsWith(`${top?.content}${separator}`)).toBe(true);
    expect(calls).toBeLessThan(80);
    expect(elapsed).toBeLessThan(2000);
  });

  it('never returns a cut that breaks the bound, even with a non-monotone counter', () => {
    // Odd-length prefixes count huge: the binary search may be misled, but
    // every returned cut must still have been counted and fit.
    const erratic = (text: string) => (text.length % 2 === 1 ? 1e9 : text.length);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 100 }), (content, budget) => {
        const result = tokenBudget([{ content, tokens: 1e6 }], { budget, countTokens: erratic });
        const top = result.items[0];
        expect(top).toBeDefined();
        expect(top?.tokens).toBeLessThanOrEqual(budget);
        if (top?.content !== '') expect(top?.tokens).toBe(erratic(top?.content ?? ''));
      }),
    );
  });

  describe('laws', () => {
    const text = fc
      .array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(' ', '\n', '\n\n', ' \n \n', '😀')), {
        maxLength: 30,
      })
      .map((parts) => parts.join(''));
    const items = fc.array(
      fc.record({
        content: text,
        tokens: fc.oneof(fc.nat({ max: 300 }), fc.double({ min: 0, max: 300, noNaN: true })),
      }),
      { maxLength: 12 },
    );
    const budget = fc.oneof(fc.nat({ max: 500 }), fc.double({ min: 0, max: 500, noNaN: true }));
    const counters = [
      { name: 'the default estimator', countTokens: undefined, count: estimate },
      { name: 'word counting', countTokens: wordCount, count: wordCount },
    ];

    test.each(counters)('never exceeds the budget, with $name', ({ countTokens }) => {
      fc.assert(
        fc.property(items, budget, (list, b) => {
          const options = countTokens === undefined ? { budget: b } : { budget: b, countTokens };
          const result = tokenBudget(list, options);
          expect(result.totalTokens).toBeLessThanOrEqual(b);
          expect(result.items.reduce((sum, kept) => sum + kept.tokens, 0)).toBe(result.totalTokens);
          expect(result.items.length + result.skipped).toBe(list.length);
        }),
      );
    });

    test.each(counters)('always keeps the first item when budget > 0, with $name', ({ countTokens, count }) => {
      fc.assert(
        fc.property(items, budget, (list, b) => {
          fc.pre(b > 0 && list.length > 0);
          const options = countTokens === undefined ? { budget: b } : { budget: b, countTokens };
          const result = tokenBudget(list, options);
          const first = list[0] as BudgetItem;
          const top = result.items[0];
          expect(top).toBeDefined();
          if (top?.truncated) {
            expect(first.content.startsWith(top.content)).toBe(true);
            expect(top.content).toBe(top.content.trimEnd());
            if (top.content !== '') expect(top.tokens).toBe(count(top.content));
          } else {
            expect(top).toEqual({ ...first, truncated: false });
          }
        }),
      );
    });

    it('keeps items in input order, untouched except the flag, and skips only what does not fit', () => {
      fc.assert(
        fc.property(items, budget, (list, b) => {
          const tagged = list.map((entry, index) => ({ ...entry, index }));
          const result = tokenBudget(tagged, { budget: b });
          // Budget 0 keeps nothing by definition, zero-token items included (a separate test covers it).
          if (b === 0) {
            expect(result.items).toEqual([]);
            return;
          }
          const order = result.items.map((kept) => kept.index);
          expect(order).toEqual([...order].sort((x, y) => x - y));
          let spent = 0;
          for (const kept of result.items) {
            if (kept.index > 0) expect(kept).toEqual({ ...tagged[kept.index], truncated: false });
            spent += kept.tokens;
          }
          // Skip, don't stop: any skipped later item would not have fit in what was left at the end.
          for (const entry of tagged.slice(1)) {
            if (!order.includes(entry.index)) expect(spent + entry.tokens).toBeGreaterThan(b);
          }
        }),
      );
    });
  });
});

describe('tokenBudget with bytesPerToken (items whose tokens understate their size)', () => {
  it('charges a padded item for its bytes: the top item is cut to the budget in bytes, a later one skipped', () => {
    const padded = 'word '.repeat(20_000);
    const result = tokenBudget(
      [
        { content: padded, tokens: 5 },
        { content: padded, tokens: 5 },
        { content: 'small', tokens: 1 },
      ],
      { budget: 100, bytesPerToken: 8, countTokens: wordCount },
    );
    expect(result.items).toHaveLength(1);
    expect(encodedBytes(result.items[0]?.content ?? '')).toBeLessThanOrEqual(800);
    expect(result.items[0]?.truncated).toBe(true);
    expect(result.skipped).toBe(2);
    expect(result.totalTokens).toBeLessThanOrEqual(100);
  });

  it('reports what it charged as a kept item tokens', () => {
    const result = tokenBudget([{ content: 'x'.repeat(80), tokens: 1 }], { budget: 100, bytesPerToken: 8 });
    expect(result.items).toEqual([{ content: 'x'.repeat(80), tokens: 10, truncated: false }]);
  });

  it('counts tokens of no more than bytesPerToken × budget characters, however large the item', () => {
    const seen: number[] = [];
    const counter = (text: string) => {
      seen.push(text.length);
      return wordCount(text);
    };
    tokenBudget([{ content: 'a '.repeat(5_000_000), tokens: 1 }], {
      budget: 50,
      bytesPerToken: 8,
      countTokens: counter,
    });
    expect(Math.max(0, ...seen)).toBeLessThanOrEqual(400);
  });

  it('cuts a text that opens with an emoji after the emoji, not to nothing', () => {
    // The first character-level cut falls inside the emoji's surrogate pair; it once stepped back to an empty cut,
    // which does not fit, and the binary search then found no cut at all (a counterexample of the law below).
    const honest = (text: string) => Math.max(wordCount(text), Math.ceil(encodedBytes(text) / 8));
    const content = '😀\u001b]0;title\u0007';
    const result = tokenBudget([{ content, tokens: honest(content) }], { budget: 1, countTokens: honest });
    expect(result.items).toEqual([{ content: '😀', tokens: 1, truncated: true }]);
  });

  test.each([0, -1, Number.NaN])('throws a RangeError for bytesPerToken %s', (bytesPerToken) => {
    expect(() => tokenBudget([item('a', 1)], { budget: 10, bytesPerToken })).toThrow(RangeError);
  });

  describe('laws', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('\u001b]0;title\u0007', '\u009b2J', '\n\n', '😀', 'x'.repeat(500)),
    );
    const content = fc.array(hostile, { maxLength: 20 }).map((parts) => parts.join(''));
    const items = fc.array(fc.record({ content, tokens: fc.nat({ max: 50 }) }), { maxLength: 10 });
    const budget = fc.oneof(fc.nat({ max: 300 }), fc.double({ min: 0, max: 300, noNaN: true }));
    const bytesPerToken = fc.oneof(
      fc.constant(8),
      fc.integer({ min: 1, max: 16 }),
      fc.double({ min: 0.5, max: 16, noNaN: true }),
    );

    it('never sends more than bytesPerToken × budget bytes, whatever the items claim', () => {
      fc.assert(
        fc.property(items, budget, bytesPerToken, (list, b, perToken) => {
          const result = tokenBudget(list, { budget: b, bytesPerToken: perToken, countTokens: wordCount });
          const bytes = result.items.reduce((sum, kept) => sum + encodedBytes(kept.content), 0);
          expect(bytes).toBeLessThanOrEqual(perToken * b);
          expect(result.totalTokens).toBeLessThanOrEqual(b);
          expect(result.items.length + result.skipped).toBe(list.length);
        }),
      );
    });

    it('changes nothing when the items and the counter are honest about bytes', () => {
      const honestCount = (text: string) => Math.max(wordCount(text), Math.ceil(encodedBytes(text) / 8));
      fc.assert(
        fc.property(items, budget, (list, b) => {
          const honest = list.map((entry) => ({ content: entry.content, tokens: honestCount(entry.content) }));
          const plain = tokenBudget(honest, { budget: b, countTokens: honestCount });
          expect(tokenBudget(honest, { budget: b, bytesPerToken: 8, countTokens: honestCount })).toEqual(plain);
        }),
      );
    });
  });
});
