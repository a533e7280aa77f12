import type { Term } from './fts-query.js';

// The index's tokenizer is FTS5 `unicode61 remove_diacritics 2`: letters and
// numbers (and private-use characters) make tokens, everything else separates
// them; case is folded and diacritics are removed. This mirrors it for text
// the caller already holds (a heading trail), so asking whether a term occurs
// there needs no query.
const SEPARATOR = /[^\p{L}\p{N}\p{Co}]+/u;

/** The tokens the index makes of a text. */
export function indexTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(SEPARATOR)
    .filter((t) => t !== '');
}

/** Each alternative's tokens, by alternative: a search asks about the same few terms for every section it ranks. */
const phrases = new Map<string, readonly string[]>();

/** How many alternatives' tokens are kept: far more than one question asks about, and a few kilobytes. */
const MAX_PHRASES = 256;

function phraseTokens(alternative: string): readonly string[] {
  let tokens = phrases.get(alternative);
  if (!tokens) {
    tokens = indexTokens(alternative);
    if (phrases.size >= MAX_PHRASES) phrases.clear();
    phrases.set(alternative, tokens);
  }
  return tokens;
}

/**
 * Whether the tokens hold the term: any of its alternatives, each read as a
 * phrase whose tokens must follow each other, as FTS5 reads a quoted string.
 */
export function tokensContain(tokens: readonly string[], term: Term): boolean {
  if (typeof term === 'string') return holdsPhrase(tokens, phraseTokens(term));
  for (const alternative of term) if (holdsPhrase(tokens, phraseTokens(alternative))) return true;
  return false;
}

/** Whether the tokens hold the phrase's tokens one after another (plain loops: this runs for every section ranked). */
function holdsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  next: for (let start = 0; start + phrase.length <= tokens.length; start++) {
    for (let i = 0; i < phrase.length; i++) if (tokens[start + i] !== phrase[i]) continue next;
    return true;
  }
  return false;
}
