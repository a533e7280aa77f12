import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';

// Markdown from documentation packages is untrusted. It is rendered with raw HTML
// off (markdown-it escapes it as text), links limited to http(s), mailto and paths
// inside the package, images shown as their alt text, and heading ids prefixed so
// a page cannot shadow the app's own elements. The output goes into the DOM only
// through the page's one Trusted Types policy (app.ts).

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  dockerfile,
  go,
  graphql,
  ini,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  scss,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['html', 'svg', 'vue'], { languageName: 'xml' });
hljs.registerAliases(['jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['tsx', 'mts', 'cts'], { languageName: 'typescript' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });

/** Where a page's markdown comes from: its links resolve against it. */
export interface PageContext {
  /** `name@version` of the package. */
  readonly library: string;
  /** The page's path inside the package. */
  readonly path: string;
  /** Builds the app URL of a page of the package (and an anchor in it). */
  readonly pageHref: (path: string, anchor: string | undefined) => string;
}

/** What a link in a page points to. */
export type LinkTarget =
  | { readonly kind: 'page'; readonly path: string; readonly anchor?: string }
  | { readonly kind: 'anchor'; readonly anchor: string }
  | { readonly kind: 'external'; readonly href: string }
  | { readonly kind: 'blocked' };

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * Classifies a link of the page at `fromPath`: another page of the package
 * (resolved like a relative URL; `/…` from the package root), an anchor of the
 * same page, an http(s) or mailto address, or anything else, which is blocked.
 * A scheme is read the way a browser reads it, ignoring the tabs, newlines and
 * control characters it ignores, so `java\tscript:` is a scheme too.
 */
export function linkTarget(href: string, fromPath: string): LinkTarget {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a browser strips from a URL are these
  const cleaned = href.replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = /^([^:/?#]+):/.exec(cleaned);
  if (scheme) {
    return SAFE_SCHEMES.has((scheme[1] ?? '').toLowerCase())
      ? { kind: 'external', href: cleaned }
      : { kind: 'blocked' };
  }
  if (cleaned.startsWith('//')) return { kind: 'external', href: `https:${cleaned}` };
  if (cleaned.startsWith('#')) return { kind: 'anchor', anchor: decodeSafely(cleaned.slice(1)) };
  let url: URL;
  try {
    url = new URL(cleaned, `https://package.invalid/${fromPath.split('/').map(encodeURIComponent).join('/')}`);
  } catch {
    return { kind: 'blocked' };
  }
  const path = decodeSafely(url.pathname).replace(/^\/+/, '').replace(/\/+$/, '');
  const anchor = url.hash ? decodeSafely(url.hash.slice(1)) : undefined;
  if (path === '') return anchor ? { kind: 'anchor', anchor } : { kind: 'page', path: fromPath };
  return anchor ? { kind: 'page', path, anchor } : { kind: 'page', path };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A heading's id as GitHub makes it, prefixed so no page id can equal one of the app's. */
export function headingId(text: string): string {
  const slug = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  return `h-${slug}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const md = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: false,
  highlight(code, lang) {
    const language = lang.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (!language || !hljs.getLanguage(language)) return '';
    const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
    return `<pre><code class="hljs language-${escapeHtml(language)}">${html}</code></pre>`;
  },
});

// markdown-it's own check already refuses javascript:, vbscript:, file: and most data:; this one allows only what
// linkTarget can place, so a data: image or an unknown scheme never becomes a link at all.
md.validateLink = (url: string) => linkTarget(url, '').kind !== 'blocked';

md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const page = (env as { page?: PageContext } | undefined)?.page;
  if (!token || !page) return self.renderToken(tokens, idx, options);
  const target = linkTarget(String(token.attrGet('href') ?? ''), page.path);
  switch (target.kind) {
    case 'page':
      token.attrSet('href', page.pageHref(target.path, target.anchor));
      token.attrSet('data-page', target.path);
      if (target.anchor) token.attrSet('data-anchor', target.anchor);
      break;
    case 'anchor':
      token.attrSet('href', `#${headingId(target.anchor)}`);
      token.attrSet('data-anchor', target.anchor);
      break;
    case 'external':
      token.attrSet('href', target.href);
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer nofollow');
      break;
    case 'blocked':
      token.attrSet('href', '#');
      token.attrSet('data-blocked', 'true');
      break;
  }
  return self.renderToken(tokens, idx, options);
};

// markdown-it aligns table cells with a style attribute, which the page's CSP (style-src 'self') refuses: a class
// the stylesheet defines says the same.
md.core.ruler.push('align_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const align = /^text-align:(left|right|center)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align}`);
  }
});

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const alt = token?.children ? md.renderer.renderInlineAsText(token.children, md.options, {}) : '';
  return `<span class="image" title="image">${escapeHtml(alt || 'image')}</span>`;
};

md.renderer.rules.heading_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx];
  const inline = tokens[idx + 1];
  if (token && inline?.children) {
    token.attrSet('id', headingId(md.renderer.renderInlineAsText(inline.children, md.options, {})));
  }
  return self.renderToken(tokens, idx, options);
};

/** Renders a page's markdown as HTML that is safe to place in the page. */
export function renderMarkdown(markdown: string, context: PageContext): string {
  return md.render(markdown, { page: context });
}
