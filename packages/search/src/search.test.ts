import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { analyzeQuery, getDocs, readDoc, searchAll } from './index.js';

let dir: string;
let store: PackageStore;

function chunk(breadcrumb: string[], content: string, tokens = Math.ceil(content.length / 4)) {
  return { breadcrumb, level: breadcrumb.length, content, tokens };
}

const timers: DocumentInput = {
  path: 'guide/timers.md',
  title: 'Timers',
  content: '# Timers\n\nFake timers replace setTimeout.\n\n## Advancing\n\nAdvance time by hand.',
  chunks: [
    chunk(['Timers'], 'Fake timers replace setTimeout and setInterval so tests can mock timers without waiting.'),
    chunk(['Timers', 'Advancing'], 'Advance the clock by hand with advanceTimersByTime.'),
  ],
};
const mocking: DocumentInput = {
  path: 'guide/mocking.md',
  title: 'Mocking',
  content: '# Mocking\n\nMock functions and modules.',
  chunks: [
    chunk(['Mocking'], 'Mock functions record their calls.'),
    chunk(['Mocking', 'Modules'], 'Mock whole modules with a factory.'),
    chunk(['Mocking', 'Globals'], 'Stub global variables such as fetch for one test.'),
  ],
};
const huge: DocumentInput = {
  path: 'reference/huge.md',
  title: 'Huge reference',
  content: 'Huge',
  chunks: [
    chunk(
      ['Huge reference'],
      Array.from({ length: 400 }, (_, i) => `Paragraph ${i} about the zebra configuration option.`).join('\n\n'),
    ),
  ],
};
const cors = (framework: string): DocumentInput => ({
  path: 'middleware/cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [
    chunk(
      ['CORS'],
      `Enable CORS in ${framework} with the cors middleware so a browser app on another origin can call the API.`,
    ),
    chunk(['CORS', 'Options'], 'Set allowed origins, methods and headers.'),
  ],
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-search-'));
  store = new PackageStore(path.join(dir, 'home'));
  const packages: Array<[string, string, DocumentInput[]]> = [
    ['testlib', '1.0.0', [timers, mocking, huge]],
    ['testlib', '0.9.0', [mocking]],
    ['webframe', '2.0.0', [cors('webframe')]],
    ['apiframe', '3.1.0', [cors('apiframe')]],
  ];
  for (const [name, version, docs] of packages) {
    const file = path.join(dir, `${name}-${version}.db`);
    await writePackage(file, { name, version }, docs);
    await store.install(file, { move: true });
  }
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('getDocs', () => {
  it('finds the section that answers first, labelled with its library, path and breadcrumb', async () => {
    const answer = await getDocs(store, 'testlib', 'fake timers');
    expect(answer.status).toBe('ok');
    expect(answer.results[0]).toMatchObject({
      library: 'testlib@1.0.0',
      path: 'guide/timers.md',
      breadcrumb: ['Timers'],
      heading: 'Timers',
      title: 'Timers',
      score: 1,
    });
    expect(answer.results[0]?.content).toContain('Fake timers');
  });

  it('answers a natural question despite its small words and the library name', async () => {
    const answer = await getDocs(store, 'testlib', 'how do I mock timers in testlib');
    expect(answer.query.terms).toEqual(['mock', 'timers']);
    expect(answer.results[0]?.path).toBe('guide/timers.md');
  });

  it('ranks by how many words a section holds when none holds them all', async () => {
    const answer = await getDocs(store, 'testlib', 'stub fetch quantumflux');
    expect(answer.status).toBe('ok');
    expect(answer.query.match).toBe('some');
    expect(answer.results[0]?.breadcrumb).toEqual(['Mocking', 'Globals']);
  });

  it('uses the requested version, and the highest for a bare name', async () => {
    expect((await getDocs(store, 'TestLib', 'mock')).searched).toEqual(['testlib@1.0.0']);
    expect((await getDocs(store, 'testlib@0.9.0', 'mock')).searched).toEqual(['testlib@0.9.0']);
    expect((await getDocs(store, 'testlib', 'mock', { version: '0.9.0' })).searched).toEqual(['testlib@0.9.0']);
  });

  it('says which libraries exist when the library is unknown', async () => {
    const answer = await getDocs(store, 'testlb', 'mock');
    expect(answer).toMatchObject({ status: 'unknown-library', results: [], suggestion: 'testlib' });
    expect(answer.installed).toContain('testlib@0.9.0');
    expect(answer.message).toMatch(/not installed.*testlib/);
  });

  it('says so when a version is not installed', async () => {
    const answer = await getDocs(store, 'testlib@7', 'mock');
    expect(answer.status).toBe('unknown-version');
    expect(answer.message).toContain('1.0.0, 0.9.0');
  });

  it('says nothing matched, with a hint, rather than returning a silent empty list', async () => {
    const answer = await getDocs(store, 'testlib', 'xylophone');
    expect(answer.status).toBe('no-match');
    expect(answer.message).toMatch(/Nothing in testlib@1.0.0 matched "xylophone".*Try/);
  });

  it('cuts a top result larger than the budget at a paragraph and marks it truncated', async () => {
    const answer = await getDocs(store, 'testlib', 'zebra configuration', { tokens: 100 });
    const top = answer.results[0];
    expect(top?.truncated).toBe(true);
    expect(top?.tokens).toBeLessThanOrEqual(100);
    expect(answer.totalTokens).toBeLessThanOrEqual(100);
    expect(top?.content?.endsWith('option.')).toBe(true);
  });

  it('returns no content in the index format, and pages with limit and offset', async () => {
    const index = await getDocs(store, 'testlib', 'mock', { format: 'index', ranking: { drop: 0 } });
    expect(index.results.length).toBeGreaterThan(2);
    for (const r of index.results) expect(r.content).toBeUndefined();
    const second = await getDocs(store, 'testlib', 'mock', {
      format: 'index',
      limit: 1,
      offset: 1,
      ranking: { drop: 0 },
    });
    expect(second.results).toEqual([index.results[1]]);
    expect(second.total).toBe(index.total);
  });

  it('merges adjacent sections of one page into one result in the full format', async () => {
    const answer = await getDocs(store, 'testlib', 'timers', { ranking: { drop: 0 } });
    const merged = answer.results.find((r) => r.path === 'guide/timers.md');
    expect(merged?.content).toContain('Fake timers');
    expect(merged?.content).toContain('## Advancing');
    expect(merged?.sections).toEqual([['Timers'], ['Timers', 'Advancing']]);
    expect(answer.results.filter((r) => r.path === 'guide/timers.md')).toHaveLength(1);
  });

  test.each([
    ['"unbalanced ( AND NOT -x:* ^'],
    ['NEAR(mock timers)'],
    ['title:mock OR body:*'],
    ['""'],
    ['   '],
    ['日本語のテスト'],
    ['🚀🚀'],
    ["'; DROP TABLE chunks; --"],
  ])('treats %j as words, never as syntax', async (topic) => {
    const answer = await getDocs(store, 'testlib', topic);
    expect(['ok', 'no-match']).toContain(answer.status);
  });

  it('never raises an error for any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (topic) => {
        const answer = await getDocs(store, 'testlib', topic, { format: 'index' });
        expect(['ok', 'no-match']).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
  });

  test.each([
    [{ tokens: -1 }, /tokens/],
    [{ limit: 0 }, /limit/],
    [{ ranking: { drop: 2 } }, /drop/],
  ])('rejects bad options %j with a message naming the option', async (options, message) => {
    await expect(getDocs(store, 'testlib', 'mock', options)).rejects.toThrow(message);
  });
});

describe('searchAll', () => {
  it('merges libraries into one list, each result labelled, scores in [0, 1], within the budget', async () => {
    const answer = await searchAll(store, 'enable CORS', { tokens: 2000 });
    const libraries = new Set(answer.results.map((r) => r.library));
    expect(libraries).toEqual(new Set(['webframe@2.0.0', 'apiframe@3.1.0']));
    for (const r of answer.results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(answer.totalTokens).toBeLessThanOrEqual(2000);
    expect(answer.searched).toEqual(['apiframe@3.1.0', 'testlib@1.0.0', 'webframe@2.0.0']);
  });

  it('works when the store keeps only one connection open', async () => {
    const narrow = new PackageStore(store.dir, { maxOpenPackages: 1 });
    const answer = await searchAll(narrow, 'enable CORS', { tokens: 2000 });
    expect(new Set(answer.results.map((r) => r.library))).toEqual(new Set(['webframe@2.0.0', 'apiframe@3.1.0']));
    expect(answer.results.every((r) => (r.content ?? '').length > 0)).toBe(true);
    await narrow.close();
  });

  it('restricts to the libraries asked for', async () => {
    const answer = await searchAll(store, 'cors', { libraries: ['webframe'] });
    expect(answer.searched).toEqual(['webframe@2.0.0']);
    expect(new Set(answer.results.map((r) => r.library))).toEqual(new Set(['webframe@2.0.0']));
  });

  it('reports an unknown library in the restriction', async () => {
    expect((await searchAll(store, 'cors', { libraries: ['nope'] })).status).toBe('unknown-library');
  });

  it('returns an empty result that says why when nothing is installed', async () => {
    const empty = new PackageStore(path.join(dir, 'empty'));
    const answer = await searchAll(empty, 'anything');
    expect(answer).toMatchObject({ status: 'no-packages', results: [] });
    expect(answer.message).toMatch(/docs add/);
  });
});

describe('readDoc', () => {
  it('returns the whole page, found with or without its extension', async () => {
    const page = await readDoc(store, 'testlib', 'guide/timers');
    expect(page).toMatchObject({ status: 'ok', path: 'guide/timers.md', title: 'Timers', content: timers.content });
    expect(page.nextOffset).toBeUndefined();
  });

  it('pages through a document with a budget and offsets', async () => {
    const first = await readDoc(store, 'testlib', 'guide/timers.md', { tokens: 8 });
    expect(first.nextOffset).toBeGreaterThan(0);
    const second = await readDoc(store, 'testlib', 'guide/timers.md', { tokens: 1000, offset: first.nextOffset ?? 0 });
    expect(`${first.content}\n\n${second.content}`.replace(/\s+/g, ' ')).toBe(timers.content.replace(/\s+/g, ' '));
  });

  it('cuts a page that quotes special tokens such as <|endoftext|> like any other text', async () => {
    const home = path.join(dir, 'special-tokens');
    const own = new PackageStore(home);
    const quoted = Array.from({ length: 40 }, (_, i) => `Step ${i}: the model stops at <|endoftext|> or <|im_end|>.`);
    const page: DocumentInput = {
      path: 'tokens.md',
      title: 'Special tokens',
      content: quoted.join('\n\n'),
      chunks: [chunk(['Special tokens'], quoted.join('\n\n'))],
    };
    const file = path.join(dir, 'llmdocs-1.0.0.db');
    await writePackage(file, { name: 'llmdocs', version: '1.0.0' }, [page]);
    await own.install(file, { move: true });
    try {
      const read = await readDoc(own, 'llmdocs', 'tokens.md', { tokens: 50 });
      expect(read.status).toBe('ok');
      expect(read.content).toContain('<|endoftext|>');
      expect(read.nextOffset).toBeGreaterThan(0);
      const found = await getDocs(own, 'llmdocs', 'model stops', { tokens: 100 });
      expect(found.status).toBe('ok');
      expect(found.results[0]?.content).toContain('<|endoftext|>');
    } finally {
      await own.close();
    }
  });

  it('suggests close paths for an unknown one and never reads the disk', async () => {
    const page = await readDoc(store, 'testlib', 'timers.md');
    expect(page.status).toBe('unknown-path');
    expect(page.suggestions).toContain('guide/timers.md');
    expect((await readDoc(store, 'testlib', '../../../../etc/passwd')).status).toBe('unknown-path');
  });
});

describe('analyzeQuery', () => {
  test.each([
    ['how do I mock timers in vitest', ['vitest'], ['mock', 'timers']],
    ['vi.useFakeTimers', [], ['vi.usefaketimers']],
    ['--frozen-lockfile', [], ['frozen-lockfile']],
    ['"code": -32602 Unknown tool', [], ['code', '32602', 'unknown', 'tool']],
    ['how to', [], ['how', 'to']],
    ['vitest', ['vitest'], ['vitest']],
    // Words of time and order stay: they are the question.
    ['number of days between two dates', [], ['number', 'days', 'between', 'two', 'dates']],
    ['run setup code before each test', [], ['run', 'setup', 'code', 'before', 'test']],
    ['stop retrying after 3 attempts', [], ['stop', 'retrying', 'after', '3', 'attempts']],
  ])('%j → %j', (topic, alsoDrop, terms) => {
    expect(analyzeQuery(topic, { alsoDrop }).terms).toEqual(terms);
  });
});
