import type { Term } from '@docs/store';

/**
 * True for a word that names something exactly: joined by `_`, `.`, `-`,
 * `:` or `/`, or mixing letters and digits (`err_pnpm_outdated_lockfile`,
 * `vi.usefaketimers`, `--frozen-lockfile`, `-32602`, `v2`).
 */
export function isIdentifier(word: string): boolean {
  return /[._:/-]/.test(word) || (/\p{L}/u.test(word) && /\p{N}/u.test(word)) || /^\p{N}{3,}$/u.test(word);
}

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
