import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentInput, type InstalledPackage, PackageStore, writePackage } from './index.js';

let dir: string;
let storeDir: string;
let store: PackageStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-catalog-'));
  storeDir = path.join(dir, 'store');
  store = new PackageStore(storeDir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function page(words: string): DocumentInput[] {
  return [
    {
      path: 'index.md',
      title: 'Index',
      content: words,
      chunks: [{ breadcrumb: ['Index'], level: 1, content: words, tokens: 10 }],
    },
  ];
}

let builds = 0;
async function install(name: string, version: string, words: string): Promise<InstalledPackage> {
  const file = path.join(dir, `build-${builds++}.db`);
  await writePackage(file, { name, version }, page(words));
  return (await store.install(file, { move: true })).installed;
}

/** The names of the installed libraries the catalog says hold none of the terms. */
async function holdingNone(terms: Parameters<PackageStore['catalogEntries']>[1]): Promise<string[]> {
  const installed = await store.list();
  const entries = await store.catalogEntries(installed, terms);
  return installed.filter((p) => entries.get(p.file)?.holds.some(Boolean) === false).map((p) => p.name);
}

describe('the store catalog', () => {
  it('names the libraries holding none of the terms, with their chunk and term counts, as installs keep it', async () => {
    await install('timers', '1.0.0', 'Fake timers replace setTimeout; use vi.useFakeTimers.');
    await install('many', '1.0.0', 'about cors');
    await store.remove('many@1.0.0');
    await install('cors', '1.0.0', 'Enable CORS with the cors middleware.');
    expect(await holdingNone(['cors'])).toEqual(['timers']);
    expect(await holdingNone(['timers'])).toEqual(['cors']);
    expect(await holdingNone(['zebra'])).toEqual(['cors', 'timers']);
    // Any alternative of any term, each read as a phrase: every token of one must be there.
    expect(await holdingNone([['zebra', 'middleware'], 'zebra'])).toEqual(['timers']);
    expect(await holdingNone(['vi.useFakeTimers'])).toEqual(['cors']);
    expect(await holdingNone(['cors timers'])).toEqual(['cors', 'timers']);
    expect(await holdingNone(['CORS'])).toEqual(['timers']);
    const installed = await store.list();
    const entry = (
      await store.catalogEntries(installed, ['zebra', 'cors', ['fake', 'nothing'], 'fake timers', ['fake', 'timers']])
    ).get(installed.find((p) => p.name === 'timers')?.file ?? '');
    // A one-token term's count is known exactly, as is one whose only alternative the package may hold is one
    // token; a phrase (whose tokens may not follow each other) or two alternatives (which may share chunks) are a maybe.
    expect(entry).toEqual({
      chunks: 1,
      vectors: false,
      holds: [false, false, true, true, true],
      frequencies: [0, 0, 1, undefined, undefined],
    });
  });

  it('follows a replaced and a removed package', async () => {
    await install('lib', '1.0.0', 'about timers');
    await install('other', '1.0.0', 'about cors');
    expect(await holdingNone(['zebra'])).toEqual(['lib', 'other']);
    await install('lib', '1.0.0', 'about zebras and a zebra');
    expect(await holdingNone(['zebra'])).toEqual(['other']);
    expect(await holdingNone(['timers'])).toEqual(['lib', 'other']);
    await store.remove('lib@1.0.0');
    expect(await holdingNone(['zebra'])).toEqual(['other']);
    await install('lib', '1.0.0', 'about timers again');
    expect(await holdingNone(['zebra'])).toEqual(['lib', 'other']);
    // Built again with other sections: the counts of the tokens it kept follow, the ones it lost go.
    const file = path.join(dir, `build-${builds++}.db`);
    const chunk = (content: string) => ({ breadcrumb: ['Index'], level: 1, content, tokens: 3 });
    await writePackage(file, { name: 'lib', version: '1.0.0' }, [
      { path: 'index.md', title: 'Index', content: 'x', chunks: [chunk('about timers'), chunk('about cors')] },
    ]);
    const { installed } = await store.install(file, { move: true });
    expect((await store.catalogEntries([installed], ['about', 'again', 'cors'])).get(installed.file)).toEqual({
      chunks: 2,
      vectors: false,
      holds: [true, false, true],
      frequencies: [2, 0, 1],
    });
  });

  it('trusts no entry for a file changed behind its back', async () => {
    const zebra = await install('zebra', '1.0.0', 'zebra stripes');
    const lib = await install('lib', '1.0.0', 'about timers');
    expect(await holdingNone(['zebra'])).toEqual(['lib']);
    // Put there by hand, not installed: the entry no longer describes the file.
    await copyFile(zebra.file, `${lib.file}.copy`);
    await rename(`${lib.file}.copy`, lib.file);
    expect(await holdingNone(['zebra'])).toEqual([]);
    // Another process installing anything brings it up to date.
    await install('third', '1.0.0', 'nothing here');
    expect(await holdingNone(['zebra'])).toEqual(['third']);
  });

  it('without a catalog, or with a damaged one, skips nothing and fails nothing; the next install makes it anew', async () => {
    await install('lib', '1.0.0', 'about timers');
    await install('other', '1.0.0', 'about cors');
    await rm(path.join(storeDir, '.catalog'), { recursive: true });
    expect(await holdingNone(['zebra'])).toEqual([]);
    await store.updateCatalog();
    expect(await holdingNone(['zebra'])).toEqual(['lib', 'other']);
    await writeFile(
      path.join(storeDir, '.catalog', 'catalog.db'),
      'not a database at all, and long enough to look like one',
    );
    expect(await holdingNone(['zebra'])).toEqual([]);
    const fresh = new PackageStore(storeDir);
    expect(await fresh.catalogEntries(await fresh.list(), ['zebra'])).toEqual(new Map());
    await fresh.close();
    await install('third', '1.0.0', 'about a zebra');
    expect(await holdingNone(['zebra'])).toEqual(['lib', 'other']);
  });

  it('installs and searches where the catalog cannot be written', async () => {
    await mkdir(storeDir, { recursive: true });
    // A file where the catalog's folder would go: nothing can be written there.
    await writeFile(path.join(storeDir, '.catalog'), '');
    await install('lib', '1.0.0', 'about timers');
    expect((await store.list()).map((p) => p.name)).toEqual(['lib']);
    expect(await holdingNone(['zebra'])).toEqual([]);
  });

  it('keeps entries right when two stores install into one directory at once', async () => {
    const other = new PackageStore(storeDir);
    const files = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (name, i) => {
        const file = path.join(dir, `concurrent-${name}.db`);
        await writePackage(file, { name, version: '1.0.0' }, page(i % 2 === 0 ? 'zebra' : 'timers'));
        return file;
      }),
    );
    await Promise.all(files.map((file, i) => (i % 2 === 0 ? store : other).install(file)));
    await other.close();
    expect(await holdingNone(['zebra'])).toEqual(['b', 'd']);
  });
});
