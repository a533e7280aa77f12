import { statSync, truncateSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classify } from '@docs/errors';
import { type DocumentInput, PackageStore, StoreError, writePackage } from '@docs/store';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { analyzeQuery, getDocs, readDoc, SearchOptionError, searchAll } from './index.js';

let dir: string;
let store: PackageStore;

const page = (framework: string): DocumentInput => ({
  path: 'middleware/cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [
    {
      breadcrumb: ['CORS'],
      level: 1,
      content: `Enable CORS in ${framework} with the cors middleware.`,
      tokens: 12,
    },
    { breadcrumb: ['CORS', 'Options'], level: 2, content: 'Set allowed origins for CORS.', tokens: 7 },
  ],
});

async function install(name: string): Promise<string> {
  const file = path.join(dir, `${name}.db`);
  await writePackage(file, { name, version: '1.0.0' }, [page(name)]);
  return (await store.install(file, { move: true })).installed.file;
}

/** Breaks an installed package's rows, as a disk error or a hand edit after install would. */
function damage(file: string, statement: string, shadowTables = false): void {
  const db = new Database(file);
  // Off SQLite's defensive mode, as the sqlite3 shell is: the index's own tables can be written.
  db.unsafeMode(shadowTables);
  db.exec(statement);
  db.close();
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-damaged-'));
  store = new PackageStore(path.join(dir, 'store'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a package damaged after it was installed', () => {
  test.each([
    ['breadcrumb not JSON', "UPDATE chunks SET breadcrumb = 'not json {'", /breadcrumb is not a JSON array/],
    ['negative inbound links', 'UPDATE documents SET inbound_links = -2', /inbound_links is -2/],
    ['negative tokens', 'UPDATE chunks SET tokens = -5', /tokens is -5/],
    ['heading level 9', 'UPDATE chunks SET level = 9', /level is 9/],
  ])('%s: searchAll leaves it out with a warning naming it; the others answer', async (_case, statement, reason) => {
    await install('express');
    const broken = await install('hono');
    await install('koa');
    damage(broken, statement);
    const answer = await searchAll(store, 'enable cors');
    expect(answer.status).toBe('ok');
    expect(answer.searched).toEqual(['express@1.0.0', 'koa@1.0.0']);
    expect(new Set(answer.results.map((r) => r.library))).toEqual(new Set(['express@1.0.0', 'koa@1.0.0']));
    expect(answer.warnings).toHaveLength(1);
    expect(answer.warnings?.[0]).toMatch(/^Left out hono@1\.0\.0: hono@1\.0\.0 is damaged/);
    expect(answer.warnings?.[0]).toMatch(reason);
    expect(answer.warnings?.[0]).toMatch(/rebuild it: docs remove hono@1\.0\.0/);
  });

  it('getDocs on it says the package is damaged and how to rebuild it, as a StoreError', async () => {
    const broken = await install('hono');
    damage(broken, 'UPDATE chunks SET tokens = -5');
    const error = await getDocs(store, 'hono', 'enable cors').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'damaged-package' });
    expect((error as Error).message).toMatch(/hono@1\.0\.0 is damaged \(chunk \d+: tokens is -5\); rebuild it/);
  });

  // What SQLite itself fails on: no row check sees these, the reader names the package from SQLite's error.
  test.each([
    [
      'a search index size block overwritten (FTS5 integrity-check passes)',
      (file: string) => damage(file, "UPDATE chunks_fts_docsize SET sz = X'ff'", true),
      /database disk image is malformed/,
    ],
    [
      'tokens of 2^63 - 1',
      (file: string) => damage(file, 'UPDATE chunks SET tokens = 9223372036854775807'),
      /tokens is|integer overflow/,
    ],
    ['the file cut short', (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2)), /malformed/],
    ['the file cut to nothing', (file: string) => truncateSync(file, 0), /not a documentation package/],
  ])(
    '%s: searchAll leaves it out with a note; getDocs on another library answers; getDocs on it names it and what to do',
    async (_case, harm, reason) => {
      await install('express');
      const broken = await install('hono');
      await install('koa');
      harm(broken);
      const answer = await searchAll(store, 'enable cors');
      expect(answer.status).toBe('ok');
      expect(answer.searched).toEqual(['express@1.0.0', 'koa@1.0.0']);
      expect(answer.warnings).toEqual([expect.stringMatching(/^Left out hono@1\.0\.0: hono@1\.0\.0 is damaged/)]);
      expect(answer.warnings?.[0]).toMatch(reason);
      expect((await getDocs(store, 'koa', 'enable cors')).status).toBe('ok');
      const error = await getDocs(store, 'hono', 'enable cors').catch((e: unknown) => e);
      expect(classify(error)).toMatchObject({ blame: 'user', code: 'damaged-package' });
      expect((error as Error).message).toMatch(/^hono@1\.0\.0 is damaged \(.*\); rebuild it: docs remove hono@1\.0\.0/);
    },
  );

  it('searchAll over nothing but damaged packages gives the reason, not an empty answer', async () => {
    damage(await install('hono'), "UPDATE chunks SET breadcrumb = '{'");
    await expect(searchAll(store, 'cors')).rejects.toMatchObject({ code: 'damaged-package' });
  });
});

describe('option errors are the only "invalid arguments"', () => {
  it('bad options throw SearchOptionError; ranking errors from data do not pass as one', async () => {
    await install('hono');
    await expect(getDocs(store, 'hono', 'cors', { limit: 0 })).rejects.toBeInstanceOf(SearchOptionError);
    await expect(readDoc(store, 'hono', 'middleware/cors.md', { tokens: -1 })).rejects.toBeInstanceOf(
      SearchOptionError,
    );
  });

  it.each([
    ['alternativeWeight', { ranking: { alternativeWeight: 1.5 } }],
    ['fusionRest', { ranking: { fusionRest: -0.1 } }],
    ['weakBelow', { ranking: { weakBelow: Number.NaN } }],
    ['idfExponent', { ranking: { idfExponent: Number.POSITIVE_INFINITY } }],
    ['drop', { ranking: { drop: 2 } }],
    ['limit', { limit: 0 }],
    ['vectorWeight', { ranking: { vectorWeight: -1 } }],
  ] as const)("a bad %s throws SearchOptionError, the caller's to fix, naming the option", async (name, options) => {
    await install('hono');
    const error = await searchAll(store, 'cors', options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchOptionError);
    expect(classify(error)).toMatchObject({ blame: 'caller', code: 'invalid-argument' });
    expect((error as Error).message).toContain(name);
  });
});

describe('query caps', () => {
  it('cut a long topic at a word boundary and keep at most maxTerms words, saying so', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`);
    const analyzed = analyzeQuery(words.join(' '), { maxChars: 60, maxTerms: 5 });
    expect(analyzed.terms).toEqual(['word0', 'word1', 'word2', 'word3', 'word4']);
    expect(analyzed.cut?.chars).toBeGreaterThan(0);
    expect(analyzed.cut?.terms).toBeGreaterThan(0);
    expect(analyzeQuery('short topic', { maxChars: 60, maxTerms: 5 }).cut).toBeUndefined();
  });

  it('the answer says the cap when a topic is cut', async () => {
    await install('hono');
    const topic = `enable cors ${Array.from({ length: 5000 }, (_, i) => `filler${i}`).join(' ')}`;
    const answer = await searchAll(store, topic);
    expect(answer.status).toBe('ok');
    expect(answer.query.terms.length).toBe(32);
    expect(answer.warnings).toEqual([
      expect.stringMatching(/^The topic was cut to its first 1000 characters \(the cap; \d+ more were left out\)\.$/),
      expect.stringMatching(/^Searched the first 32 words only \(the cap; \d+ more were left out\)\.$/),
    ]);
    expect(answer.message.length).toBeLessThan(400);
    const narrow = await getDocs(store, 'hono', 'enable cors origins', { ranking: { maxTerms: 2 } });
    expect(narrow.query.terms).toEqual(['enable', 'cors']);
    expect(narrow.warnings).toEqual([expect.stringMatching(/first 2 words only/)]);
  });
});
