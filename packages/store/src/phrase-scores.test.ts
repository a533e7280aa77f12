import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentInput, matchExpression, PackageStore, type Term, writePackage } from './index.js';
import { PhraseCache, type PhraseRows, topRows } from './phrase-scores.js';

// A package search adds up phrase lists instead of asking FTS5 to score the OR of the phrases (phrase-scores.ts).
// These tests hold it to FTS5 itself: the same rows, in the same order, with the same scores to the bit.

const words = ['timer', 'mock', 'cors', 'route', 'query', 'cache', 'fetch', 'error', 'vi', 'app'];

/** Documents whose chunks draw words from a small vocabulary, so words repeat and scores tie. */
const documentsArbitrary = fc.array(
  fc.record({
    title: fc.constantFrom(...words),
    chunks: fc.array(
      fc.record({
        heading: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
        body: fc.array(fc.constantFrom(...words, 'vi.mock', 'the', 'a'), { minLength: 0, maxLength: 12 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  }),
  { minLength: 1, maxLength: 12 },
);

interface DrawnDocument {
  readonly title: string;
  readonly chunks: ReadonlyArray<{ readonly heading: readonly string[]; readonly body: readonly string[] }>;
}

function documentsOf(drawn: readonly DrawnDocument[]): DocumentInput[] {
  return drawn.map((d, i) => ({
    path: `page-${i}.md`,
    title: d.title,
    content: d.chunks.map((c) => c.body.join(' ')).join('\n\n'),
    chunks: d.chunks.map((c) => ({
      breadcrumb: [d.title, c.heading.join(' ')],
      level: 2,
      content: c.body.join(' '),
      tokens: c.body.length + 1,
    })),
  }));
}

/** Terms as the search asks them: words, phrases, and alternatives any of which will do, repeats included. */
const termsArbitrary = fc.array(
  fc.oneof(
    fc.constantFrom(...words, 'absent', 'vi.mock', 'mock timer', '...', '"'),
    fc.array(fc.constantFrom(...words, 'vi.mock', 'absent'), { minLength: 1, maxLength: 3 }),
  ),
  { minLength: 1, maxLength: 6 },
);

const weightsArbitrary = fc.constantFrom(
  undefined,
  { title: 1, headings: 1, heading: 1, body: 1 },
  { title: 10, headings: 3, heading: 5, body: 1 },
  { title: 2.5, headings: 0.5, heading: 1.5, body: 0.75 },
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-phrases-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What FTS5 answers for the OR of the terms: the query search() made before phrase lists. */
function fts5Reference(
  file: string,
  terms: readonly Term[],
  limit: number,
  w: { title?: number; headings?: number; heading?: number; body?: number } = {},
): Array<[number, number]> {
  const expression = matchExpression({ terms, mode: 'any' });
  if (expression === undefined) return [];
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT rowid, -bm25(chunks_fts, ?, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`,
      )
      .raw()
      .all(w.title ?? 1, w.headings ?? 1, w.heading ?? 1, w.body ?? 1, expression, limit) as Array<[number, number]>;
    return rows;
  } finally {
    db.close();
  }
}

describe('search from phrase lists', () => {
  it('finds the rows FTS5 finds for the OR of the phrases, in its order, with its scores to the bit', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        documentsArbitrary,
        fc.array(fc.tuple(termsArbitrary, fc.integer({ min: 1, max: 30 }), weightsArbitrary), {
          minLength: 1,
          maxLength: 8,
        }),
        async (drawn, queries) => {
          const home = path.join(dir, `home-${run}`);
          const file = path.join(dir, `lib-${run++}.db`);
          await writePackage(file, { name: 'lib', version: '1.0.0' }, documentsOf(drawn));
          const store = new PackageStore(home);
          try {
            const { installed } = await store.install(file);
            const reader = store.reader(installed);
            // Each query three times: FTS5 answers the first, the second makes the phrases' lists, the third
            // answers from the lists kept.
            for (const [terms, limit, weights] of [...queries, ...queries, ...queries]) {
              const hits = await reader.search({ terms, mode: 'any' }, { limit, ...(weights ? { weights } : {}) });
              const expected = fts5Reference(installed.file, terms, limit, weights);
              expect(hits.map((h) => [h.id, h.score])).toEqual(expected);
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('scores the chunks asked about (searchAmong) as FTS5 scores them, from the lists too', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        documentsArbitrary,
        fc.array(fc.tuple(termsArbitrary, fc.uniqueArray(fc.integer({ min: 1, max: 80 }), { maxLength: 12 })), {
          minLength: 1,
          maxLength: 6,
        }),
        weightsArbitrary,
        async (drawn, queries, weights) => {
          const home = path.join(dir, `among-home-${run}`);
          const file = path.join(dir, `among-${run++}.db`);
          await writePackage(file, { name: 'lib', version: '1.0.0' }, documentsOf(drawn));
          const store = new PackageStore(home);
          try {
            const { installed } = await store.install(file);
            const reader = store.reader(installed);
            // Three times each: FTS5 answers the first, the second makes the phrases' lists, the third reads them.
            for (const [terms, ids] of [...queries, ...queries, ...queries]) {
              const among = await reader.searchAmong({ terms, mode: 'any' }, ids, weights ? { weights } : {});
              const wanted = new Set(ids);
              const expected = fts5Reference(installed.file, terms, 1_000, weights).filter(([id]) => wanted.has(id));
              expect(among.map((h) => [h.id, h.score])).toEqual(expected);
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts each term where FTS5 does, and says which asked chunks hold it', async () => {
    await fc.assert(
      fc.asyncProperty(documentsArbitrary, termsArbitrary, async (drawn, terms) => {
        const file = path.join(dir, 'stats.db');
        await rm(file, { force: true });
        await writePackage(file, { name: 'lib', version: '1.0.0' }, documentsOf(drawn));
        const store = new PackageStore(path.join(dir, 'stats-home'));
        try {
          const { installed } = await store.install(file);
          const reader = store.reader(installed);
          const db = new Database(installed.file, { readonly: true });
          const ids = (db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[]).filter(
            (id) => id % 2 === 1,
          );
          const rowsOf = (term: Term) => {
            const expression = matchExpression({ terms: [term], mode: 'any' });
            return expression === undefined
              ? []
              : (db
                  .prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?')
                  .pluck()
                  .all(expression) as number[]);
          };
          const lists = terms.map(rowsOf);
          db.close();
          const expected = new Map<number, number[]>();
          for (const id of ids) {
            const held = lists.flatMap((l, t) => (l.includes(id) ? [t] : []));
            if (held.length > 0) expected.set(id, held);
          }
          // Asked of FTS5 first; then, once searching twice has made the phrases' lists, from those.
          for (const listed of [false, true]) {
            if (listed) for (let i = 0; i < 2; i++) await reader.search({ terms, mode: 'any' }, { limit: 5 });
            const stats = await reader.termStatistics(terms, ids);
            expect(stats.frequencies).toEqual(lists.map((l) => l.length));
            expect(new Map([...stats.matches].sort((a, b) => a[0] - b[0]))).toEqual(expected);
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('topRows', () => {
  const list = (rows: number[], shares: number[]) => ({
    rows: Float64Array.from(rows),
    shares: Float64Array.from(shares),
  });

  it('adds each row over the lists and keeps the best, ties by row', () => {
    const lists = [list([1, 2, 3, 5], [1, 2, 0.5, 1]), list([2, 3, 4], [1, 0.5, 2])];
    expect(topRows(lists, 10)).toEqual([
      [2, 3],
      [4, 2],
      [1, 1],
      [3, 1],
      [5, 1],
    ]);
    expect(topRows(lists, 3)).toEqual([
      [2, 3],
      [4, 2],
      [1, 1],
    ]);
    expect(topRows(lists, 0)).toEqual([]);
    expect(topRows([], 5)).toEqual([]);
  });

  it('equals sorting every sum, for any lists and limit', () => {
    const listArbitrary = fc
      // Small rows are added up in an array, large or negative ones (SQLite allows them) in a map.
      .uniqueArray(
        fc.tuple(
          fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: -3, max: 2 ** 18 + 3 })),
          fc.constantFrom(0, 0.5, 1, 1.25, 2, 3),
        ),
        {
          selector: ([row]) => row,
          maxLength: 25,
        },
      )
      .map((pairs) => pairs.sort((a, b) => a[0] - b[0]));
    fc.assert(
      fc.property(fc.array(listArbitrary, { maxLength: 5 }), fc.integer({ min: 0, max: 50 }), (drawn, limit) => {
        const sums = new Map<number, number>();
        for (const pairs of drawn) for (const [row, share] of pairs) sums.set(row, (sums.get(row) ?? 0) + share);
        const expected = [...sums].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
        const lists = drawn.map((pairs) =>
          list(
            pairs.map(([r]) => r),
            pairs.map(([, s]) => s),
          ),
        );
        expect(topRows(lists, limit)).toEqual(expected);
      }),
    );
  });
});

describe('PhraseCache', () => {
  const entry = (rows: number): PhraseRows => ({
    rows: new Float64Array(rows),
    shares: new Map([['1,1,1,1', new Float64Array(rows)]]),
  });

  it('keeps at most its budget of bytes, letting the least recently used go first', () => {
    const cache = new PhraseCache(16 * 100); // 100 rows of one weighting
    cache.put('a', entry(10));
    cache.put('b', entry(10));
    cache.put('c', entry(10));
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    for (const key of ['d', 'e', 'f', 'g', 'h', 'i', 'j']) cache.put(key, entry(10));
    expect(cache.size).toBe(16 * 100);
    cache.put('k', entry(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(16 * 100);
  });

  it('has room while a list of an eighth of its budget fits', () => {
    const cache = new PhraseCache(16 * 80);
    expect(cache.hasRoom()).toBe(true);
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) cache.put(key, entry(10));
    expect(cache.hasRoom()).toBe(true);
    cache.put('h', entry(1));
    expect(cache.hasRoom()).toBe(false);
    cache.drop('h');
    expect(cache.hasRoom()).toBe(true);
  });

  it('does not keep a list bigger than an eighth of its budget, and drops a reader by prefix', () => {
    const cache = new PhraseCache(16 * 80);
    cache.put('0\0big', entry(11));
    expect(cache.get('0\0big')).toBeUndefined();
    cache.put('0\0a', entry(5));
    cache.put('1\0a', entry(5));
    cache.drop('0\0');
    expect(cache.get('0\0a')).toBeUndefined();
    expect(cache.get('1\0a')).toBeDefined();
    expect(cache.size).toBe(16 * 5);
  });
});
