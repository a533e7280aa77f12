import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentInput, writePackage } from './index.js';
import { PackageReader } from './package-reader.js';
import { ReaderCaches } from './reader-caches.js';

// The caches readers keep across searches (chunk fields, phrase lists) and the numbers that tell readers apart in
// them, on real package files.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-caches-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A package of `sections` sections about timers, each titled for its package and number. */
function documents(name: string, sections: number): DocumentInput[] {
  return [
    {
      path: `${name}.md`,
      title: name,
      content: name,
      chunks: Array.from({ length: sections }, (_, i) => ({
        breadcrumb: [`${name} ${i}`],
        level: 1,
        content: `timers section ${i} of ${name}`,
        tokens: 5,
      })),
    },
  ];
}

async function packageFile(name: string, sections = 6): Promise<string> {
  const file = path.join(dir, `${name}@1.0.0.db`);
  await writePackage(file, { name, version: '1.0.0' }, documents(name, sections));
  return file;
}

function reader(file: string, caches: ReaderCaches): PackageReader {
  const open = () => new Database(file, { readonly: true, fileMustExist: true });
  return new PackageReader(open(), file, path.basename(file), open, caches);
}

const timers = { terms: ['timers'], mode: 'any' } as const;

describe('ReaderCaches', () => {
  it('keeps at most the chunks and bytes it is given, and its readers answer as uncached ones do', async () => {
    const file = await packageFile('alpha', 12);
    const small = new ReaderCaches({ chunkFields: 3, phraseListBytes: 0 });
    const none = new ReaderCaches({ chunkFields: 0, phraseListBytes: 0 });
    const kept = reader(file, small);
    const uncached = reader(file, none);
    try {
      for (let round = 0; round < 3; round++) {
        const hits = await kept.search(timers, { limit: 10 });
        expect(hits).toHaveLength(10);
        expect(hits).toEqual(await uncached.search(timers, { limit: 10 }));
        expect(small.chunkFields.size).toBeLessThanOrEqual(3);
        expect(small.phraseLists.bytes).toBe(0);
      }
      expect(none.chunkFields.size).toBe(0);
    } finally {
      await kept.close();
      await uncached.close();
    }
  });

  it('keeps a chunk read again lately, and a scan of more chunks than it holds, each read once a round, displaces none', async () => {
    const caches = new ReaderCaches({ chunkFields: 4, phraseListBytes: 0 });
    const alpha = reader(await packageFile('alpha', 12), caches);
    const betaFile = await packageFile('beta', 30);
    const beta = reader(betaFile, caches);
    const uncached = reader(betaFile, new ReaderCaches({ chunkFields: 0, phraseListBytes: 0 }));
    try {
      // Read once: not kept. Read again while it is among the last chunks read: kept.
      await alpha.search(timers, { limit: 3 });
      expect(caches.chunkFields.size).toBe(0);
      await alpha.search(timers, { limit: 3 });
      expect(caches.chunkFields.size).toBe(3);
      // 30 chunks a round, more than the cache holds and than it remembers: none is kept, none kept is let go.
      for (let round = 0; round < 3; round++) {
        expect(await beta.search(timers, { limit: 30 })).toEqual(await uncached.search(timers, { limit: 30 }));
        expect(caches.chunkFields.size).toBe(3);
      }
      // Two of beta's read twice in a row are kept, the oldest of alpha's let go to make room for the second.
      await beta.search(timers, { limit: 2 });
      await beta.search(timers, { limit: 2 });
      expect(caches.chunkFields.size).toBe(4);
    } finally {
      await alpha.close();
      await beta.close();
      await uncached.close();
    }
  });

  it('refuses a size that is not a whole number ≥ 0', () => {
    expect(() => new ReaderCaches({ chunkFields: -1 })).toThrow(RangeError);
    expect(() => new ReaderCaches({ phraseListBytes: 1.5 })).toThrow(RangeError);
  });

  it('when reader numbers run out, a reader still open takes a new one and never reads another package’s fields', async () => {
    const alpha = await packageFile('alpha');
    const beta = await packageFile('beta');
    // Two numbers a generation: the third reader begins a new one, with the number the first reader had.
    const caches = new ReaderCaches({}, 2);
    const first = reader(alpha, caches);
    const second = reader(beta, caches);
    const third = reader(beta, caches);
    try {
      const alphaHits = await first.search(timers, { limit: 3 });
      expect(alphaHits.map((h) => h.title)).toEqual(['alpha', 'alpha', 'alpha']);
      // The same chunk ids in another package: its own fields, not those the first reader kept under its number.
      expect((await third.search(timers, { limit: 3 })).map((h) => h.title)).toEqual(['beta', 'beta', 'beta']);
      expect(await first.search(timers, { limit: 3 })).toEqual(alphaHits);
      expect((await second.chunkHits([1, 2])).map((h) => h.title)).toEqual(['beta', 'beta']);
      expect((await first.chunkHits([1, 2])).map((h) => h.title)).toEqual(['alpha', 'alpha']);
    } finally {
      await Promise.all([first.close(), second.close(), third.close()]);
    }
  });
});
