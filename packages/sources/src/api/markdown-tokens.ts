import { createRequire } from 'node:module';
import type MarkdownItCallable from 'markdown-it';
import type { MarkdownIt, Token } from 'markdown-it';

const load = createRequire(import.meta.url);
const parsers = new Map<boolean, MarkdownIt>();

/**
 * The one markdown-it the API pages' readers of README and docs prose share, made on first use (most packages need
 * none). `html`: whether raw HTML is a token of its own (rewriting headings must keep it as it is) or text.
 */
export function markdownParser(options: { readonly html: boolean } = { html: false }): MarkdownIt {
  let parser = parsers.get(options.html);
  if (!parser) {
    const MarkdownItClass = load('markdown-it') as typeof MarkdownItCallable;
    parser = new MarkdownItClass('default', { html: options.html, linkify: false, typographer: false });
    parsers.set(options.html, parser);
  }
  return parser;
}

/**
 * Prose as a passage one API's section quotes: whitespace folded, cut at a sentence end within `max` characters
 * (the README and docs readers of npm, Python and Go alike).
 */
export function passage(prose: string, max: number): string {
  const text = prose.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = cut.lastIndexOf('. ');
  return end > 40 ? cut.slice(0, end + 1) : `${cut.trimEnd()} …`;
}

/** An inline run's text (a paragraph's, a heading's), its code spans in backticks. */
export function inlineText(inline: Token): string {
  const parts: string[] = [];
  for (const child of inline.children ?? []) {
    if (child.type === 'text') parts.push(child.content);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') parts.push(' ');
    else if (child.type === 'code_inline') parts.push(`\`${child.content}\``);
  }
  return parts.join('');
}
