import { indexTokens } from '@docs/store';
import { STOP_WORDS } from './stop-words.js';

/** One name of a heading trail: a run of letters, digits and underscores, as the index's tokens. */
export interface HeadingName {
  readonly tokens: readonly string[];
  /** How many of its tokens are not stop words (`get_help_option`: 2). */
  readonly words: number;
}

/**
 * A heading trail's names, in order (`click API > Command > Command.get_help_option` → click, API, Command, Command,
 * get_help_option), each as the index's tokens: together they are the trail's tokens (indexTokens of the trail).
 */
export function headingNames(breadcrumb: readonly string[]): HeadingName[] {
  // Decomposed first, as indexTokens decomposes (`™` is `TM`), so the names' tokens are the trail's.
  return breadcrumb
    .join(' ')
    .normalize('NFKD')
    .split(/[^\p{L}\p{N}\p{M}\p{Co}_]+/u)
    .map(indexTokens)
    .filter((tokens) => tokens.length > 0)
    .map((tokens) => ({ tokens, words: tokens.filter((token) => !STOP_WORDS.has(token)).length }));
}

// Stands where a name the question names only in part was, so no phrase matches across it.
const GAP = '\u0000';

/**
 * What a heading trail names wholly for a question asking `asked` (its words' tokens): the trail's tokens with each
 * joined name of two or more words the question names only in part (`get_help_option` when it asks `option`) left
 * out. A name of one word, or one whose every word is asked (`add_constructor` for "add a constructor"), stays.
 */
export function wholeTrail(
  trail: readonly string[],
  names: readonly HeadingName[],
  asked: ReadonlySet<string>,
): readonly string[] {
  if (names.every((name) => name.words < 2)) return trail;
  return names.flatMap((name) =>
    name.words < 2 || name.tokens.every((token) => asked.has(token) || STOP_WORDS.has(token)) ? name.tokens : [GAP],
  );
}
