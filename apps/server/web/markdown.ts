import DOMPurify from 'dompurify';
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

// Markdown from documentation packages is untrusted. markdown-it renders it with
// its raw HTML (a README's centred header, a <details> block, a table written in
// HTML), and DOMPurify then keeps only inert markup: no script, handler, style,
// form, frame or media, and nothing loaded from elsewhere. Links, markdown's and
// raw HTML's alike, are limited to http(s), mailto and paths inside the package,
// images are shown as their alt text, and ids are prefixed so a page cannot
// shadow the app's own elements. The output goes into the DOM only through the
// page's one Trusted Types policy (app.ts).

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
  html: true,
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

/** HTML the sanitiser kept: a TrustedHTML where the browser has Trusted Types, else a string. */
export type SafeHtml = string | TrustedHtml;

/** A TrustedHTML value: only the policy below makes one. */
interface TrustedHtml {
  readonly __brand: 'TrustedHTML';
}

interface TrustedTypesWindow {
  trustedTypes?: {
    createPolicy(
      name: string,
      rules: { createHTML(html: string): string; createScriptURL(url: string): string },
    ): NonNullable<Parameters<typeof DOMPurify.sanitize>[1]>['TRUSTED_TYPES_POLICY'];
  };
}

// The page's one Trusted Types policy, which its CSP names: DOMPurify parses a page's HTML through it into an inert
// document and hands back through it what it kept, so HTML reaches the DOM only from the sanitiser. Nothing else
// holds it; a script URL is never made.
const policy = (window as TrustedTypesWindow).trustedTypes?.createPolicy('docs-markdown', {
  createHTML: (html) => html,
  createScriptURL: () => {
    throw new TypeError('Documentation loads no script');
  },
});

/** Renders a page's markdown, with its raw HTML, as HTML that is safe to place in the page. */
export function renderMarkdown(markdown: string, context: PageContext): SafeHtml {
  rendering = context;
  try {
    if (!policy) return DOMPurify.sanitize(md.render(markdown), PURIFY);
    const trusted = { ...PURIFY, TRUSTED_TYPES_POLICY: policy, RETURN_TRUSTED_TYPE: true } as const;
    return DOMPurify.sanitize(md.render(markdown), trusted) as unknown as TrustedHtml;
  } finally {
    rendering = undefined;
  }
}

// What no page keeps, over DOMPurify's own list (scripts, handlers, javascript: URLs): inline style (the page's CSP
// refuses it and would log an error), anything that loads from elsewhere or embeds a document, and forms.
const PURIFY = {
  FORBID_TAGS: [
    'style',
    'link',
    'meta',
    'base',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'object',
    'embed',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'svg',
    'math',
    'dialog',
    'template',
  ],
  FORBID_ATTR: ['style', 'src', 'srcset', 'action', 'formaction', 'background', 'poster', 'ping', 'target', 'rel'],
  ALLOW_DATA_ATTR: false,
};

/** The page being rendered: the sanitiser's hooks resolve its links against it. */
let rendering: PageContext | undefined;

// An image loads nothing: it becomes its alt text, as a markdown image does (md.renderer.rules.image).
DOMPurify.addHook('uponSanitizeElement', (node, data) => {
  if (data.tagName !== 'img') return;
  const element = node as Element;
  const label = element.ownerDocument.createElement('span');
  label.className = 'image';
  label.title = 'image';
  label.textContent = element.getAttribute('alt') || 'image';
  element.replaceWith(label);
});

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  const element = node as Element;
  const align = element.getAttribute('align')?.toLowerCase();
  if (align !== undefined) {
    element.removeAttribute('align');
    // The class says it as the stylesheet allows (style-src 'self'), as for markdown's tables.
    if (align === 'left' || align === 'center' || align === 'right') element.classList.add(`align-${align}`);
  }
  // Every id is in the page's namespace: a raw HTML anchor (`<a name="install">`) is reached as a heading is.
  const name = element.tagName === 'A' ? element.getAttribute('name') : null;
  if (name !== null) element.removeAttribute('name');
  const id = element.getAttribute('id') ?? name;
  if (id !== null && !id.startsWith('h-')) element.setAttribute('id', headingId(id));
  if (/^H[1-6]$/.test(element.tagName) && !element.hasAttribute('id')) {
    element.setAttribute('id', headingId(element.textContent ?? ''));
  }
  if (element.tagName === 'A' && element.hasAttribute('href') && rendering) {
    placeLink(element, rendering);
  }
});

/** Points a link of the page where linkTarget says, and marks it for the app's click handler. */
function placeLink(link: Element, page: PageContext): void {
  const target = linkTarget(link.getAttribute('href') ?? '', page.path);
  switch (target.kind) {
    case 'page':
      link.setAttribute('href', page.pageHref(target.path, target.anchor));
      link.setAttribute('data-page', target.path);
      if (target.anchor) link.setAttribute('data-anchor', target.anchor);
      break;
    case 'anchor':
      link.setAttribute('href', `#${headingId(target.anchor)}`);
      link.setAttribute('data-anchor', target.anchor);
      break;
    case 'external':
      link.setAttribute('href', target.href);
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer nofollow');
      break;
    case 'blocked':
      link.setAttribute('href', '#');
      link.setAttribute('data-blocked', 'true');
      break;
  }
}
