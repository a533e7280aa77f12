import { createRequire } from 'node:module';
import type { Readability } from '@mozilla/readability';
import type { parseHTML } from 'linkedom';
import type TurndownService from 'turndown';

// The DOM, Readability and Turndown are loaded on first use (their CommonJS
// builds, so the API stays synchronous): a build of markdown alone never pays
// for them.
const load = createRequire(import.meta.url);
let libraries:
  | { parseHTML: typeof parseHTML; Readability: typeof Readability; TurndownService: typeof TurndownService }
  | undefined;
function libs(): NonNullable<typeof libraries> {
  libraries ??= {
    parseHTML: (load('linkedom') as { parseHTML: typeof parseHTML }).parseHTML,
    Readability: (load('@mozilla/readability') as { Readability: typeof Readability }).Readability,
    TurndownService: load('turndown') as typeof TurndownService,
  };
  return libraries;
}

/** A web page as markdown. */
export interface HtmlDocument {
  /** The page's title: its one `h1`, else what Readability found, else `<title>`; "" when it has none. */
  readonly title: string;
  /** The `<meta name="description">` (or Readability's excerpt); "" when there is none. */
  readonly description: string;
  /** The main content as markdown, headed by `# title` when the content has no h1 of its own. */
  readonly markdown: string;
}

/** Options for {@link htmlToMarkdown}. */
export interface HtmlOptions {
  /** The page's address: relative links and images are made absolute against it. */
  readonly url?: string;
}

/** The part of the DOM this module touches, whichever implementation (linkedom, turndown's domino) provides it. */
interface DomElement {
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly innerHTML: string;
  readonly childNodes: ArrayLike<DomElement>;
  readonly parentNode: DomElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  closest(selector: string): DomElement | null;
  remove(): void;
}

// Page furniture: never documentation, whatever Readability decides. Headers
// and asides inside the content are kept (an article's title, a note callout).
const BOILERPLATE = 'script, style, noscript, template, iframe, svg, canvas, form, dialog, nav, footer';
const OUTSIDE_CONTENT = 'header, aside';
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)/;

let service: TurndownService | undefined;

/**
 * Turns a web page into markdown: Readability extracts the main content (so
 * navigation, headers, footers and sidebars stay out), Turndown writes it as
 * markdown with ATX headings, fenced code (keeping the language from
 * `language-*` classes) and GFM tables. A page Readability finds no article in
 * falls back to its body without page furniture.
 *
 * @example
 * htmlToMarkdown('<html><head><title>Intro</title></head><body><nav>…</nav><main><h1>Intro</h1><p>Hello</p></main></body></html>');
 * // → { title: 'Intro', description: '', markdown: '# Intro\n\nHello\n' }
 */
export function htmlToMarkdown(html: string, options: HtmlOptions = {}): HtmlDocument {
  const page = parse(html, options.url);
  const metaDescription = clean(
    page.querySelector('meta[name="description"]')?.getAttribute('content') ??
      page.querySelector('meta[property="og:description"]')?.getAttribute('content') ??
      '',
  );
  const pageTitle = clean(page.querySelector('title')?.textContent ?? '');

  removeFurniture(page);
  const h1s = Array.from(page.querySelectorAll('h1'))
    .map((h) => clean(h.textContent))
    .filter(Boolean);
  // Readability changes the document it reads, so it gets its own copy.
  const copy = parse(html, options.url);
  removeFurniture(copy);
  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new (libs().Readability)(copy as unknown as ConstructorParameters<typeof Readability>[0], {
      keepClasses: true,
    }).parse();
  } catch {
    // Readability can fail on odd markup; the body fallback below still works.
  }
  let content = article?.content ?? '';
  if (clean(article?.textContent ?? '') === '') {
    content = page.querySelector('main')?.innerHTML ?? page.querySelector('body')?.innerHTML ?? html;
  }
  const title = (h1s.length === 1 ? h1s[0] : undefined) || clean(article?.title) || pageTitle;
  let markdown = turndown().turndown(content).trim();
  if (title !== '' && markdown !== '' && !/^# /m.test(markdown)) markdown = `# ${title}\n\n${markdown}`;
  return {
    title,
    description: metaDescription || clean(article?.excerpt ?? ''),
    markdown: markdown === '' ? '' : `${markdown}\n`,
  };
}

/**
 * A fragment of HTML (a README's `<p align="center">` block, a `<table>`) as
 * markdown, by the same Turndown rules as {@link htmlToMarkdown} but without
 * Readability: a fragment is all content, and Readability would judge a short
 * one (a row of links) to be page furniture and drop it. Scripts, styles and
 * forms are still left out; comments are dropped. "" when nothing is left.
 *
 * @example
 * htmlFragmentToMarkdown('<p align="center">A <b>fast</b> client</p>'); // → 'A **fast** client'
 */
export function htmlFragmentToMarkdown(html: string): string {
  return turndown().turndown(html).trim();
}

function removeFurniture(document: DomElement): void {
  for (const element of Array.from(document.querySelectorAll(BOILERPLATE))) element.remove();
  for (const element of Array.from(document.querySelectorAll(OUTSIDE_CONTENT))) {
    if (!element.parentNode?.closest?.('article, main, [role="main"]')) element.remove();
  }
}

function parse(source: string, url: string | undefined): DomElement {
  const { document } = libs().parseHTML(source) as unknown as { document: DomElement };
  if (url !== undefined) {
    for (const [selector, attribute] of [
      ['a[href]', 'href'],
      ['img[src]', 'src'],
    ] as const) {
      for (const element of Array.from(document.querySelectorAll(selector))) {
        const value = element.getAttribute(attribute) ?? '';
        try {
          if (!value.startsWith('#')) element.setAttribute(attribute, new URL(value, url).href);
        } catch {
          // Not a URL at all: leave it as written.
        }
      }
    }
  }
  return document;
}

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function turndown(): TurndownService {
  if (service) return service;
  service = new (libs().TurndownService)({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '* * *',
  });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'form', 'button']);
  service.addRule('fencedCode', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as DomElement;
      const code = pre.querySelector('code');
      const language =
        LANGUAGE_CLASS.exec(code?.getAttribute('class') ?? '')?.[1] ??
        LANGUAGE_CLASS.exec(pre.getAttribute('class') ?? '')?.[1] ??
        LANGUAGE_CLASS.exec(pre.parentNode?.getAttribute?.('class') ?? '')?.[1] ??
        '';
      const text = (pre.textContent ?? '').replace(/\n$/, '');
      const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  // A heading is one line: a `<br>` in it (`<h1><img alt="Logo"><br>Project</h1>`, common on READMEs' front pages)
  // would end the heading at the break and leave its words in a paragraph below.
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = content.replace(/\s*\n\s*/g, ' ').trim();
      return text === '' ? '\n\n' : `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE',
    replacement: (_content, node) => `\n\n${table(node as unknown as DomElement)}\n\n`,
  });
  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG',
    replacement: (_content, node) => {
      const image = node as unknown as DomElement;
      const alt = clean(image.getAttribute('alt')).replace(/[[\]]/g, '');
      const src = image.getAttribute('src') ?? '';
      // Inline images (data: URLs) are kilobytes of base64 that nobody searches.
      if (src === '' || src.startsWith('data:')) return alt;
      return `![${alt}](${src})`;
    },
  });
  return service;
}

/** A GFM table; cells are converted on their own and kept to one line. */
function table(element: DomElement): string {
  const rows = Array.from(element.querySelectorAll('tr')).map((row) =>
    Array.from(row.childNodes)
      .filter((cell) => cell.nodeName === 'TD' || cell.nodeName === 'TH')
      .map((cell) =>
        turndown()
          .turndown(cell.innerHTML)
          .replace(/\s*\n\s*/g, ' ')
          .replace(/\|/g, '\\|')
          .trim(),
      ),
  );
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return '';
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head ?? []), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n');
}
