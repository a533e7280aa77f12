import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SourceError } from './errors.js';
import { type FetchResult, fetchDocument, formatBytes } from './fetch-document.js';
import { htmlToMarkdown } from './html.js';
import type { ResolvedSource, SourceProgress } from './source.js';
import { tempDir } from './temp-dir.js';
import type { SkippedFile } from './walk.js';

/** Options for {@link fetchWebsite}. */
export interface WebsiteOptions {
  /** The site (or its llms.txt / llms-full.txt). */
  readonly url: string;
  readonly signal?: AbortSignal;
  /** Per request, body included. @default 15000 */
  readonly timeoutMs?: number;
  /** Per page; larger pages are skipped. llms-full.txt, the whole site in one file, is held to maxTotalBytes instead. @default 5 MiB */
  readonly maxDocumentBytes?: number;
  /** Over everything fetched; pages past it are skipped. @default 100 MiB */
  readonly maxTotalBytes?: number;
  /** Pages fetched from llms.txt links; the rest are skipped. @default 500 */
  readonly maxPages?: number;
  /** Requests in flight at once. @default 4 */
  readonly concurrency?: number;
  readonly onProgress?: (progress: SourceProgress) => void;
}

interface Page {
  readonly path: string;
  readonly markdown: string;
  /** An HTML page's meta description. */
  readonly description?: string;
}

// Link targets that are not pages of documentation.
const NOT_A_PAGE = /\.(?:png|jpe?g|gif|svg|webp|ico|pdf|zip|gz|tgz|mp4|webm|mp3|woff2?|ttf|css|js|json|xml|wasm)$/i;
// Host labels that say "documentation" rather than which project.
const GENERIC_LABELS = new Set([
  'www',
  'docs',
  'doc',
  'documentation',
  'developer',
  'developers',
  'dev',
  'api',
  'wiki',
]);

/**
 * Fetches a documentation website into a temporary folder of markdown files:
 * `llms-full.txt` when the site has one (split into its pages), else the
 * pages `llms.txt` links to (same-origin links only), else the page itself.
 * HTML becomes markdown through Readability and Turndown. Every request has a
 * timeout and a byte cap, the total has a byte cap and a page cap, and each
 * page that could not be used is reported in `skipped` with the reason; a bad
 * page never stops the rest. Throws SourceError('fetch-failed') only when
 * nothing at all could be fetched. The version is today's date.
 *
 * @example
 * const site = await fetchWebsite({ url: 'https://hono.dev' });
 * try { await buildPackage({ root: site.root, name: site.name ?? 'hono', version: site.version ?? 'latest', ... }) }
 * finally { await site.dispose() }
 */
export async function fetchWebsite(options: WebsiteOptions): Promise<ResolvedSource> {
  const started = performance.now();
  let base: URL;
  try {
    base = new URL(options.url);
  } catch (error) {
    throw new SourceError('invalid-source', `not a valid URL: ${options.url}`, { cause: error });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new SourceError('invalid-source', `not a website address: ${options.url}`);
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxDocumentBytes = options.maxDocumentBytes ?? 5 * 1024 * 1024;
  const maxTotalBytes = options.maxTotalBytes ?? 100 * 1024 * 1024;
  const maxPages = options.maxPages ?? 500;
  const concurrency = Math.max(1, options.concurrency ?? 4);

  const { dir, dispose } = await tempDir('web');
  const skipped: SkippedFile[] = [];
  const usedPaths = new Set<string>();
  let bytes = 0;
  let written = 0;
  let total: number | undefined;
  const report = (current: string) =>
    options.onProgress?.({
      phase: 'fetch',
      documents: written,
      ...(total === undefined ? {} : { total }),
      bytes,
      elapsedMs: performance.now() - started,
      current,
    });
  const get = async (url: string, maxBytes: number): Promise<FetchResult> => {
    report(url);
    const remaining = maxTotalBytes - bytes;
    if (remaining <= 0) return { ok: false, reason: `over the total size cap of ${formatBytes(maxTotalBytes)}` };
    const result = await fetchDocument(url, {
      timeoutMs,
      maxBytes: Math.min(maxBytes, remaining),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (result.ok) bytes += result.bytes;
    else if (remaining < maxBytes && result.reason.startsWith('larger than')) {
      return { ok: false, reason: `over the total size cap of ${formatBytes(maxTotalBytes)}` };
    }
    return result;
  };
  const save = async (page: Page) => {
    const relative = uniquePath(page.path, usedPaths);
    const file = path.join(dir, ...relative.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, page.markdown);
    written += 1;
  };

  try {
    let source: string | undefined;
    let description: string | undefined;
    const { full, index } = llmsCandidates(base);

    for (const candidate of full) {
      const result = await get(candidate, maxTotalBytes);
      if (!result.ok) {
        if (result.status !== 404) skipped.push({ path: candidate, reason: result.reason });
        continue;
      }
      if (isHtml(result)) continue;
      const pages = splitLlmsFull(result.text, new URL(result.url));
      for (const page of pages.slice(0, maxPages)) await save(page);
      if (pages.length > maxPages) {
        skipped.push({
          path: `${candidate} (${pages.length - maxPages} more pages)`,
          reason: `over the page cap of ${maxPages}`,
        });
      }
      if (written > 0) {
        source = candidate;
        break;
      }
    }

    if (source === undefined) {
      for (const candidate of index) {
        const result = await get(candidate, maxDocumentBytes);
        if (!result.ok) {
          if (result.status !== 404) skipped.push({ path: candidate, reason: result.reason });
          continue;
        }
        if (isHtml(result)) continue;
        const listing = parseLlmsTxt(result.text, new URL(result.url));
        description = listing.summary;
        skipped.push(...listing.skipped);
        const links = listing.links.slice(0, maxPages);
        if (listing.links.length > maxPages) {
          skipped.push({
            path: `${candidate} (${listing.links.length - maxPages} more links)`,
            reason: `over the page cap of ${maxPages}`,
          });
        }
        total = links.length;
        await eachConcurrently(links, concurrency, async (link) => {
          const page = await get(link, maxDocumentBytes);
          const converted = page.ok ? toPage(page, new URL(link).origin) : page;
          if ('reason' in converted) skipped.push({ path: link, reason: converted.reason });
          else await save(converted);
          report(link);
        });
        if (written > 0) source = candidate;
        break;
      }
    }

    if (source === undefined) {
      const result = await get(base.href, maxDocumentBytes);
      const converted = result.ok ? toPage(result, base.origin) : result;
      if ('reason' in converted) skipped.push({ path: base.href, reason: converted.reason });
      else {
        await save(converted);
        source = base.href;
        description ??= converted.description;
      }
    }

    if (source === undefined || written === 0) {
      const reasons = skipped.map((s) => `${s.path}: ${s.reason}`).join('; ');
      throw new SourceError('fetch-failed', `nothing to index at ${base.href}${reasons ? ` (${reasons})` : ''}`);
    }
    report(source);
    const name = nameFromHost(base.hostname);
    return {
      kind: 'website',
      root: dir,
      ...(name ? { name } : {}),
      version: new Date().toISOString().slice(0, 10),
      ...(description ? { description } : {}),
      source,
      warnings: [],
      skipped,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** llms-full.txt and llms.txt next to the given address, then at the site's root; or just the file the address names. */
function llmsCandidates(base: URL): { full: string[]; index: string[] } {
  const file = base.pathname.split('/').at(-1) ?? '';
  if (file === 'llms-full.txt') return { full: [base.href], index: [] };
  if (file === 'llms.txt') return { full: [], index: [base.href] };
  const folder = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const places = [...new Set([new URL(folder, base.origin).href, `${base.origin}/`])];
  return { full: places.map((p) => `${p}llms-full.txt`), index: places.map((p) => `${p}llms.txt`) };
}

function isHtml(result: Extract<FetchResult, { ok: true }>): boolean {
  return /html/i.test(result.contentType) || /^\s*<(?:!doctype\s+html|html[\s>])/i.test(result.text);
}

/** A fetched page as a markdown file, or why it cannot be one. */
function toPage(result: Extract<FetchResult, { ok: true }>, origin: string): Page | { reason: string } {
  if (new URL(result.url).origin !== origin) return { reason: `redirected to another site (${result.url})` };
  const type = result.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  let markdown: string;
  let description = '';
  if (isHtml(result)) ({ markdown, description } = htmlToMarkdown(result.text, { url: result.url }));
  else if (type === '' || type.startsWith('text/') || type === 'application/octet-stream') markdown = result.text;
  else return { reason: `not a document (${type})` };
  if (markdown.trim() === '') return { reason: 'no text in the page' };
  return { path: pathForUrl(new URL(result.url)), markdown, ...(description ? { description } : {}) };
}

/**
 * The links of an llms.txt (the llmstxt.org format: an H1, a `>` summary, and
 * `- [title](url): notes` lists), resolved against its address. Same-origin
 * page links are kept in order without duplicates; the others are reported.
 */
export function parseLlmsTxt(text: string, at: URL): { summary?: string; links: string[]; skipped: SkippedFile[] } {
  const summary = text
    .split('\n')
    .filter((line) => line.startsWith('>'))
    .map((line) => line.replace(/^>\s?/, '').trim())
    .join(' ')
    .trim();
  const links: string[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (match[1] === '!') continue;
    let url: URL;
    try {
      url = new URL(match[2] as string, at);
    } catch {
      continue;
    }
    url.hash = '';
    const href = url.href;
    if (seen.has(href) || href === at.href) continue;
    seen.add(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.origin !== at.origin)
      skipped.push({ path: href, reason: 'on another site (only same-origin links are followed)' });
    else if (NOT_A_PAGE.test(url.pathname)) skipped.push({ path: href, reason: 'not a document' });
    else links.push(href);
  }
  return { ...(summary ? { summary } : {}), links, skipped };
}

/**
 * llms-full.txt split into its pages at top-level `#` headings outside code
 * fences; a page's path comes from a `Source:`/`URL:` line under its heading
 * when it has one, else from the heading. One page when there are no such headings.
 */
export function splitLlmsFull(text: string, at: URL): Page[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const starts: number[] = [];
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else if (fence === undefined && /^# \S/.test(line)) {
      starts.push(i);
    }
  });
  if (starts.length < 2) return [{ path: 'llms-full.md', markdown: text }];
  const pages: Page[] = [];
  const preamble = lines.slice(0, starts[0]).join('\n').trim();
  if (preamble !== '') pages.push({ path: 'index.md', markdown: `${preamble}\n` });
  starts.forEach((start, n) => {
    const body = lines.slice(start, starts[n + 1] ?? lines.length);
    const heading = (body[0] as string).slice(2).trim();
    const sourceLine = body.slice(1, 6).find((line) => /^(?:source|url):\s*\S+/i.test(line.trim()));
    let pagePath = `${slug(heading) || `page-${n + 1}`}.md`;
    if (sourceLine !== undefined) {
      try {
        const url = new URL(sourceLine.trim().replace(/^(?:source|url):\s*/i, ''), at);
        if (url.origin === at.origin) pagePath = pathForUrl(url);
      } catch {
        // Not an address: keep the path from the heading.
      }
    }
    pages.push({ path: pagePath, markdown: `${body.join('\n').trim()}\n` });
  });
  return pages;
}

/** `/docs/guide/intro.html` → `docs/guide/intro.md`, `/` → `index.md`. */
export function pathForUrl(url: URL): string {
  const segments = url.pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .map((segment) => segment.replace(/[^\w.@+-]+/g, '-').slice(0, 100))
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..' && !segment.startsWith('.'));
  if (url.pathname.endsWith('/') || segments.length === 0) segments.push('index');
  const last = (segments.pop() as string).replace(/\.(?:md|mdx|markdown|html?|txt|php|aspx?)$/i, '') || 'index';
  return [...segments, `${last}.md`].join('/');
}

function uniquePath(wanted: string, used: Set<string>): string {
  let candidate = wanted;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = wanted.replace(/\.md$/, `-${n}.md`);
  used.add(candidate.toLowerCase());
  return candidate;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\w]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/**
 * A library name from a host: the first label that names a project rather
 * than "documentation" (`docs.pydantic.dev` → `pydantic`, `hono.dev` → `hono`);
 * undefined for addresses and single-label hosts.
 */
export function nameFromHost(hostname: string): string | undefined {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(':') || !hostname.includes('.')) return undefined;
  const labels = hostname.toLowerCase().split('.').slice(0, -1);
  return labels.find((label) => !GENERIC_LABELS.has(label) && /^[a-z0-9][a-z0-9-]*$/.test(label));
}

async function eachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (next < items.length && !stopped) {
      const item = items[next] as T;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        stopped = true;
        throw error;
      }
    }
  };
  // Every worker settles before a failure is passed on, so none writes into a folder already removed.
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
