import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageStore, writePackage } from '@docs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPackageFile } from './package-file.js';

let dir: string;
let store: PackageStore;

async function build(file: string): Promise<string> {
  await writePackage(file, { name: 'shared', version: '1.0.0', source: 'https://example.com/repo#abc' }, [
    {
      path: 'a.md',
      title: 'A',
      content: '# A\n\nText.',
      chunks: [{ breadcrumb: ['A'], level: 1, content: 'Shared text to search.', tokens: 4 }],
    },
  ]);
  return file;
}

/** Writes `bytes` at `offset` of a file, as a damaged or tampered copy would have them. */
async function patch(file: string, offset: number, bytes: Buffer): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.write(bytes, 0, bytes.length, offset);
  } finally {
    await handle.close();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-package-file-'));
  store = new PackageStore(path.join(dir, 'home'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('installPackageFile', () => {
  it('installs a package built elsewhere, keeping the original', async () => {
    const file = await build(path.join(dir, 'shared@1.0.0.db'));
    const { installed, info, replaced } = await installPackageFile(store, file);
    expect(installed).toMatchObject({ name: 'shared', version: '1.0.0' });
    expect(info.source).toBe('https://example.com/repo#abc');
    expect(replaced).toBe(false);
    expect(await readdir(dir)).toContain('shared@1.0.0.db');
  });

  it.each([
    [
      'a file over the size limit',
      async (file: string) => file,
      { maxBytes: 1024 },
      /over the limit of 1 KiB for a package file/,
    ],
    [
      'a file that is not SQLite',
      async (file: string) => {
        await writeFile(file, 'not a database, just text pretending to be one');
        return file;
      },
      {},
      /not a SQLite file/,
    ],
    [
      'a damaged database',
      async (file: string) => {
        // Garbage over the pages after the first: the header still says SQLite.
        await patch(file, 4096, Buffer.alloc(8192, 0x5a));
        return file;
      },
      {},
      /damaged|malformed|not a readable package|schema/,
    ],
    [
      'a package of a newer format version',
      async (file: string) => {
        // PRAGMA user_version lives at byte 60 of the header, big-endian.
        const version = Buffer.alloc(4);
        version.writeUInt32BE(99);
        await patch(file, 60, version);
        return file;
      },
      {},
      /format version 99.*built by a newer docs/,
    ],
  ])('refuses %s with the reason and changes nothing', async (_what, prepare, options, reason) => {
    const file = await prepare(await build(path.join(dir, 'in.db')));
    await expect(installPackageFile(store, file, options)).rejects.toThrow(reason);
    await expect(readdir(store.dir)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a missing file or a folder', async () => {
    await expect(installPackageFile(store, path.join(dir, 'missing.db'))).rejects.toMatchObject({ code: 'not-found' });
    await expect(installPackageFile(store, dir)).rejects.toMatchObject({ code: 'invalid-source' });
  });
});
