import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { cloneGitSource, versionFromTag } from './git.js';
import { findDocFiles } from './walk.js';

// Real repositories made here, cloned through file:// URLs by the real git binary.
let dir: string;
let temp: string;
const originalTmp = process.env.TMPDIR;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  }).trim();
}

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

async function repository(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(dir, name);
  await mkdir(root, { recursive: true });
  git(root, '-c', 'init.defaultBranch=main', 'init', '-q');
  await write(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');
  return root;
}

const relative = async (root: string) => (await findDocFiles(root)).map((f) => f.relativePath);

let lib: string;
let first: string;
let second: string;
let third: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-git-test-'));
  // Every temporary folder the code under test makes lands here, so the tests can see that none is left.
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  process.env.TMPDIR = temp;

  lib = await repository('lib', {
    'README.md': '# Lib\n\nThe library.\n',
    'docs/intro.md': '# Intro\n\nVersion one of the intro.\n',
    'package.json': JSON.stringify({ name: 'lib-monorepo', private: true, description: 'Lib monorepo' }),
  });
  git(lib, 'tag', '-a', 'v1.0.0', '-m', 'one');
  first = git(lib, 'rev-parse', 'HEAD');
  await write(lib, {
    'docs/intro.md': '# Intro\n\nVersion two of the intro.\n',
    'docs/setup.rst': 'Setup\n=====\n\nRun it.\n',
  });
  git(lib, 'add', '-A');
  git(lib, 'commit', '-q', '-m', 'two');
  git(lib, 'tag', 'v2.0.0');
  second = git(lib, 'rev-parse', 'HEAD');
  git(lib, 'checkout', '-q', '-b', 'next');
  await write(lib, { 'docs/next.md': '# Next\n\nUnreleased.\n' });
  git(lib, 'add', '-A');
  git(lib, 'commit', '-q', '-m', 'three');
  third = git(lib, 'rev-parse', 'HEAD');
  git(lib, 'checkout', '-q', 'main');
});

afterAll(async () => {
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  await rm(dir, { recursive: true, force: true });
});

describe('cloneGitSource', () => {
  it('clones the default branch, finds docs/, and names the version by the tag at its commit', async () => {
    const source = await cloneGitSource({ url: lib, name: 'lib' });
    try {
      expect(source).toMatchObject({ kind: 'git', name: 'lib', version: '2.0.0', commit: second, warnings: [] });
      expect(source.description).toBe('Lib monorepo');
      expect(source.source).toBe(`${lib}#${second} path docs`);
      expect(path.basename(source.root)).toBe('docs');
      expect(await relative(source.root)).toEqual(['intro.md', 'setup.rst']);
    } finally {
      await source.dispose();
    }
    expect(await readdir(temp)).toEqual([]);
  });

  test.each([
    ['an annotated tag', 'v1.0.0', '1.0.0', () => first, ['intro.md']],
    ['a branch without a tag', 'next', 'short', () => third, ['intro.md', 'next.md', 'setup.rst']],
    ['a full commit', 'FIRST', '1.0.0', () => first, ['intro.md']],
    ['an abbreviated commit', 'FIRST7', '1.0.0', () => first, ['intro.md']],
  ])('checks out %s', async (_what, ref, version, commit, files) => {
    const wanted = ref === 'FIRST' ? first : ref === 'FIRST7' ? first.slice(0, 7) : ref;
    const source = await cloneGitSource({ url: lib, ref: wanted });
    try {
      expect(source.commit).toBe(commit());
      expect(source.version).toBe(version === 'short' ? commit().slice(0, source.version?.length) : version);
      if (version === 'short') expect(source.version).toMatch(/^[0-9a-f]{7,}$/);
      expect(await relative(source.root)).toEqual(files);
      expect(await readFile(path.join(source.root, 'intro.md'), 'utf8')).toContain(
        commit() === first ? 'Version one' : 'Version two',
      );
    } finally {
      await source.dispose();
    }
  });

  it('uses the docs folder given, and refuses one outside the repository or missing', async () => {
    const source = await cloneGitSource({ url: lib, path: '/' });
    try {
      expect(source.root).not.toMatch(/docs$/);
      expect(await relative(source.root)).toContain('README.md');
    } finally {
      await source.dispose();
    }
    await expect(cloneGitSource({ url: lib, path: '../..' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(cloneGitSource({ url: lib, path: 'nope' })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/no folder "nope"/),
    });
    expect(await readdir(temp)).toEqual([]);
  });

  it('finds website/docs, and falls back to the root with a warning naming a separate docs repository', async () => {
    const site = await repository('site', { 'README.md': '# Site\n', 'website/docs/start.md': '# Start\n\nGo.\n' });
    const withSite = await cloneGitSource({ url: site });
    try {
      expect(withSite.source).toMatch(/ path website\/docs$/);
      expect(await relative(withSite.root)).toEqual(['start.md']);
    } finally {
      await withSite.dispose();
    }
    const tiny = await repository('tiny', { 'README.md': '# Tiny\n\nSee the website.\n', 'LICENSE.md': 'MIT\n' });
    const source = await cloneGitSource({ url: tiny, name: 'tiny' });
    try {
      expect(source.version).toMatch(/^[0-9a-f]{7,}$/);
      expect(source.warnings).toHaveLength(1);
      expect(source.warnings[0]).toMatch(/little documentation.*separate repository.*tiny-docs/);
    } finally {
      await source.dispose();
    }
  });

  it('checks out symbolic links as plain files, so nothing outside the repository gets in', async () => {
    const secret = path.join(dir, 'secret.md');
    await writeFile(secret, '# Secret\n\nTOP-SECRET-TOKEN\n');
    const linked = await repository('linked', { 'docs/a.md': '# A\n\nText.\n' });
    await symlink(secret, path.join(linked, 'docs', 'leak.md'));
    git(linked, 'add', '-A');
    git(linked, 'commit', '-q', '-m', 'link');
    const source = await cloneGitSource({ url: linked });
    try {
      const leak = path.join(source.root, 'leak.md');
      expect((await lstat(leak)).isSymbolicLink()).toBe(false);
      expect(await readFile(leak, 'utf8')).not.toContain('TOP-SECRET-TOKEN');
    } finally {
      await source.dispose();
    }
  });

  it('reports an unknown repository or ref as git-failed and leaves no temporary folder', async () => {
    await expect(cloneGitSource({ url: lib, ref: 'no-such-branch' })).rejects.toMatchObject({
      name: 'SourceError',
      code: 'git-failed',
      message: expect.stringMatching(/cannot fetch "no-such-branch"/),
    });
    await expect(cloneGitSource({ url: path.join(dir, 'missing') })).rejects.toMatchObject({ code: 'git-failed' });
    expect(await readdir(temp)).toEqual([]);
  });

  it('stops when aborted and leaves no temporary folder', async () => {
    const abort = new AbortController();
    abort.abort(new Error('interrupted'));
    await expect(cloneGitSource({ url: lib, signal: abort.signal })).rejects.toThrow(/interrupted|abort/i);
    expect(await readdir(temp)).toEqual([]);
  });
});

test.each([
  ['v1.2.3', '1.2.3'],
  ['1.2.3', '1.2.3'],
  ['@scope/pkg@4.0.0-rc.1', '4.0.0-rc.1'],
  ['release/2.0', '2.0'],
  ['release-2.0', '2.0'],
  ['nightly', 'nightly'],
])('versionFromTag(%s) = %s', (tag, version) => {
  expect(versionFromTag(tag)).toBe(version);
});
