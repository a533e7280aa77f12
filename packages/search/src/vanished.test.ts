import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, type InstalledPackage, PackageStore, writePackage } from '@docs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDocs, readDoc, searchAll } from './index.js';

/**
 * Another process's `docs remove` landing between a request's listing of the
 * store and its opening of a package. The store is real; the race is made
 * certain by removing, through a second store on the same directory, right
 * after the first listing returns.
 */
class RacedStore extends PackageStore {
  readonly #other: PackageStore;
  #toRemove: string[];

  constructor(dir: string, toRemove: string[]) {
    super(dir);
    this.#other = new PackageStore(dir);
    this.#toRemove = toRemove;
  }

  override async list(): Promise<InstalledPackage[]> {
    const listed = await super.list();
    for (const spec of this.#toRemove.splice(0)) await this.#other.remove(spec);
    return listed;
  }
}

let dir: string;
let home: string;
let store: PackageStore | undefined;

const page: DocumentInput = {
  path: 'middleware/cors.md',
  title: 'CORS',
  content: '# CORS\n\nEnable CORS with the cors middleware.',
  chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 9 }],
};

async function install(name: string, version = '1.0.0'): Promise<void> {
  const file = path.join(dir, `${name}-${version}.db`);
  await writePackage(file, { name, version }, [page]);
  const installer = new PackageStore(home);
  await installer.install(file, { move: true });
  await installer.close();
}

function raced(...toRemove: string[]): PackageStore {
  store = new RacedStore(home, toRemove);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-vanished-'));
  home = path.join(dir, 'store');
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('a package removed between listing and opening', () => {
  it('the store says it is gone, as a StoreError with a code, not SQLite\'s "unable to open database file"', async () => {
    await install('hono');
    const plain = new PackageStore(home);
    store = plain;
    const [hono] = await plain.list();
    await new PackageStore(home).remove('hono');
    expect(() => plain.reader(hono as InstalledPackage)).toThrow(
      expect.objectContaining({
        name: 'StoreError',
        code: 'gone',
        message: expect.stringMatching(/hono@1\.0\.0 was removed/),
      }),
    );
  });

  it('searchAll leaves it out with a warning naming it; the others answer', async () => {
    for (const name of ['express', 'hono', 'koa']) await install(name);
    const answer = await searchAll(raced('hono'), 'enable cors');
    expect(answer.status).toBe('ok');
    expect(answer.searched).toEqual(['express@1.0.0', 'koa@1.0.0']);
    expect(new Set(answer.results.map((r) => r.library))).toEqual(new Set(['express@1.0.0', 'koa@1.0.0']));
    expect(answer.warnings).toEqual([
      'Left out hono@1.0.0: hono@1.0.0 was removed while it was being read: it is no longer installed',
    ]);
  });

  it('searchAll whose every package went lists the store again: nothing is installed', async () => {
    await install('hono');
    const answer = await searchAll(raced('hono'), 'enable cors');
    expect(answer.status).toBe('no-packages');
  });

  it('getDocs says the library is not installed', async () => {
    await install('express');
    await install('hono');
    const answer = await getDocs(raced('hono'), 'hono', 'enable cors');
    expect(answer.status).toBe('unknown-library');
    expect(answer.message).toMatch(/hono/);
    expect(answer.installed).toEqual(['express@1.0.0']);
  });

  it('getDocs answers from the version still installed when the one it picked went', async () => {
    await install('hono', '1.0.0');
    await install('hono', '2.0.0');
    const answer = await getDocs(raced('hono@2.0.0'), 'hono', 'enable cors');
    expect(answer.status).toBe('ok');
    expect(answer.searched).toEqual(['hono@1.0.0']);
  });

  it('readDoc says the library is not installed', async () => {
    await install('express');
    await install('hono');
    const answer = await readDoc(raced('hono'), 'hono', 'middleware/cors.md');
    expect(answer.status).toBe('unknown-library');
    expect(answer.installed).toEqual(['express@1.0.0']);
  });
});
