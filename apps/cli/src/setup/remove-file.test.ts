import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeFile } from './remove-file.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-remove-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
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
