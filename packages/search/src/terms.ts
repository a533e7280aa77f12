import type { Term } from '@docs/store';

/**
 * What one query word may match. A dotted name also matches its last part,
 * because docs often write the bare name (`ConnectTimeout` for
 * `httpx.ConnectTimeout`, `useFakeTimers` for `vi.useFakeTimers`); both count
 * as one term, so a section holding either covers it.
 */
export function termAlternatives(word: string): Term {
  const last = word.split('.').at(-1) ?? word;
  return last !== word && last.length >= 3 ? [word, last] : word;
}
