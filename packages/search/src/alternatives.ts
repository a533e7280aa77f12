import { SearchOptionError } from './errors.js';
/** How many alternative phrasings one search takes: each is one more query per library. */
export const MAX_ALTERNATIVES = 4;
/** The longest alternative phrasing, in characters: a phrasing is a few words, not a paragraph. */
export const MAX_ALTERNATIVE_LENGTH = 200;

/**
 * The phrasings a search runs: the topic first, then each alternative once.
 * An alternative that repeats the topic or an earlier one (ignoring case and
 * spacing) is left out; too many, too long or blank ones are refused.
 *
 * @throws {SearchOptionError} naming the alternative and the limit.
 */
export function phrasingsOf(topic: string, alternatives: readonly string[] = []): string[] {
  if (alternatives.length > MAX_ALTERNATIVES) {
    throw new SearchOptionError(
      `alternatives: at most ${MAX_ALTERNATIVES} phrasings, got ${alternatives.length}; keep the ones in the docs' own terms`,
    );
  }
  const phrasings = [topic];
  const seen = new Set([key(topic)]);
  for (const [i, alternative] of alternatives.entries()) {
    if (typeof alternative !== 'string' || alternative.trim() === '') {
      throw new SearchOptionError(`alternatives[${i}] is blank; give a few words, or leave it out`);
    }
    if (alternative.length > MAX_ALTERNATIVE_LENGTH) {
      throw new SearchOptionError(
        `alternatives[${i}] has ${alternative.length} characters, over the ${MAX_ALTERNATIVE_LENGTH} allowed; a phrasing is a few words`,
      );
    }
    if (seen.has(key(alternative))) continue;
    seen.add(key(alternative));
    phrasings.push(alternative);
  }
  return phrasings;
}

function key(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
