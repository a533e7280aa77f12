import { encodedBytes } from '@docs/rank';
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { ANSWER_LIMITS, shortBreadcrumb, shortDescription, shortLabel, shortText } from './answer-limits.js';

describe('answer limits', () => {
  test.each([
    { name: 'short text as it is', text: 'abc', max: 3, short: 'abc' },
    { name: 'longer text cut with an ellipsis', text: 'abcdef', max: 5, short: 'ab…' },
    { name: 'a surrogate pair never split', text: 'ab😀cd', max: 7, short: 'ab…' },
    { name: 'escapes count their JSON bytes', text: '\u001b\u001b\u001b', max: 15, short: '\u001b\u001b…' },
    { name: 'empty text', text: '', max: 0, short: '' },
  ])('shortText: $name', ({ text, max, short }) => {
    expect(shortText(text, max)).toBe(short);
  });

  it('shortText never takes more than its bytes (from 3, room for the ellipsis), and keeps a start of the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), fc.integer({ min: 3, max: 120 }), (text, max) => {
        const short = shortText(text, max);
        expect(encodedBytes(short)).toBeLessThanOrEqual(max);
        if (short !== text) expect(text.startsWith(short.slice(0, -1))).toBe(true);
      }),
    );
  });

  test('a label and a description are cut to their limits, read only as far as they need', () => {
    const label = shortLabel('t'.repeat(10_000_000));
    expect(encodedBytes(label)).toBeLessThanOrEqual(ANSWER_LIMITS.labelBytes);
    expect(label.endsWith('…')).toBe(true);
    expect(encodedBytes(shortDescription('d'.repeat(10_000_000)))).toBeLessThanOrEqual(ANSWER_LIMITS.descriptionBytes);
    expect(encodedBytes(shortLabel('\u001b'.repeat(1000)))).toBeLessThanOrEqual(ANSWER_LIMITS.labelBytes);
    expect(shortLabel('Timers')).toBe('Timers');
  });

  test('an honest breadcrumb is kept as it is (the same array)', () => {
    const breadcrumb = ['Guide', 'Mocking', 'Timers', 'Advance', 'Run all', 'Next'];
    expect(shortBreadcrumb(breadcrumb)).toBe(breadcrumb);
  });

  test('a deep breadcrumb keeps its first two and last headings, its own heading last', () => {
    const breadcrumb = Array.from({ length: 1000 }, (_, i) => `h${i}`);
    expect(shortBreadcrumb(breadcrumb)).toEqual(['h0', 'h1', '…', 'h995', 'h996', 'h997', 'h998', 'h999']);
  });

  test('each heading of a breadcrumb is cut to a label', () => {
    const [first, second] = shortBreadcrumb(['Guide', 'x'.repeat(5000)]);
    expect(first).toBe('Guide');
    expect(second).toBe(shortLabel('x'.repeat(5000)));
  });
});
