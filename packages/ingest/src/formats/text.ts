/**
 * Plain text as markdown that parses back to the same text: one preamble
 * section (split at paragraphs when long), with every line that markdown would
 * read as a heading, a front-matter fence or a setext underline escaped.
 *
 * @example
 * textToMarkdown('# not a heading\nTitle\n=====\n'); // → '\\# not a heading\nTitle\n\\=====\n'
 */
export function textToMarkdown(source: string): string {
  return source
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      /^ {0,3}(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|-+[ \t]*$)/.test(line) ? line.replace(/^( {0,3})/, '$1\\') : line,
    )
    .join('\n');
}
