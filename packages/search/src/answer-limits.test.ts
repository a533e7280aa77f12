import { describe, expect, test } from 'vitest';
import { ANSWER_LIMITS, shortBreadcrumb, shortDescription, shortLabel, shortText } from './answer-limits.js';

describe('answer limits', () => {
  test.each([
    { name: 'short text as it is', text: 'abc', max: 3, short: 'abc' },
    { name: 'longer text cut with an ellipsis', text: 'abcdef', max: 4, short: 'abc…' },
    { name: 'a surrogate pair never split', text: 'ab😀cd', max: 4, short: 'ab…' },
    { name: 'empty text', text: '', max: 0, short: '' },
  ])('shortText: $name', ({ text, max, short }) => {
    expect(shortText(text, max)).toBe(short);
    expect(shortText(text, max).length).toBeLessThanOrEqual(Math.max(max, 1));
  });

  test('a label and a description are cut to their limits', () => {
    expect(shortLabel('t'.repeat(10_000_000))).toHaveLength(ANSWER_LIMITS.labelChars);
    expect(shortDescription('d'.repeat(10_000_000))).toHaveLength(ANSWER_LIMITS.descriptionChars);
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
    expect(second).toHaveLength(ANSWER_LIMITS.labelChars);
  });
});
