import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { encodedBytes, textCost } from './text-cost.js';

describe('encodedBytes', () => {
  test.each([
    { name: 'empty text', text: '', bytes: 0 },
    { name: 'ASCII', text: 'abc', bytes: 3 },
    { name: 'a quote and a backslash (escaped in JSON)', text: '"\\', bytes: 4 },
    { name: 'newline and tab (escaped in JSON)', text: '\n\t', bytes: 4 },
    { name: 'ESC (\\u001b in JSON)', text: '\u001b', bytes: 6 },
    { name: 'DEL', text: '\u007f', bytes: 6 },
    { name: 'a C1 control, CSI (escaped by the JSON the CLI prints)', text: '\u009b', bytes: 6 },
    { name: 'two-byte UTF-8', text: 'é', bytes: 2 },
    { name: 'three-byte UTF-8', text: '€', bytes: 3 },
    { name: 'a surrogate pair (four-byte UTF-8)', text: '😀', bytes: 4 },
    { name: 'a lone high surrogate', text: '\ud83d', bytes: 6 },
    { name: 'a lone low surrogate', text: '\ude00x', bytes: 7 },
  ])('$name → $bytes', ({ text, bytes }) => {
    expect(encodedBytes(text)).toBe(bytes);
  });

  it('is at least the UTF-8 length of the text inside JSON, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(encodedBytes(text)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(text)) - 2);
        expect(encodedBytes(text)).toBeGreaterThanOrEqual(Buffer.byteLength(text));
      }),
    );
  });

  it('adds up over a split between characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 50 }),
        fc.string({ unit: 'grapheme', maxLength: 50 }),
        (a, b) => {
          expect(encodedBytes(a + b)).toBe(encodedBytes(a) + encodedBytes(b));
        },
      ),
    );
  });
});

describe('textCost', () => {
  test.each([
    { name: 'tokens alone by default', text: 'x'.repeat(1000), tokens: 3, options: {}, cost: 3 },
    { name: 'honest tokens win', text: 'hello world', tokens: 2, options: { bytesPerToken: 8 }, cost: 2 },
    {
      name: 'padded text pays for its bytes',
      text: 'x'.repeat(8000),
      tokens: 3,
      options: { bytesPerToken: 8 },
      cost: 1000,
    },
    { name: 'rounds up', text: 'x'.repeat(9), tokens: 0, options: { bytesPerToken: 8 }, cost: 2 },
    { name: 'empty text, 0 tokens', text: '', tokens: 0, options: { bytesPerToken: 8 }, cost: 0 },
  ])('$name', ({ text, tokens, options, cost }) => {
    expect(textCost(text, tokens, options)).toBe(cost);
  });

  test.each([
    { name: 'negative tokens', tokens: -1, bytesPerToken: 8 },
    { name: 'NaN tokens', tokens: Number.NaN, bytesPerToken: 8 },
    { name: 'Infinity tokens', tokens: Number.POSITIVE_INFINITY, bytesPerToken: 8 },
    { name: 'bytesPerToken 0', tokens: 1, bytesPerToken: 0 },
    { name: 'bytesPerToken NaN', tokens: 1, bytesPerToken: Number.NaN },
  ])('throws a RangeError on $name', ({ tokens, bytesPerToken }) => {
    expect(() => textCost('x', tokens, { bytesPerToken })).toThrow(RangeError);
  });
});
