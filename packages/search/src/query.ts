import { STOP_WORDS } from './stop-words.js';

/** What a topic becomes before it reaches the index. */
export interface AnalyzedQuery {
  /** Searchable terms, lowercased, in order, without duplicates. */
  readonly terms: readonly string[];
  /** Stop words that were dropped. */
  readonly dropped: readonly string[];
  /** What the caps left out, when they did: the topic's characters beyond `maxChars`, the words beyond `maxTerms`. */
  readonly cut?: { readonly chars?: number; readonly terms?: number };
}

/** Caps on what one query may cost; see SearchOptions.maxTopicChars and maxTerms. */
export interface QueryCaps {
  /** @default no cap */
  readonly maxChars?: number;
  /** @default no cap */
  readonly maxTerms?: number;
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
 * page of its docs is about) is dropped on the same terms. `alsoKeep` are stop
 * words searched all the same (those the library names an API by, api-words.ts).
 *
 * @example
 * analyzeQuery('how do I mock timers in vitest', { alsoDrop: ['vitest'] }).terms // ['mock', 'timers']
 */
export function analyzeQuery(
  topic: string,
  options: { alsoDrop?: readonly string[]; alsoKeep?: readonly string[] } & QueryCaps = {},
): AnalyzedQuery {
  const capped = capTopic(topic, options.maxChars);
  const words = [
    ...new Set((capped.normalize('NFKC').toLowerCase().match(TERM) ?? []).map((w) => w.replaceAll('’', "'"))),
  ];
  const analyzed = analyzeWords(words, options.alsoDrop, options.alsoKeep);
  const maxTerms = options.maxTerms ?? Number.POSITIVE_INFINITY;
  const charsCut = topic.length - capped.length;
  const termsCut = Math.max(0, analyzed.terms.length - maxTerms);
  if (charsCut === 0 && termsCut === 0) return analyzed;
  return {
    terms: analyzed.terms.slice(0, maxTerms),
    dropped: analyzed.dropped,
    cut: { ...(charsCut > 0 ? { chars: charsCut } : {}), ...(termsCut > 0 ? { terms: termsCut } : {}) },
  };
}

/** What the answer says when the caps cut the query: what was cut, and the cap. */
export function capWarnings(cut: AnalyzedQuery['cut'], caps: QueryCaps): string[] {
  const warnings: string[] = [];
  if (cut?.chars) {
    warnings.push(
      `The topic was cut to its first ${caps.maxChars} characters (the cap; ${cut.chars} more were left out).`,
    );
  }
  if (cut?.terms) {
    warnings.push(`Searched the first ${caps.maxTerms} words only (the cap; ${cut.terms} more were left out).`);
  }
  return warnings;
}

/** The topic's first `maxChars` characters, ending at a word boundary when there is one. */
function capTopic(topic: string, maxChars: number | undefined): string {
  if (maxChars === undefined || topic.length <= maxChars) return topic;
  const head = topic.slice(0, maxChars + 1);
  const boundary = head.search(/\s\S*$/u);
  return boundary > 0 ? head.slice(0, boundary) : topic.slice(0, maxChars);
}

function analyzeWords(
  words: readonly string[],
  alsoDrop: readonly string[] | undefined,
  alsoKeep: readonly string[] | undefined,
): AnalyzedQuery {
  const extra = new Set((alsoDrop ?? []).map((w) => w.toLowerCase()));
  const searchedAnyway = new Set((alsoKeep ?? []).map((w) => w.toLowerCase()));
  const isNoise = (w: string) => (STOP_WORDS.has(w) && !searchedAnyway.has(w)) || extra.has(w);
  const kept = words.filter((w) => !isNoise(w));
  if (kept.length === 0) {
    // Everything was noise: search for the non-stop words dropped only as the library name, else all of it.
    const names = words.filter((w) => !STOP_WORDS.has(w));
    return { terms: names.length > 0 ? names : words, dropped: [] };
  }
  return { terms: kept, dropped: words.filter(isNoise) };
}
