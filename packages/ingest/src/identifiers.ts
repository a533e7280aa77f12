// camelCase and PascalCase identifiers are single tokens to FTS5's unicode61
// tokenizer ("useFakeTimers" → "usefaketimers"), so a search for "fake timers"
// would never find them. snake_case, dotted and dashed names need nothing:
// the tokenizer already splits at "_", "." and "-".
const CAMEL = /[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*/g;

/**
 * The words inside the camelCase identifiers of a text, one identifier per
 * phrase, each identifier once: "vi.useFakeTimers()" → "use Fake Timers".
 *
 * @example
 * identifierWords('Call vi.useFakeTimers() and getNextPageParam') // 'use Fake Timers\nget Next Page Param'
 */
export function identifierWords(text: string): string {
  const phrases = new Set<string>();
  for (const [identifier] of text.matchAll(CAMEL)) {
    const words = identifier
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(' ');
    if (words.length > 1) phrases.add(words.join(' '));
  }
  return [...phrases].join('\n');
}

/** The text to index for a section: its words plus the words inside its identifiers. */
export function indexText(text: string): string {
  const words = identifierWords(text);
  return words === '' ? text : `${text}\n${words}`;
}
