import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageStore } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from './build.js';
import { createLinkResolver } from './links.js';
import { parseMarkdown } from './markdown.js';

const pages = [
  'index.md',
  'guide/cors.md',
  'guide/routing/index.mdx',
  'api/app.md',
  'pg/column-types.mdx',
  'mysql/column-types.mdx',
  'reference/errors.rst',
];
const resolve = createLinkResolver(pages);

describe('createLinkResolver', () => {
  it.each([
    ['a relative source path', '../guide/cors.md', 'guide/cors.md'],
    ['a relative path with an anchor and a query', '../guide/cors.md?tab=1#options', 'guide/cors.md'],
    ['a rendered page', '../guide/cors.html', 'guide/cors.md'],
    ['a folder, for its index page', '../guide/routing/', 'guide/routing/index.mdx'],
    ['a site route with a prefix of the site', '/docs/guide/cors/', 'guide/cors.md'],
    ['a route naming the page by its last segments', '/docs/pg/column-types', 'pg/column-types.mdx'],
    ['another format, by its rendered name', '/reference/errors.html', 'reference/errors.rst'],
    ['an escaped path', '../guide/%63ors.md', 'guide/cors.md'],
    ['the docs root', '/', 'index.md'],
  ])('resolves %s', (_, link, page) => {
    expect(resolve('api/app.md', [link])).toEqual([page]);
  });

  it.each([
    ['another site', 'https://example.com/guide/cors'],
    ['a protocol-relative URL', '//example.com/guide/cors'],
    ['an email address', 'mailto:team@example.com'],
    ['a place on the same page', '#options'],
    ['a page the docs do not have', '../guide/auth.md'],
    ['an ending two pages share', '/docs/column-types'],
  ])('resolves %s to nothing', (_, link) => {
    expect(resolve('api/app.md', [link])).toEqual([]);
  });

  it('names each page once and never the linking page itself', () => {
    expect(resolve('guide/cors.md', ['./cors.md', '../api/app.md', '/api/app', 'app.md#x'])).toEqual(['api/app.md']);
  });
});

describe('links in the package', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docs-links-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('parses inline and reference links, not ones inside code', () => {
    const parsed = parseMarkdown(
      '# Page\n\nSee [CORS](./cors.md) and [the app][app].\n\n```md\n[not a link](./code.md)\n```\n\n[app]: ../api/app.md\n',
      { path: 'guide/page.md' },
    );
    expect(parsed.links).toEqual(['./cors.md', '../api/app.md']);
  });

  it('stores how many other pages link to each page, and search reads it from the built package', async () => {
    const root = path.join(dir, 'docs');
    await mkdir(path.join(root, 'guide'), { recursive: true });
    await writeFile(path.join(root, 'guide', 'cors.md'), '# CORS\n\nEnable cross-origin requests.\n');
    await writeFile(path.join(root, 'guide', 'setup.md'), '# Setup\n\nThen [enable CORS](./cors.md#usage).\n');
    await writeFile(path.join(root, 'faq.md'), '# FAQ\n\nSee [CORS](/docs/guide/cors/) and [again](guide/cors.md).\n');
    await writeFile(
      path.join(root, 'elsewhere.md'),
      '# Elsewhere\n\n[CORS on MDN](https://developer.mozilla.org/cors).\n',
    );
    const output = path.join(dir, 'linked@1.0.0.db');
    await buildPackage({ root, name: 'linked', version: '1.0.0', output, minSectionTokens: 0, workers: 0 });
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(output);
    const found = await store.resolve('linked');
    if (!found.ok) throw new Error('expected the package');
    const hits = await store
      .reader(found.value)
      .search({ terms: ['cors', 'setup', 'faq', 'elsewhere'], mode: 'any' }, { limit: 10 });
    expect(Object.fromEntries(hits.map((h) => [h.path, h.inboundLinks]))).toEqual({
      'guide/cors.md': 2,
      'guide/setup.md': 0,
      'faq.md': 0,
      'elsewhere.md': 0,
    });
    await store.close();
  });
});
