import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageStore } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { buildPackage } from '../build.js';
import { parseMarkdown } from '../markdown.js';
import { formatOf, toMarkdown } from './convert.js';

const words = 'Retries happen with exponential backoff and a jitter so that clients do not stampede the server. ';
const body = words.repeat(4).trim();

// One document in every format: the same three sections.
const documents = {
  'guide.md': `# Widget\n\n${body}\n\n## Install\n\n${body}\n\n### From source\n\n${body}\n`,
  'guide.rst': `Widget\n======\n\n${body}\n\nInstall\n-------\n\n${body}\n\nFrom source\n~~~~~~~~~~~\n\n${body}\n`,
  'guide.adoc': `= Widget\n\n${body}\n\n== Install\n\n${body}\n\n=== From source\n\n${body}\n`,
  'guide.html': `<html><head><title>Widget</title></head><body><nav>Home</nav><main><h1>Widget</h1><p>${body}</p><h2>Install</h2><p>${body}</p><h3>From source</h3><p>${body}</p></main><footer>Footer</footer></body></html>`,
};

test.each(Object.entries(documents))('%s parses into the same sections as markdown', (file, source) => {
  const format = formatOf(file);
  if (format === undefined) throw new Error(`no format for ${file}`);
  const parsed = parseMarkdown(toMarkdown(source, format), { path: file });
  expect(parsed.title).toBe('Widget');
  expect(parsed.sections.map((s) => [s.breadcrumb, s.level, s.text])).toEqual([
    [['Widget'], 1, body],
    [['Widget', 'Install'], 2, body],
    [['Widget', 'Install', 'From source'], 3, body],
  ]);
});

test.each([
  ['a.MD', 'markdown'],
  ['a.mdx', 'markdown'],
  ['docs/a.markdown', 'markdown'],
  ['a.rst', 'rst'],
  ['a.adoc', 'asciidoc'],
  ['a.asciidoc', 'asciidoc'],
  ['a.HTML', 'html'],
  ['a.htm', 'html'],
  ['a.txt', 'text'],
  ['llms.txt', 'markdown'],
  ['llms-full.txt', 'markdown'],
  ['a.png', undefined],
])('formatOf(%s) = %s', (file, format) => {
  expect(formatOf(file)).toBe(format);
});

describe('buildPackage over every format', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docs-formats-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes .md, .rst, .adoc, .html and .txt files alike, searchable by their text', async () => {
    const root = path.join(dir, 'docs');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(root);
    await writeFile(path.join(root, 'guide.md'), '# Markdown page\n\nThe markdown zebra.\n');
    await writeFile(path.join(root, 'setup.rst'), 'Setup\n=====\n\nThe restructured giraffe.\n');
    await writeFile(path.join(root, 'manual.adoc'), '= Manual\n\nThe asciidoc okapi.\n');
    await writeFile(
      path.join(root, 'page.html'),
      '<html><body><main><h1>Page</h1><p>The html pangolin.</p></main></body></html>',
    );
    await writeFile(path.join(root, 'notes.txt'), 'The plain text axolotl.\n');
    const output = path.join(dir, 'mixed@1.0.0.db');
    const summary = await buildPackage({ root, name: 'mixed', version: '1.0.0', output, minSectionTokens: 0 });
    expect(summary).toMatchObject({ documents: 5, skipped: [] });
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(output);
    const found = await store.resolve('mixed');
    if (!found.ok) throw new Error('not installed');
    const reader = store.reader(found.value);
    for (const [word, file] of [
      ['zebra', 'guide.md'],
      ['giraffe', 'setup.rst'],
      ['okapi', 'manual.adoc'],
      ['pangolin', 'page.html'],
      ['axolotl', 'notes.txt'],
    ] as const) {
      const hits = await reader.search({ terms: [word], mode: 'all' }, { limit: 5 });
      expect(
        hits.map((h) => h.path),
        word,
      ).toEqual([file]);
    }
    await store.close();
  });
});
