import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocs, readDoc, resolveLibrary, searchAll } from './index.js';

let dir: string;
let store: PackageStore;

const page: DocumentInput = {
  path: 'middleware/cors.md',
  title: 'CORS',
  content: '# CORS\n\nEnable CORS with the cors middleware.',
  chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 9 }],
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-scope-'));
  store = new PackageStore(path.join(dir, 'store'));
  for (const [name, version] of [
    ['webframe', '1.0.0'],
    ['webframe', '2.0.0'],
    ['apiframe', '3.1.0'],
    ['other', '1.0.0'],
  ] as const) {
    const file = path.join(dir, `${name}-${version}.db`);
    await writePackage(file, { name, version }, [page]);
    await store.install(file, { move: true });
  }
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const scope = ['webframe@1', 'apiframe'];

describe('one resolution of a library, within a scope, for getDocs, searchAll and readDoc', () => {
  it('a bare name gives the highest served version, not the highest installed', async () => {
    const found = await resolveLibrary(store, 'webframe', { scope });
    expect(found.ok && found.value.version).toBe('1.0.0');
    const answer = await getDocs(store, 'webframe', 'cors', { scope });
    expect(answer.searched).toEqual(['webframe@1.0.0']);
  });

  it('a library outside the scope is refused the same way by all three, naming those served', async () => {
    const message =
      /^Library "other" is not served by this server \(scoped to webframe@1, apiframe\)\. Served: apiframe@3\.1\.0, webframe@1\.0\.0\.$/;
    const get = await getDocs(store, 'other', 'cors', { scope });
    expect(get).toMatchObject({ status: 'unknown-library', installed: ['apiframe@3.1.0', 'webframe@1.0.0'] });
    expect(get.message).toMatch(message);
    const all = await searchAll(store, 'cors', { scope, libraries: ['other'] });
    expect(all).toMatchObject({ status: 'unknown-library', message: get.message });
    const read = await readDoc(store, 'other', 'middleware/cors.md', { scope });
    expect(read).toMatchObject({ status: 'unknown-library', message: get.message });
  });

  it('a version the scope does not serve is refused with the versions served', async () => {
    const answer = await getDocs(store, 'webframe', 'cors', { scope, version: '2.0.0' });
    expect(answer.status).toBe('unknown-version');
    expect(answer.message).toBe('webframe has no version "2.0.0" on this server. Versions served: 1.0.0.');
    expect(answer.suggestion).toBe('webframe@1.0.0');
  });

  it('searchAll without libraries searches what the scope serves, one version each', async () => {
    const answer = await searchAll(store, 'cors', { scope });
    expect([...answer.searched].sort()).toEqual(['apiframe@3.1.0', 'webframe@1.0.0']);
  });

  it('a scope none of whose libraries is installed answers that, with how to add docs', async () => {
    const answer = await searchAll(store, 'cors', { scope: ['nosuch'] });
    expect(answer.status).toBe('no-packages');
    expect(answer.message).toMatch(/^None of the libraries this server serves \(nosuch\) is installed\. Add one with/);
  });

  it('without a scope, an unknown library is refused with the installed ones and the closest name', async () => {
    const answer = await getDocs(store, 'webfrme', 'cors');
    expect(answer).toMatchObject({ status: 'unknown-library', suggestion: 'webframe' });
    expect(answer.message).toMatch(/^Library "webfrme" is not installed\. Did you mean "webframe"\?/);
  });
});
