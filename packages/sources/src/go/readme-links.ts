import { createRequire } from 'node:module';
import type MarkdownItCallable from 'markdown-it';
import type { Token } from 'markdown-it';

const load = createRequire(import.meta.url);
// Pages a README may point to: a guide written as markdown, reStructuredText or AsciiDoc.
const DOC_PAGE = /\.(?:md|markdown|rst|adoc)$/i;

/**
 * The module's own documentation pages a README links to, as paths relative to the module (`site/content/user_guide.md`
 * for cobra's "read the Cobra User Guide"): links read by markdown-it, the parser the index sections files with, kept
 * when relative, inside the module (no `..` out of it, no absolute path) and to a doc page. Many Go modules keep their
 * guide beside the code rather than in a docs folder, and their README is where it is named. In link order, once each.
 *
 * @example
 * readmeDocLinks('Read [the guide](site/content/user_guide.md#intro).'); // → ['site/content/user_guide.md']
 */
export function readmeDocLinks(markdown: string): string[] {
  const MarkdownIt = load('markdown-it') as typeof MarkdownItCallable;
  const parser = new MarkdownIt('default', { html: false, linkify: false });
  const found = new Set<string>();
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.children) visit(token.children);
      if (token.type !== 'link_open') continue;
      const href = String(token.attrGet('href') ?? '');
      if (href === '' || href.startsWith('#') || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      let target: string;
      try {
        target = decodeURIComponent(href.replace(/[?#].*$/, ''));
      } catch {
        continue;
      }
      const parts = target
        .replace(/\\/g, '/')
        .split('/')
        .filter((part) => part !== '' && part !== '.');
      if (parts.length === 0 || parts.includes('..') || !DOC_PAGE.test(target)) continue;
      found.add(parts.join('/'));
    }
  };
  visit(parser.parse(markdown, {}));
  return [...found];
}
