import { expect, test } from 'vitest';
import { identifierWords, indexText } from './identifiers.js';

test.each([
  ['vi.useFakeTimers()', 'use Fake Timers'],
  ['getNextPageParam and getNextPageParam again', 'get Next Page Param'],
  ['XMLHttpRequest', 'XML Http Request'],
  ['ConnectTimeout', 'Connect Timeout'],
  ['create_engine --frozen-lockfile ERR_PNPM_OUTDATED_LOCKFILE', ''],
  ['plain words only', ''],
  ['useState, useEffect', 'use State\nuse Effect'],
])('identifierWords(%j) = %j', (text, words) => {
  expect(identifierWords(text)).toBe(words);
});

test('indexText keeps the text and adds the identifier words', () => {
  expect(indexText('Call useFakeTimers.')).toBe('Call useFakeTimers.\nuse Fake Timers');
  expect(indexText('no identifiers')).toBe('no identifiers');
});
