import { STOP_WORDS } from './stop-words.js';

/** What a topic becomes before it reaches the index. */
export interface AnalyzedQuery {
  /** Searchable terms, lowercased, in order, without duplicates. */
  readonly terms: readonly string[];
  /** Stop words that were dropped. */
  readonly dropped: readonly string[];
}

// A term is a run of letters, digits and the joiners that hold identifiers
// together (vi.useFakeTimers, create_engine, --frozen-lockfile, -32602). The
// index tokenizes each quoted term again, so a joined identifier becomes a
// phrase of its parts.
const TERM = /[\p{L}\p{N}\p{M}]+(?:[._:/'’-]+[\p{L}\p{N}\p{M}]+)*/gu;

/**
 * Splits a topic into terms. Nothing a user types is syntax: quotes,
 * operators (AND, OR, NOT, NEAR), `-`, `:`, `*`, `^` and parentheses either
 * separate words or are words themselves. Stop words are dropped unless
 * nothing else is left; `alsoDrop` (e.g. the library's own name, which every
 * page of its docs is about) is dropped on the same terms.
 *
 * @example
 * analyzeQuery('how do I mock timers in vitest', { alsoDrop: ['vitest'] }).terms // ['mock', 'timers']
 */
export function analyzeQuery(topic: string, options: { alsoDrop?: readonly string[] } = {}): AnalyzedQuery {
  const words = [
    ...new Set((topic.normalize('NFKC').toLowerCase().match(TERM) ?? []).map((w) => w.replaceAll('’', "'"))),
  ];
  const extra = new Set((options.alsoDrop ?? []).map((w) => w.toLowerCase()));
  const isNoise = (w: string) => STOP_WORDS.has(w) || extra.has(w);
  const kept = words.filter((w) => !isNoise(w));
  if (kept.length === 0) {
    // Everything was noise: search for the non-stop words dropped only as the library name, else all of it.
    const names = words.filter((w) => !STOP_WORDS.has(w));
    return { terms: names.length > 0 ? names : words, dropped: [] };
  }
  return { terms: kept, dropped: words.filter(isNoise) };
}
