import { markdownParser } from './markdown-tokens.js';

/**
 * A doc comment's markdown with its headings moved below `level` (an API section's own, 2 or 3): each heading `n`
 * becomes `level + n`, at least 4 and at most 6. A doc comment's `## Example` (rxjs) or `### Examples` (kysely)
 * heads a part of that API's section; left as it is, it would start a section of its own beside the API's, its
 * trail (`rxjs API > Example`) no longer naming the API it shows. Sections are cut at h1–h3, so an h4–h6 stays
 * inside the API's. Headings are found by markdown-it, so a `#` line inside a code block is left alone; a setext
 * heading (underlined) is rewritten as an ATX one.
 *
 * @example
 * nestHeadings('Emits the last value.\n\n## Example\n\n```ts\naudit(x)\n```', 2);
 * // → 'Emits the last value.\n\n#### Example\n\n```ts\naudit(x)\n```'
 */
export function nestHeadings(doc: string, level: number): string {
  if (!doc.includes('#') && !/\n\s*(?:=+|-+)\s*(?:\n|$)/.test(doc)) return doc;
  const tokens = markdownParser({ html: true }).parse(doc, {});
  // Heading lines by their first line: where they end, and the heading they become.
  const moved = new Map<number, { end: number; text: string }>();
  for (const [i, token] of tokens.entries()) {
    if (token.type !== 'heading_open' || token.map === null || token.level !== 0) continue;
    const nested = Math.min(6, Math.max(4, level + Number(token.tag.slice(1))));
    moved.set(token.map[0], { end: token.map[1], text: `${'#'.repeat(nested)} ${tokens[i + 1]?.content ?? ''}` });
  }
  if (moved.size === 0) return doc;
  const lines = doc.split('\n');
  const out: string[] = [];
  for (let n = 0; n < lines.length; n++) {
    const heading = moved.get(n);
    if (heading === undefined) out.push(lines[n] ?? '');
    else {
      out.push(heading.text);
      n = heading.end - 1;
    }
  }
  return out.join('\n');
}
