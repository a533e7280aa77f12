import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './index.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-atomic-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('makes the folders, writes the file, and leaves no temporary file beside it', async () => {
    const file = path.join(dir, 'new', 'deep', 'mcp.json');
    await writeFileAtomic(file, '{}\n');
    expect(await readFile(file, 'utf8')).toBe('{}\n');
    expect(await readdir(path.dirname(file))).toEqual(['mcp.json']);
  });

  it.skipIf(process.platform === 'win32')("keeps an existing file's permissions", async () => {
    const file = path.join(dir, 'private.json');
    await writeFile(file, '{}', { mode: 0o600 });
    await writeFileAtomic(file, '{"a": 1}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('{"a": 1}');
  });

  it.skipIf(process.platform === 'win32')('writes through a symlink, which stays a symlink', async () => {
    const real = path.join(dir, 'dotfiles', 'claude.json');
    await mkdir(path.dirname(real));
    await writeFile(real, '{}');
    const link = path.join(dir, 'linked.json');
    await symlink(real, link);
    await writeFileAtomic(link, '{"b": 2}');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    expect(await readFile(real, 'utf8')).toBe('{"b": 2}');
  });
});

describe('writeFileAtomic, interrupted', () => {
  it('leaves the old file whole and no temporary file when the write fails', async () => {
    const folder = path.join(dir, 'failing');
    await mkdir(folder);
    const file = path.join(folder, 'record.json');
    await writeFile(file, '{"old": true}\n');
    // A folder where the file is: the rename over it fails after the copy is written.
    const blocked = path.join(folder, 'blocked.json');
    await mkdir(blocked);
    await expect(writeFileAtomic(blocked, '{}')).rejects.toThrow();
    expect((await readdir(folder)).sort()).toEqual(['blocked.json', 'record.json']);
    expect(await readFile(file, 'utf8')).toBe('{"old": true}\n');
  });

  it('replaces a file another writer replaced meanwhile, whole', async () => {
    const file = path.join(dir, 'both.json');
    await Promise.all(Array.from({ length: 8 }, (_, i) => writeFileAtomic(file, `${'x'.repeat(10_000)}${i}`)));
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^x{10000}\d$/);
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
  });
});
