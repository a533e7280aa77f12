import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { type DocumentInput, type PackageReader, PackageStore, writePackage } from './index.js';

// A package built elsewhere is data: its search index, token counts and link counts are made again at install from
// its rows, so what its own derived data says cannot break a search or steer one.

let dir: string;
let store: PackageStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-derived-'));
  store = new PackageStore(path.join(dir, 'store'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const docs: DocumentInput[] = [
  {
    path: 'guide/timers.md',
    title: 'Timers',
    content: '# Timers',
    chunks: [
      { breadcrumb: ['Timers'], level: 1, content: 'Use vi.useFakeTimers to mock timers.', tokens: 8 },
      {
        breadcrumb: ['Timers', 'Advance'],
        level: 2,
        content: 'Advance time with [the clock](https://clock.example/tick).',
        tokens: 9,
        // What a hostile builder indexes besides the text: words the section does not hold.
        indexText: 'Advance time with the clock. casino jackpot',
      },
    ],
    links: ['guide/cors.md'],
  },
  {
    path: 'guide/cors.md',
    title: 'CORS',
    content: '# CORS',
    chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 7 }],
  },
];

/** A package file built "elsewhere", changed by `statements` as the sqlite3 shell would. */
async function received(...statements: string[]): Promise<string> {
  const file = path.join(dir, `httpx-${Math.random().toString(36).slice(2)}.db`);
  await writePackage(file, { name: 'httpx', version: '0.28.1' }, docs);
  const db = new Database(file);
  db.unsafeMode(true);
  for (const statement of statements) db.exec(statement);
  db.close();
  return file;
}

async function installed(file: string): Promise<PackageReader> {
  const { installed } = await store.install(file);
  return store.reader(installed);
}

const ids = async (reader: PackageReader, ...terms: string[]) =>
  (await reader.search({ mode: 'all', terms }, { limit: 10 })).map((h) => h.id).sort();

describe('at install, a package built elsewhere has its derived data made here', () => {
  it('a corrupted index size block that passes FTS5 integrity-check no longer breaks search', async () => {
    const file = await received("UPDATE chunks_fts_docsize SET sz = X'ff'");
    // As the file is, FTS5's own check passes and every ranked query fails.
    const raw = new Database(file);
    expect(() =>
      raw.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 0)").run(),
    ).not.toThrow();
    expect(() => raw.prepare("SELECT bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH 'cors'").all()).toThrow(
      /malformed/,
    );
    raw.close();
    const reader = await installed(file);
    expect(await ids(reader, 'cors')).toEqual([3]);
    expect(await ids(reader, 'timers')).toEqual([1, 2]);
  });

  test.each([
    ['overwritten data blocks', "UPDATE chunks_fts_data SET block = X'0000000000' WHERE id > 10"],
    [
      'a chunk missing from the index',
      "INSERT INTO chunks VALUES (4, 2, 1, '[\"CORS\"]', 1, 'Preflight cors requests.', 3)",
    ],
    ['an index row with no chunk', 'DELETE FROM chunks WHERE id = 1'],
  ])('%s: the index is made again from the sections', async (_case, statement) => {
    const reader = await installed(await received(statement));
    const sections = (await reader.stats()).chunks;
    const cors = await ids(reader, 'cors');
    expect(cors).toEqual(sections === 4 ? [3, 4] : [3]);
  });

  it('indexes what the sections hold, not what the package indexed: no words of its own, no link URLs', async () => {
    const reader = await installed(await received());
    expect(await ids(reader, 'casino')).toEqual([]);
    expect(await ids(reader, 'example')).toEqual([]);
    expect(await ids(reader, 'clock')).toEqual([2]);
    // The words inside identifiers are indexed as a build indexes them.
    expect(await ids(reader, 'fake', 'timers')).toEqual([1]);
  });

  it('a token count of 2^63 - 1 is counted again from the text: list and stats answer', async () => {
    const reader = await installed(await received('UPDATE chunks SET tokens = 9223372036854775807 WHERE id = 1'));
    const stats = await reader.stats();
    expect(stats.tokens).toBeGreaterThan(10);
    expect(stats.tokens).toBeLessThan(60);
    const [hit] = await reader.search({ mode: 'all', terms: ['fake'] }, { limit: 1 });
    expect(hit?.tokens).toBeGreaterThan(3);
    expect(hit?.tokens).toBeLessThan(20);
  });

  it('inbound link counts are bounded by the other documents', async () => {
    const reader = await installed(await received('UPDATE documents SET inbound_links = 4000000000'));
    const hits = await reader.search({ mode: 'any', terms: ['cors', 'timers'] }, { limit: 10 });
    expect(hits.map((h) => h.inboundLinks)).toEqual(hits.map(() => 1));
  });

  it('a package this process built and installs as it is keeps its own index', async () => {
    await mkdir(store.dir, { recursive: true });
    const file = store.partialPath({ name: 'httpx', version: '0.28.1' });
    await writePackage(file, { name: 'httpx', version: '0.28.1' }, docs);
    const { installed } = await store.install(file, { move: true });
    expect(await ids(store.reader(installed), 'casino')).toEqual([2]);
  });
});
