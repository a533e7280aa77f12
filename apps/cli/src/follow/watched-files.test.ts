import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchedFolders, watchedState } from './watched-files.js';

// The table of what says a project's installs changed: each ecosystem's files, in a real project folder.

let project: string;
beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'docs-watched-'));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('watchedState', () => {
  it.each([
    ['package.json', '{}'],
    ['pnpm-lock.yaml', "lockfileVersion: '9.0'\n"],
    ['yarn.lock', '# yarn lockfile v1\n'],
    ['node_modules/.package-lock.json', '{}'],
    ['node_modules/.modules.yaml', 'layoutVersion: 5\n'],
    ['pyproject.toml', '[project]\nname = "app"\n'],
    ['requirements-dev.txt', 'pytest==8.0.0\n'],
    ['uv.lock', 'version = 1\n'],
    ['go.mod', 'module example.com/app\n'],
    ['go.sum', ''],
    ['Cargo.toml', '[package]\nname = "app"\n'],
    ['Cargo.lock', 'version = 3\n'],
  ])('changes when %s is written', async (file, content) => {
    await mkdir(path.dirname(path.join(project, file)), { recursive: true });
    const before = watchedState(project);
    await writeFile(path.join(project, file), content);
    expect(watchedState(project)).not.toBe(before);
  });

  it("changes when a distribution is installed into the project's virtualenv, or another version replaces it", async () => {
    const site = path.join(project, '.venv', 'lib', 'python3.12', 'site-packages');
    await mkdir(site, { recursive: true });
    await writeFile(path.join(project, '.venv', 'pyvenv.cfg'), 'version = 3.12\n');
    const empty = watchedState(project);
    await mkdir(path.join(site, 'requests-2.32.3.dist-info'));
    const one = watchedState(project);
    expect(one).not.toBe(empty);
    await rm(path.join(site, 'requests-2.32.3.dist-info'), { recursive: true });
    await mkdir(path.join(site, 'requests-2.32.4.dist-info'));
    expect(watchedState(project)).not.toBe(one);
  });

  it.each(['README.md', 'src/index.ts', 'node_modules/left-pad/package.json', 'node_modules/.cache/x'])(
    'does not change when %s is written',
    async (file) => {
      await mkdir(path.dirname(path.join(project, file)), { recursive: true });
      const before = watchedState(project);
      await writeFile(path.join(project, file), String(Math.random()));
      expect(watchedState(project)).toBe(before);
    },
  );

  it('watches the project, node_modules and each site-packages alone, never a tree', async () => {
    const folders = watchedFolders(project).map((folder) => path.relative(project, folder));
    expect(folders.sort()).toEqual(['', '.venv/lib/python3.12/site-packages', 'node_modules']);
  });
});
