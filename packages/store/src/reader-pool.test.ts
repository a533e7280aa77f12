import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentInput, type InstalledPackage, PackageStore, packageFileName, writePackage } from './index.js';
import { ReaderCaches } from './reader-caches.js';
import { ReaderPool } from './reader-pool.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-reader-pool-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const docs: DocumentInput[] = [
  {
    path: 'guide/cors.md',
    title: 'CORS',
    content: '# CORS',
    chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 7 }],
  },
];

async function build(name: string, version: string, documents: DocumentInput[] = docs): Promise<string> {
  const file = path.join(dir, `build-${name.replace('/', '_')}-${version}.db`);
  await writePackage(file, { name, version, description: `${name} docs` }, documents);
  return file;
}

/** Package files `name@1.0.0` in a folder of their own, as a store holds them, without a store. */
async function packageFiles(...names: string[]): Promise<InstalledPackage[]> {
  const home = path.join(dir, 'files');
  await mkdir(home, { recursive: true });
  const file = await build('lib', '1.0.0');
  return Promise.all(
    names.map(async (name) => {
      const into = path.join(home, packageFileName({ name, version: '1.0.0' }));
      await copyFile(file, into);
      return { name, version: '1.0.0', file: into, bytes: 1, mtimeMs: 1 };
    }),
  );
}

const small = () => new ReaderCaches({ chunkFields: 16, phraseListBytes: 1 << 16 });

describe('ReaderPool', () => {
  const cors = { terms: ['cors'], mode: 'all' } as const;

  it('hands out one reader per file as it is, and a new one for the file as it is now', async () => {
    const [one, two] = await packageFiles('one', 'two');
    if (!one || !two) throw new Error('expected two packages');
    const pool = new ReaderPool({ maxOpen: 8, caches: small() });
    const reader = pool.reader(one);
    expect(pool.reader(one)).toBe(reader);
    expect(pool.reader(two)).not.toBe(reader);
    // The same file seen with another size or time (replaced since): a reader of its own; the old one retires.
    const replaced = pool.reader({ ...one, mtimeMs: 2 });
    expect(replaced).not.toBe(reader);
    expect(await reader.search(cors, { limit: 5 })).toHaveLength(1);
    await pool.close();
    await expect(reader.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
    await expect(replaced.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
  });

  it('closes every reader of a file, retired ones too, when the file is to go', async () => {
    const [one, two] = await packageFiles('one', 'two');
    if (!one || !two) throw new Error('expected two packages');
    const pool = new ReaderPool({ maxOpen: 8, caches: small() });
    const old = pool.reader(one);
    const current = pool.reader({ ...one, bytes: 2 });
    const other = pool.reader(two);
    await pool.closeFile(one.file);
    await expect(old.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
    await expect(current.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
    expect(await other.search(cors, { limit: 5 })).toHaveLength(1);
    // Asked again, the file gets a reader anew.
    expect(await pool.reader(one).search(cors, { limit: 5 })).toHaveLength(1);
    await pool.close();
  });

  it('names a package that cannot be opened', async () => {
    const pool = new ReaderPool({ maxOpen: 8, caches: small() });
    const missing = { name: 'gone', version: '1.0.0', file: path.join(dir, 'gone@1.0.0.db'), bytes: 1, mtimeMs: 1 };
    expect(() => pool.reader(missing)).toThrow(expect.objectContaining({ code: 'gone' }));
    await pool.close();
  });
});

describe('readers the cache lets go of', () => {
  const cors = { terms: ['cors'], mode: 'all' } as const;
  const nothing: DocumentInput[] = [
    { path: 'a.md', title: 'A', content: 'x', chunks: [{ breadcrumb: [], level: 0, content: 'nothing', tokens: 1 }] },
  ];

  /** A store of packages `one` and `two` that keeps one connection open, and a reader of either. */
  async function oneConnection() {
    const store = new PackageStore(path.join(dir, 'home'), { maxOpenPackages: 1 });
    await store.install(await build('one', '1.0.0'));
    await store.install(await build('two', '1.0.0'));
    const all = await store.list();
    const open = (name: string) => store.reader(all.find((p) => p.name === name) as (typeof all)[number]);
    return { store, open };
  }

  /**
   * A store keeping one connection open, holding `lib@1.0.0`, and a second store over the same folder standing
   * for another process that replaces the file; `current()` is lib as the first store resolves it now.
   */
  async function replacedElsewhere() {
    const home = path.join(dir, 'home');
    const store = new PackageStore(home, { maxOpenPackages: 1 });
    const other = new PackageStore(home);
    await store.install(await build('lib', '1.0.0'));
    const current = async () => (await store.resolve('lib@1.0.0')) as { ok: true; value: InstalledPackage };
    return { store, other, current };
  }

  it('keeps a reader of each of a hundred packages: a search over them all opens each once, not on every search', async () => {
    // Once the store kept 64: going through more, it closed each just before it was next asked for.
    const store = new PackageStore(path.join(dir, 'home'));
    const file = await build('lib', '1.0.0');
    await mkdir(store.dir, { recursive: true });
    for (let i = 0; i < 100; i++)
      await copyFile(file, path.join(store.dir, packageFileName({ name: `lib${i}`, version: '1.0.0' })));
    const all = await store.list();
    expect(all).toHaveLength(100);
    const first = all.map((p) => store.reader(p));
    for (const reader of first) expect(await reader.search(cors, { limit: 5 })).toHaveLength(1);
    const again = all.map((p) => store.reader(p));
    expect(again.every((reader, i) => reader === first[i])).toBe(true);
    await store.close();
  });

  it.skipIf(process.platform === 'win32')(
    'with fewer file handles than packages, closes some of its connections and answers from every package',
    async () => {
      // The process may open 48 files (Node itself holds about 20), the store is asked to keep 1,024 connections:
      // opening the thirtieth or so package fails for want of a handle, and the store must make room, not fail.
      const home = path.join(dir, 'home');
      const file = await build('lib', '1.0.0');
      await mkdir(home, { recursive: true });
      for (let i = 0; i < 80; i++)
        await copyFile(file, path.join(home, packageFileName({ name: `lib${i}`, version: '1.0.0' })));
      const store = fileURLToPath(new URL('../dist/index.js', import.meta.url));
      const script = `import { PackageStore } from ${JSON.stringify(store)};
        const store = new PackageStore(${JSON.stringify(home)});
        const all = await store.list();
        const found = [];
        for (let round = 0; round < 2; round++)
          for (const p of all) found.push((await store.reader(p).search(${JSON.stringify(cors)}, { limit: 5 })).length);
        await store.close();
        process.stdout.write(JSON.stringify(found));`;
      const result = spawnSync('sh', ['-c', 'ulimit -n 48 && exec "$NODE" --input-type=module -e "$SCRIPT"'], {
        encoding: 'utf8',
        env: { ...process.env, NODE: process.execPath, SCRIPT: script },
      });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual(Array.from({ length: 160 }, () => 1));
    },
  );

  it('an evicted reader reads on for a search that still holds it, reopening its file', async () => {
    // One connection at most: opening a second package evicts the first while a search may still hold its reader.
    const { store, open } = await oneConnection();
    const held = open('one');
    open('two');
    expect(await held.search(cors, { limit: 5 })).toHaveLength(1);
    await held.close();
    await expect(held.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
    await store.close();
  });

  it('a reader answers alike when asked again and once evicted', async () => {
    const { store, open } = await oneConnection();
    const held = open('one');
    const first = await held.search(cors, { limit: 5 });
    expect(first).toHaveLength(1);
    expect(await held.search(cors, { limit: 5 })).toEqual(first);
    expect(await held.chunkHits(first.map((h) => h.id))).toEqual(first.map((h) => ({ ...h, score: 0 })));
    open('two');
    expect(await held.search(cors, { limit: 5 })).toEqual(first);
    await store.close();
  });

  it('an evicted reader of a package removed since says it is gone', async () => {
    const { store, open } = await oneConnection();
    const held = open('one');
    open('two');
    await store.remove('one@1.0.0');
    await expect(held.search(cors, { limit: 5 })).rejects.toMatchObject({ name: 'StoreError', code: 'gone' });
    await store.close();
  });

  it('a reader of a file another process replaced reads the old file on, and closes with the store', async () => {
    const { store, other, current } = await replacedElsewhere();
    const held = store.reader((await current()).value);
    await other.install(await build('lib', '1.0.0', nothing));
    expect(await store.reader((await current()).value).search(cors, { limit: 5 })).toHaveLength(0);
    // The search that began on the old file finishes on it.
    expect(await held.search(cors, { limit: 5 })).toHaveLength(1);
    await store.close();
    await other.close();
    await expect(held.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
  });

  it('readers of replaced files wait in a bounded number: beyond maxOpenPackages the oldest closes at once', async () => {
    const { store, other, current } = await replacedElsewhere();
    const first = store.reader((await current()).value);
    await other.install(await build('lib', '1.0.0', nothing));
    const second = store.reader((await current()).value); // retires first
    await other.install(await build('lib', '1.0.0'));
    store.reader((await current()).value); // retires second: first, the oldest, closes now
    await expect(first.search(cors, { limit: 5 })).rejects.toThrow(/not open/);
    expect(await second.search(cors, { limit: 5 })).toHaveLength(0);
    await store.close();
    await other.close();
  });
});
