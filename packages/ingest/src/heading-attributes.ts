// The attribute syntax a heading can end with: `{#id}` (VitePress, Docusaurus, Hugo), `{#id .class}` and
// `{.class #id key=value}` (markdown-it-attrs, Pandoc), `{: #id }` (Python-Markdown's attr_list, MkDocs). It names an
// anchor or a style for a site's renderer, never words of the title: left in, `{#vi-settimertickmode}` was part of a
// heading trail and of the text a search matched. Only a block made wholly of attributes is one: `{}`, `{ a: 1 }` or
// `{"key": true}` at the end of a heading are words the author wrote.
const ATTRIBUTE = String.raw`(?:[#.][^\s{}"'=]+|[A-Za-z_][\w:.-]*=(?:"[^"]*"|'[^']*'|[^\s{}"']+))`;
const BLOCK = String.raw`\{:?[ \t]*${ATTRIBUTE}(?:[ \t]+${ATTRIBUTE})*[ \t]*\}`;
const TRAILING_BLOCK = new RegExp(String.raw`[ \t]*${BLOCK}[ \t]*$`);
// An ATX heading line, in a blockquote or not (at most three spaces of indent: four make an indented code block),
// ending with an attribute block and, optionally, the closing `#`s.
const ATX_WITH_BLOCK = new RegExp(
  String.raw`^((?:[ \t]*>[ \t]?)*[ ]{0,3}#{1,6}[ \t].*?)[ \t]*${BLOCK}(?:[ \t]+#+)?[ \t]*$`,
);

/**
 * A heading's text without the attribute block it ends with.
 *
 * @example
 * withoutHeadingAttributes('vi.setTimerTickMode {#vi-settimertickmode}'); // → 'vi.setTimerTickMode'
 * withoutHeadingAttributes('Options {}'); // → 'Options {}'
 */
export function withoutHeadingAttributes(text: string): string {
  return text.replace(TRAILING_BLOCK, '');
}

/**
 * A markdown line without the attribute block at the end of it, when it is an ATX heading (any level: h4–h6 stay in a
 * section's content, where the block would be noise too); any other line as it is.
 *
 * @example
 * headingLineWithoutAttributes('#### Sub {#sub}'); // → '#### Sub'
 * headingLineWithoutAttributes('const a = {#x}'); // unchanged
 */
export function headingLineWithoutAttributes(line: string): string {
  if (!line.includes('{') || !line.includes('#')) return line;
  const match = ATX_WITH_BLOCK.exec(line);
  return match === null ? line : (match[1] as string);
}
