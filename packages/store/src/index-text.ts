// What the full-text index holds for a section. A build indexes the plain text its markdown parser made of the
// section; an install of a package built elsewhere indexes again from the section as stored (see derived-data.ts),
// so both index a section's words together with the words inside its identifiers, defined once here.

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

/**
 * The text to index for a section: its words plus the words inside its identifiers.
 *
 * @example
 * indexText('Call vi.useFakeTimers()') // 'Call vi.useFakeTimers()\nuse Fake Timers'
 */
export function indexText(text: string): string {
  const words = identifierWords(text);
  return words === '' ? text : `${text}\n${words}`;
}

/**
 * The heading columns to index for a section: its breadcrumb as it is, and its own heading with the words inside its
 * identifiers, as its text is. An API section is headed by the name it documents (`Context.ShouldBindJSON`), the
 * shortest summary of what it does; its words ("bind", "JSON") then count where its heading counts, not only in its
 * text. The breadcrumb stays as written: the heading boost reads it as the index tokenizer does (`indexTokens`, checked
 * against FTS5), and an identifier's words one by one in the trail were measured worse (docs/ranking.md).
 *
 * @example
 * indexHeadings(['API', 'Context.ShouldBindJSON']).heading // 'Context.ShouldBindJSON\nShould Bind JSON'
 */
export function indexHeadings(breadcrumb: readonly string[]): { headings: string; heading: string } {
  return { headings: breadcrumb.join(' '), heading: indexText(breadcrumb.at(-1) ?? '') };
}

/**
 * A section's markdown as near as a pattern gets to the plain text a build indexes (URLs and HTML tags dropped, link
 * and image text kept, a fence's language left out): the tokenizer drops the rest of markdown's punctuation itself.
 * Used where only the stored markdown is at hand, a package built elsewhere.
 */
export function markdownWords(content: string): string {
  return (
    content
      // Reference definitions: `[id]: https://…` is a URL and nothing to read.
      .replace(/^ {0,3}\[[^\]\n]+\]:\s*\S+.*$/gm, '')
      // Inline links and images: the text stays, the destination goes.
      .replace(/(\]\s*)\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g, '$1')
      // Autolinks and HTML tags.
      .replace(/<[A-Za-z/!][^<>\n]*>/g, ' ')
      // A fence's info string (```ts title="x"): not part of the code.
      .replace(/^( {0,3}(?:`{3,}|~{3,})).*$/gm, '$1')
  );
}
