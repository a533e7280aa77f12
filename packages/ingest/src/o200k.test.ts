import { createRequire } from 'node:module';
import fc from 'fast-check';
import { countTokens as gptCountTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, test } from 'vitest';
import { deserializeRanks, O200kCounter, ranksToTable, serializeRanks } from './o200k.js';

// The table built from gpt-tokenizer's ranks here, and the same table through its file form, as dist/o200k.bin is.
const ranks = (
  createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/o200k_base') as { default: (string | number[])[] }
).default;
const built = ranksToTable(ranks);
const counters = { built: new O200kCounter(built), file: new O200kCounter(deserializeRanks(serializeRanks(built))) };
const options = { disallowedSpecial: new Set<string>() };
const expected = (text: string) => gptCountTokens(text, options);

describe.each(Object.entries(counters))('O200kCounter (%s table)', (_, counter) => {
  test.each([
    ['', 0],
    ['hello world', 2],
    ['<|endoftext|>', expected('<|endoftext|>')],
  ])('counts %j', (text, count) => {
    expect(counter.count(text)).toBe(count);
  });

  // Where counting by bytes could part from gpt-tokenizer's strings: byte order marks (its decoder drops a leading
  // one), lone surrogates (never found whole), tokens that are not UTF-8, long runs, scripts and emoji.
  test.each(
    [
      '\uFEFFusing namespace std;',
      '\uFEFF\n\n',
      'a\uD800b \uDC00 \uD83D',
      '�� \uFFFD',
      '='.repeat(5000),
      ' '.repeat(3000),
      'naïve café — “quotes” 中文文本 日本語のテキスト 한국어 العربية हिन्दी 👍🏽👨‍👩‍👧',
      "it's we'LL they're I'd 123456789 1,000,000",
      'const x = await fetch(`https://example.com/api?q=` + query);\n\treturn x.json();\r\n',
    ].map((text) => [JSON.stringify(text).slice(0, 40), text]),
  )('counts %s as gpt-tokenizer does', (_, text) => {
    expect(counter.count(text)).toBe(expected(text));
  });

  test('counts any string as gpt-tokenizer does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => counter.count(text) === expected(text)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'a',
            'Z',
            ' ',
            '\n',
            '\t',
            "'s",
            'é',
            '中',
            '😀',
            '\uFEFF',
            '\uD800',
            '<|im_start|>',
            '12345',
            '#',
            '`',
          ),
          {
            maxLength: 30,
          },
        ),
        (parts) => counter.count(parts.join('')) === expected(parts.join('')),
      ),
      { numRuns: 2000 },
    );
  });
});

test('refuses a file that is not a rank table', () => {
  expect(() => deserializeRanks(new Uint8Array(32))).toThrow(/not an o200k rank table/);
  const file = serializeRanks(built);
  expect(() => deserializeRanks(file.subarray(0, file.length - 1))).toThrow(/wrong size/);
});
