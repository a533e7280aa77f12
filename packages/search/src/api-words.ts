import type { PackageReader } from '@docs/store';
import { STOP_WORDS } from './stop-words.js';

/**
 * How many of a library's sections holding a stop word in their own heading are read to look for the one named by
 * it: the most any fixture library has is SQLAlchemy's 133 for `from` (one FTS pass, then each section's stored
 * fields), so the bound only keeps a pathological package from costing more.
 */
const MAX_HEADINGS = 500;

// A heading that is a name and nothing else: identifiers joined by `.`, `::` or `#` (`Select.where`,
// `ExpressionBuilder.or`, `.or`, `or_`), once the code marks around it (backticks, a call's parentheses) are gone.
const NAME = /^(?:\.|::|#)?[\p{L}\p{N}_$]+(?:(?:\.|::|#)[\p{L}\p{N}_$]+)*$/u;

/**
 * The last name a heading is, when it is one (`SelectQueryBuilder.where` → `where`, `` `where()` `` → `where`,
 * `or_` → `or`), else undefined (`Where clauses`, `WHERE`). One trailing underscore is left out: PEP 8's way of
 * naming a function after a keyword (SQLAlchemy's `or_`, `and_`, `not_`, `in_`) is that word's name.
 */
export function headingName(heading: string): string | undefined {
  const bare = heading
    .trim()
    .replace(/^`+|`+$/g, '')
    .replace(/\([^()]*\)$/u, '')
    .trim();
  if (!NAME.test(bare)) return undefined;
  const last = bare.split(/\.|::|#/u).pop() ?? '';
  return last.endsWith('_') && !last.endsWith('__') ? last.slice(0, -1) : last;
}

/**
 * Per reader, the sections each word was found to name. A reader reads one file as it was when opened (the store
 * opens a new one for a file that changed), so what its headings name never changes under it; a search of one library
 * asks about its question's stop words, and they recur from question to question. At most one entry per stop word.
 */
const namedBy = new WeakMap<PackageReader, Map<string, readonly number[]>>();

/**
 * The sections (chunk ids) of a library whose own heading is a name whose last part is `word`, written as code writes
 * it, in lower case (`Select.where`, `ZodType.or`, `or_` for `where`, `or`). A word in prose starts a heading with a
 * capital (`Where to go next`, `Or`), a method's name does not, so the case tells them apart. One pass over the
 * sections holding the word in their own heading, the first time a reader is asked about the word.
 */
export async function sectionsNamed(reader: PackageReader, word: string): Promise<readonly number[]> {
  const known = namedBy.get(reader) ?? new Map<string, readonly number[]>();
  const kept = known.get(word);
  if (kept) return kept;
  const holding = await reader.chunksHolding(word, { column: 'heading', limit: MAX_HEADINGS });
  const named = holding.flatMap((h) => {
    const own = h.breadcrumb[h.breadcrumb.length - 1];
    return own !== undefined && headingName(own) === word ? [h.id] : [];
  });
  // Only stop words are kept: the entries of a reader are bounded by the list.
  if (STOP_WORDS.has(word)) namedBy.set(reader, known.set(word, named));
  return named;
}

/**
 * Which of `words` (a question's stop words) name one of the library's APIs (see {@link sectionsNamed}). There the
 * word is what the question asks for ("select rows with a where clause", "where clause with OR conditions"); in a
 * library whose headings only say it in prose, it stays a function word and is dropped.
 */
export async function apiWords(reader: PackageReader, words: readonly string[]): Promise<string[]> {
  const named: string[] = [];
  for (const word of new Set(words)) {
    if (STOP_WORDS.has(word) && (await sectionsNamed(reader, word)).length > 0) named.push(word);
  }
  return named;
}
