import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentInput, PackageStore, writePackage } from './index.js';
import { indexHeadings } from './index-text.js';

// An API section is headed by the name it documents; the words inside that name are indexed with its own heading, by a
// build and again at the install of a package built elsewhere.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-headings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const docs: DocumentInput[] = [
  {
    path: 'api/Context.md',
    title: 'github.com/gin-gonic/gin API',
    content: '# github.com/gin-gonic/gin API',
    chunks: [
      {
        breadcrumb: ['github.com/gin-gonic/gin API', 'Context', 'Context.ShouldBindJSON'],
        level: 3,
        // The text names no "bind": only the heading does, inside the identifier.
        content: 'A shortcut for the JSON engine.',
        tokens: 12,
      },
      {
        breadcrumb: ['github.com/gin-gonic/gin API', 'Context', 'Context.Query'],
        level: 3,
        content: 'Query returns the keyed url query value.',
        tokens: 8,
      },
    ],
  },
];

/** The rows whose `column` holds the phrase, straight from a package file's index. */
function rowsMatching(file: string, column: 'heading' | 'headings', phrase: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string], { rowid: number }>('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid')
      .all(`${column}: "${phrase}"`)
      .map((row) => row.rowid);
  } finally {
    db.close();
  }
}

describe('the words inside a heading identifier are indexed with the heading', () => {
  it('indexHeadings adds the words of each identifier to the own heading, not to the trail', () => {
    const { headings, heading } = indexHeadings(['gin API', 'Context', 'Context.ShouldBindJSON']);
    expect(heading).toBe('Context.ShouldBindJSON\nShould Bind JSON');
    // The trail stays as written: the heading boost mirrors it with indexTokens (index-tokens.test.ts).
    expect(headings).toBe('gin API Context Context.ShouldBindJSON');
    // A heading of plain words is indexed as it is.
    expect(indexHeadings(['Guide', 'Getting started'])).toEqual({
      headings: 'Guide Getting started',
      heading: 'Getting started',
    });
    expect(indexHeadings([])).toEqual({ headings: '', heading: '' });
  });

  it('a build indexes them in the heading column', async () => {
    const file = path.join(dir, 'gin.db');
    await writePackage(file, { name: 'gin', version: '1.10.0' }, docs);
    expect(rowsMatching(file, 'heading', 'bind json')).toEqual([1]);
    expect(rowsMatching(file, 'headings', 'should bind')).toEqual([]);
    // The identifier stays one token too: asking for the name finds it.
    expect(rowsMatching(file, 'heading', 'shouldbindjson')).toEqual([1]);
    expect(rowsMatching(file, 'heading', 'query')).toEqual([2]);
  });

  it('an install of a package built elsewhere indexes them again as a build does', async () => {
    const file = path.join(dir, 'gin-elsewhere.db');
    await writePackage(file, { name: 'gin', version: '1.10.0' }, docs);
    // Built elsewhere without them: the installed index is made from the sections, not from this one.
    const raw = new Database(file);
    raw.exec(`INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')`);
    raw.close();
    const store = new PackageStore(path.join(dir, 'store'));
    try {
      const { installed } = await store.install(file);
      const reader = await store.reader(installed);
      const hits = await reader.search({ mode: 'all', terms: ['bind'] }, { limit: 10 });
      expect(hits.map((h) => h.breadcrumb.at(-1))).toEqual(['Context.ShouldBindJSON']);
    } finally {
      await store.close();
    }
  });
});

describe('the chunks holding a word in one column, and a search among some chunks', () => {
  it('chunksHolding finds the own headings holding the word, not the body nor the trail, at most `limit`', async () => {
    const file = path.join(dir, 'gin-holding.db');
    await writePackage(file, { name: 'gin', version: '1.10.0' }, docs);
    const store = new PackageStore(path.join(dir, 'store'));
    try {
      const { installed } = await store.install(file);
      const reader = store.reader(installed);
      const own = (hits: readonly { breadcrumb: readonly string[] }[]) => hits.map((h) => h.breadcrumb.at(-1));
      expect(own(await reader.chunksHolding('query', { column: 'heading', limit: 10 }))).toEqual(['Context.Query']);
      // Inside an identifier of the heading too (`ShouldBindJSON` holds `bind`).
      expect(own(await reader.chunksHolding('bind', { column: 'heading', limit: 10 }))).toEqual([
        'Context.ShouldBindJSON',
      ]);
      // `engine` is in a body only; `api` in the trails only; `context` in both own headings (`Context.Query`).
      expect(await reader.chunksHolding('engine', { column: 'heading', limit: 10 })).toEqual([]);
      expect(await reader.chunksHolding('api', { column: 'heading', limit: 10 })).toEqual([]);
      expect(await reader.chunksHolding('context', { column: 'heading', limit: 10 })).toHaveLength(2);
      expect(await reader.chunksHolding('context', { column: 'heading', limit: 1 })).toHaveLength(1);
      expect(await reader.chunksHolding('api', { column: 'headings', limit: 10 })).toHaveLength(2);
      expect(await reader.chunksHolding('', { column: 'heading', limit: 10 })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('searchAmong scores the chunks asked about as search does, and leaves out those not matching', async () => {
    const file = path.join(dir, 'gin-among.db');
    await writePackage(file, { name: 'gin', version: '1.10.0' }, docs);
    const store = new PackageStore(path.join(dir, 'store'));
    try {
      const { installed } = await store.install(file);
      const reader = store.reader(installed);
      const query = { terms: ['json', 'query'], mode: 'any' } as const;
      const all = await reader.search(query, { limit: 10 });
      expect(all).toHaveLength(2);
      const among = await reader.searchAmong(query, [...all.map((h) => h.id)].reverse());
      expect(among.map((h) => [h.id, h.score])).toEqual(all.map((h) => [h.id, h.score]));
      // Only what matches: `engine` is in the first chunk alone; an unknown id is absent.
      const engine = await reader.searchAmong({ terms: ['engine'], mode: 'any' }, [1, 2, 99]);
      expect(engine.map((h) => h.breadcrumb.at(-1))).toEqual(['Context.ShouldBindJSON']);
      expect(engine[0]?.score).toBeGreaterThan(0);
      expect(await reader.searchAmong(query, [])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
