import { stemmer } from 'stemmer';
import type { HeadingName } from './heading-names.js';

/**
 * Other forms of a question's words in the parts of a heading's joined names: "load a YAML file safely" asks
 * `safely`, and `safe_load`'s heading says `safe`; "stop retrying after 3 attempts" asks `attempts`, and
 * `stop_after_attempt` says `attempt`. Two words are forms of each other when the Porter stemmer (the `stemmer`
 * package) makes one stem of both. Only the parts of a joined name count (a snake_case name of two or more words): a
 * form anywhere (`packages` for `package`) double-counts common words, and one in the index or in every heading cost
 * more than it found (docs/ranking.md, "Tried and not kept" and "A question word's other form in a heading's name").
 */

/** Words of fewer letters have no forms looked for: their stems are too often another word's. */
const MIN_LETTERS = 4;

/** Stems by word, for the words seen most recently: the same question words and heading parts recur. */
const stems = new Map<string, string>();
const MAX_REMEMBERED = 10_000;

/** Whether `word` is a plain lowercase English word of MIN_LETTERS or more letters: one whose forms are looked for. */
function isPlainWord(word: string): boolean {
  return word.length >= MIN_LETTERS && /^[a-z]+$/.test(word);
}

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= MAX_REMEMBERED) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/** The question's plain words by their stem (the first word of each stem), to find their forms in headings. */
export function wordsByStem(words: readonly string[]): ReadonlyMap<string, number> {
  const byStem = new Map<string, number>();
  for (const [t, word] of words.entries()) {
    if (!isPlainWord(word)) continue;
    const stem = stemOf(word);
    if (!byStem.has(stem)) byStem.set(stem, t);
  }
  return byStem;
}

/** What formsInNames finds in a trail with no forms of the question's words: one map, never changed. */
const NONE: ReadonlyMap<number, readonly string[]> = new Map();

/**
 * For each question word (by index) that a joined name of the heading trail holds in another form, those forms
 * (`safe_load` → `safe` for `safely`). A name of one word is left alone, as is a part that is the word itself.
 */
export function formsInNames(
  names: readonly HeadingName[],
  words: readonly string[],
  byStem: ReadonlyMap<string, number>,
): ReadonlyMap<number, readonly string[]> {
  if (byStem.size === 0) return NONE;
  // Made only where a form is found: this runs for every section found in every library searched.
  let forms: Map<number, string[]> | undefined;
  for (const name of names) {
    if (name.words < 2) continue;
    for (const token of name.tokens) {
      const t = isPlainWord(token) ? byStem.get(stemOf(token)) : undefined;
      if (t === undefined || token === words[t]) continue;
      forms ??= new Map();
      forms.set(t, [...(forms.get(t) ?? []), token]);
    }
  }
  return forms ?? NONE;
}
