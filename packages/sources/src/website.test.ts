import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { htmlToMarkdown } from './html.js';
import { findDocFiles } from './walk.js';
import { fetchWebsite, nameFromHost, parseLlmsTxt, pathForUrl, splitLlmsFull } from './website.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

const servers: Server[] = [];
let temp: string;
const originalTmp = process.env.TMPDIR;

/** A real HTTP server on port 0 answering from a table of routes; anything else is a 404. */
async function serve(routes: Record<string, Route>): Promise<string> {
  const server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://x').pathname];
    if (route) route(request, response);
    else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const send =
  (type: string, body: string): Route =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': type });
    response.end(body);
  };
const markdown = (body: string) => send('text/markdown; charset=utf-8', body);
const html = (body: string) => send('text/html; charset=utf-8', body);

const article = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title} - Site</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/other">Navigation link</a></nav>` +
  `<main><h1>${title}</h1><p>${`${text} `.repeat(12)}</p></main>` +
  '<footer>Copyright footer</footer></body></html>';

const files = async (root: string) => (await findDocFiles(root)).map((f) => f.relativePath);

beforeAll(async () => {
  // The HTML libraries load on first use, synchronously; loaded here, their start-up (seconds on a busy machine)
  // does not stall the test server inside the short per-request timeouts below.
  htmlToMarkdown('<p>warm up</p>');
  temp = await mkdtemp(path.join(tmpdir(), 'docs-web-test-'));
  process.env.TMPDIR = temp;
});
afterAll(async () => {
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await rm(temp, { recursive: true, force: true });
});

describe('fetchWebsite', () => {
  it('uses llms-full.txt first, split into its pages', async () => {
    const base = await serve({
      '/llms-full.txt': markdown(
        '# Getting started\nSource: /docs/start\n\nInstall the widget.\n\n```md\n# not a page\n```\n\n# Configuration\n\nSet options.\n',
      ),
      '/llms.txt': markdown('# Site\n\n- [Never fetched](/never.md)\n'),
    });
    const site = await fetchWebsite({ url: base });
    try {
      expect(site).toMatchObject({ kind: 'website', source: `${base}/llms-full.txt`, skipped: [] });
      expect(site.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(site.name).toBeUndefined();
      expect(await files(site.root)).toEqual(['configuration.md', 'docs/start.md']);
      expect(await readFile(path.join(site.root, 'docs', 'start.md'), 'utf8')).toContain('# not a page');
    } finally {
      await site.dispose();
    }
    expect(await readdir(temp)).toEqual([]);
  });

  it('follows llms.txt links on the same site, converting HTML, and reports every page it skipped and why', async () => {
    const base = await serve({
      '/docs/llms.txt': markdown(
        [
          '# Widget',
          '',
          '> Widget renders widgets.',
          '',
          '## Docs',
          '',
          '- [Guide](/docs/guide.md): the guide',
          '- [Page](page.html)',
          '- [Slow](/docs/slow.html)',
          '- [Huge](/docs/huge.md)',
          '- [Missing](/docs/missing.md)',
          '- [Elsewhere](https://example.invalid/x.md)',
          '- [Logo](/logo.png)',
          '- [Guide again](/docs/guide.md#section)',
        ].join('\n'),
      ),
      '/docs/guide.md': markdown('# Guide\n\nUse the widget.\n'),
      '/docs/page.html': html(article('Page', 'The page body.')),
      '/docs/slow.html': (_request, response) => {
        const timer = setTimeout(() => send('text/html', article('Slow', 'late'))(_request, response), 5000);
        response.on('close', () => clearTimeout(timer));
      },
      '/docs/huge.md': markdown(`# Huge\n\n${'x'.repeat(50_000)}\n`),
    });
    const site = await fetchWebsite({ url: `${base}/docs/`, timeoutMs: 500, maxDocumentBytes: 20_000 });
    try {
      expect(site.source).toBe(`${base}/docs/llms.txt`);
      expect(site.description).toBe('Widget renders widgets.');
      expect(await files(site.root)).toEqual(['docs/guide.md', 'docs/page.md']);
      const page = await readFile(path.join(site.root, 'docs', 'page.md'), 'utf8');
      expect(page).toMatch(/^# Page\n\nThe page body\./);
      expect(page).not.toMatch(/Navigation link|Copyright footer/);
      const reasons = Object.fromEntries(site.skipped.map((s) => [s.path.replace(base, ''), s.reason]));
      expect(reasons).toEqual({
        'https://example.invalid/x.md': 'on another site (only same-origin links are followed)',
        '/logo.png': 'not a document',
        '/docs/slow.html': 'timed out after 0.5 s',
        '/docs/huge.md': 'larger than 19.5 KiB',
        '/docs/missing.md': 'HTTP 404',
      });
    } finally {
      await site.dispose();
    }
  });

  it('holds to the page cap and the total size cap', async () => {
    const routes: Record<string, Route> = {
      '/llms.txt': markdown(Array.from({ length: 6 }, (_, i) => `- [P${i}](/p${i}.md)`).join('\n')),
    };
    for (let i = 0; i < 6; i++) routes[`/p${i}.md`] = markdown(`# Page ${i}\n\n${'word '.repeat(200)}\n`);
    const base = await serve(routes);
    const capped = await fetchWebsite({ url: base, maxPages: 2, concurrency: 1 });
    try {
      expect(await files(capped.root)).toEqual(['p0.md', 'p1.md']);
      expect(capped.skipped).toEqual([{ path: `${base}/llms.txt (4 more links)`, reason: 'over the page cap of 2' }]);
    } finally {
      await capped.dispose();
    }
    const limited = await fetchWebsite({ url: base, maxTotalBytes: 2500, concurrency: 1 });
    try {
      expect((await files(limited.root)).length).toBeLessThan(6);
      expect(limited.skipped.at(-1)?.reason).toMatch(/over the total size cap of 2.4 KiB/);
    } finally {
      await limited.dispose();
    }
  });

  it('falls back to the page itself when there is no llms.txt (an HTML answer for it does not count)', async () => {
    const base = await serve({
      '/': html(article('Home', 'Welcome to the widget documentation.')),
      '/llms.txt': html('<html><body>Single-page app shell</body></html>'),
    });
    const site = await fetchWebsite({ url: base });
    try {
      expect(site.source).toBe(`${base}/`);
      expect(await files(site.root)).toEqual(['index.md']);
      expect(await readFile(path.join(site.root, 'index.md'), 'utf8')).toMatch(/^# Home\n\nWelcome/);
    } finally {
      await site.dispose();
    }
  });

  it('fails with the reasons when nothing could be fetched, leaving no temporary folder', async () => {
    const base = await serve({});
    await expect(fetchWebsite({ url: base })).rejects.toMatchObject({
      name: 'SourceError',
      code: 'fetch-failed',
      message: expect.stringMatching(/nothing to index.*HTTP 404/),
    });
    await expect(fetchWebsite({ url: 'http://127.0.0.1:1/' })).rejects.toMatchObject({ code: 'fetch-failed' });
    expect(await readdir(temp)).toEqual([]);
  });

  it('stops at once when aborted, leaving no temporary folder', async () => {
    const base = await serve({
      '/llms.txt': markdown('- [Slow](/slow.md)\n'),
      '/slow.md': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/markdown' });
        response.write('# Slow\n');
      },
    });
    const abort = new AbortController();
    const pending = fetchWebsite({
      url: base,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.current?.endsWith('/slow.md')) setTimeout(() => abort.abort(new Error('interrupted')), 50);
      },
    });
    await expect(pending).rejects.toThrow('interrupted');
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('llms.txt helpers', () => {
  it('parses links, keeping same-origin pages once, in order', () => {
    const at = new URL('https://site.dev/docs/llms.txt');
    const parsed = parseLlmsTxt(
      '# Site\n> One line.\n> Two.\n\n- [A](a.md)\n- [B](/b/ "title")\n![img](/i.png)\n- [A again](a.md#x)\n- [Out](http://other.dev/c)\n',
      at,
    );
    expect(parsed.summary).toBe('One line. Two.');
    expect(parsed.links).toEqual(['https://site.dev/docs/a.md', 'https://site.dev/b/']);
    expect(parsed.skipped).toEqual([
      { path: 'http://other.dev/c', reason: 'on another site (only same-origin links are followed)' },
    ]);
  });

  it('keeps llms-full.txt whole when it has one page', () => {
    expect(splitLlmsFull('# Only\n\ntext\n', new URL('https://s.dev/llms-full.txt'))).toEqual([
      { path: 'llms-full.md', markdown: '# Only\n\ntext\n' },
    ]);
  });
});

test.each([
  ['https://site.dev/docs/guide/intro.html', 'docs/guide/intro.md'],
  ['https://site.dev/docs/guide/', 'docs/guide/index.md'],
  ['https://site.dev/', 'index.md'],
  ['https://site.dev/a%20b/../c.md', 'c.md'],
  ['https://site.dev/api/v1/users.txt?x=1', 'api/v1/users.md'],
])('pathForUrl(%s) = %s', (url, expected) => {
  expect(pathForUrl(new URL(url))).toBe(expected);
});

test.each([
  ['hono.dev', 'hono'],
  ['docs.pydantic.dev', 'pydantic'],
  ['www.python.org', 'python'],
  ['requests.readthedocs.io', 'requests'],
  ['developer.mozilla.org', 'mozilla'],
  ['127.0.0.1', undefined],
  ['localhost', undefined],
])('nameFromHost(%s) = %s', (host, name) => {
  expect(nameFromHost(host)).toBe(name);
});
