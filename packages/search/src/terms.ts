import type { Term } from '@docs/store';
import { synonymsOf } from './synonyms.js';

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
 * `httpx.ConnectTimeout`, `useFakeTimers` for `vi.useFakeTimers`); a plain
 * word also matches its synonyms (`print` finds `log`), unless `synonyms`
 * is off. The alternatives count as one term, so a section holding any of
 * them covers it.
 */
export function termAlternatives(word: string, options: { synonyms?: boolean } = {}): Term {
  const last = word.split('.').at(-1) ?? word;
  if (last !== word && last.length >= 3) return [word, last];
  const others = options.synonyms === false ? [] : synonymsOf(word);
  return others.length > 0 ? [word, ...others] : word;
}
