import { describe, expect, it } from 'vitest';
import { headingNames } from './heading-names.js';
import { formsInNames, wordsByStem } from './word-forms.js';

/** The forms a heading trail's joined names hold of a question's words, by word. */
function forms(breadcrumb: string[], words: string[]): Record<string, readonly string[]> {
  const found = formsInNames(headingNames(breadcrumb), words, wordsByStem(words));
  return Object.fromEntries([...found].map(([t, tokens]) => [words[t] as string, tokens]));
}

describe('formsInNames', () => {
  it.each([
    { trail: ['yaml API', 'safe_load'], words: ['load', 'yaml', 'file', 'safely'], found: { safely: ['safe'] } },
    {
      trail: ['tenacity API', 'stop_after_attempt'],
      words: ['stop', 'retrying', 'after', 'attempts'],
      found: { attempts: ['attempt'] },
    },
    // The word itself is no other form of it.
    { trail: ['yaml API', 'safe_load'], words: ['safe', 'load'], found: {} },
    // A name of one word is left alone: a form anywhere double-counts common words (`packages`, `package`).
    { trail: ['Packages', 'Attempt'], words: ['packages', 'attempts'], found: {} },
    { trail: ['rich.traceback API', 'install'], words: ['tracebacks'], found: {} },
    // Words of fewer than four letters have no forms looked for (`try` and `tries`).
    { trail: ['API', 'try_again'], words: ['tries'], found: {} },
    // Not a plain word: identifiers and words with digits keep their own spelling.
    { trail: ['API', 'load_all'], words: ['yaml.loads', 'load2'], found: {} },
    {
      trail: ['API', 'retry_if_exception_type'],
      words: ['exceptions', 'types'],
      found: { exceptions: ['exception'], types: ['type'] },
    },
  ])('$trail for $words', ({ trail, words, found }) => {
    expect(forms(trail, words)).toEqual(found);
  });

  it('finds nothing for a question without plain words', () => {
    expect(forms(['API', 'safe_load'], [])).toEqual({});
  });
});
