import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeFile, writeFileAtomic } from './atomic-write.js';

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

describe('removeFile', () => {
  it('removes the folders it leaves empty, up to the root and never the root itself', async () => {
    const project = path.join(dir, 'project');
    const rule = path.join(project, '.cursor', 'rules', 'docs.mdc');
    await writeFileAtomic(rule, 'x');
    await writeFileAtomic(path.join(project, 'keep.md'), 'x');
    await removeFile(rule, project);
    expect(await readdir(project)).toEqual(['keep.md']);
  });

  it('keeps a folder that holds something else', async () => {
    const project = path.join(dir, 'project2');
    const config = path.join(project, '.cursor', 'mcp.json');
    await writeFileAtomic(config, '{}');
    await writeFileAtomic(path.join(project, '.cursor', 'rules', 'mine.mdc'), 'x');
    await removeFile(config, project);
    expect(await readdir(path.join(project, '.cursor'))).toEqual(['rules']);
  });
});
