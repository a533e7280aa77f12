import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import type { InstalledDependency } from './dependencies.js';
import { candidateTags, planRepositories, repositoryOf, stageFromRepositories } from './repository-docs.js';
import { findDocFiles } from './walk.js';

let dir: string;
let temp: string;
const originalTmp = process.env.TMPDIR;

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

/** A repository whose commits are tagged in turn: each entry is the files of one commit and its tags. */
async function repository(name: string, commits: { files: Record<string, string>; tags: string[] }[]): Promise<string> {
  const root = path.join(dir, 'repos', name);
  await mkdir(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  for (const commit of commits) {
    await write(root, commit.files);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'c');
    for (const tag of commit.tags) git(root, 'tag', '-a', tag, '-m', tag);
  }
  return root;
}

/** An installed package in node_modules whose package.json names a repository. */
async function dependency(
  name: string,
  version: string,
  repositoryField: unknown,
  extra: Record<string, string> = {},
): Promise<InstalledDependency> {
  const packageDir = path.join(dir, 'node_modules', name, version);
  await write(packageDir, {
    'package.json': { name, version, ...(repositoryField === undefined ? {} : { repository: repositoryField }) },
    'README.md': `# ${name}\n\nThe README of ${name} ${version}.\n`,
    ...extra,
  });
  return { name, version, dir: packageDir, ecosystem: 'npm', dev: false };
}

async function files(root: string): Promise<string[]> {
  return (await findDocFiles(root)).map((f) => f.relativePath);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-repo-docs-test-'));
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  process.env.TMPDIR = temp;
});

afterAll(async () => {
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  await rm(dir, { recursive: true, force: true });
});

test.each([
  ['git+https://github.com/colinhacks/zod.git', 'https://github.com/colinhacks/zod.git'],
  ['github:sindresorhus/p-limit', 'https://github.com/sindresorhus/p-limit.git'],
  ['sindresorhus/p-limit', 'https://github.com/sindresorhus/p-limit.git'],
  ['git+ssh://git@github.com/org/repo.git', 'https://github.com/org/repo.git'],
  ['https://git.example.org/team/lib.git', 'https://git.example.org/team/lib.git'],
  ['git+https://git.example.org/team/lib.git#main', 'https://git.example.org/team/lib.git'],
  ['file:///srv/repos/lib', 'file:///srv/repos/lib'],
  ['ext::sh -c touch% /tmp/pwned', undefined],
  ['', undefined],
])('repositoryOf(%j) → %j', (url, expected) => {
  expect(repositoryOf({ repository: url })?.url).toBe(expected);
  expect(repositoryOf({ repository: { type: 'git', url } })?.url).toBe(expected);
});

it('keeps repository.directory, cleaned, and refuses one that climbs out', () => {
  const url = 'https://github.com/org/mono';
  expect(repositoryOf({ repository: { url, directory: './packages/lib/' } })?.directory).toBe('packages/lib');
  expect(repositoryOf({ repository: { url, directory: '../outside' } })?.directory).toBeUndefined();
  expect(repositoryOf({})).toBeUndefined();
});

it('tries the package-specific tag styles before the plain ones', () => {
  expect(candidateTags('@scope/pkg', '1.2.3')).toEqual([
    '@scope/pkg@1.2.3',
    '@scope/pkg@v1.2.3',
    'pkg@1.2.3',
    'pkg-v1.2.3',
    'v1.2.3',
    '1.2.3',
  ]);
});

describe('stageFromRepositories', () => {
  let plainV: string;
  let mono: string;
  beforeAll(async () => {
    // Tags `v1.0.0` and, later, `2.0.0`: each version's docs differ.
    plainV = await repository('plain', [
      { files: { 'docs/guide.md': '# Guide one\n\nVersion one.\n', 'README.md': '# plain\n' }, tags: ['v1.0.0'] },
      {
        files: { 'docs/guide.md': '# Guide two\n\nVersion two.\n', 'docs/new.md': '# New\n\nAdded.\n' },
        tags: ['2.0.0'],
      },
      { files: { 'docs/guide.md': '# Unreleased\n\nNot yet.\n' }, tags: [] },
    ]);
    // A monorepo with changesets-style tags and a docs folder per package, and one at the root.
    mono = await repository('mono', [
      {
        files: {
          'docs/overview.md': '# Overview\n\nThe whole project.\n',
          'packages/core/docs/core.md': '# Core\n\nCore 3.1.0.\n',
          'packages/util/README.md': '# util\n',
        },
        tags: ['@mono/core@3.1.0', 'util@0.4.0'],
      },
    ]);
  });

  it("builds each dependency from its tag's docs, fetching each repository once, and falls back to the package with the reason", async () => {
    const deps = [
      await dependency('plain', '1.0.0', { type: 'git', url: pathToFileURL(plainV).href }),
      await dependency('plain', '2.0.0', `git+${pathToFileURL(plainV).href}`),
      await dependency('plain', '3.0.0', pathToFileURL(plainV).href),
      await dependency('@mono/core', '3.1.0', { url: pathToFileURL(mono).href, directory: 'packages/core' }),
      await dependency('util', '0.4.0', { url: pathToFileURL(mono).href, directory: 'packages/util' }),
      await dependency('norepo', '1.0.0', undefined),
      await dependency('gone', '1.0.0', pathToFileURL(path.join(dir, 'repos', 'missing')).href),
    ];
    const progress: string[] = [];
    const stages = await stageFromRepositories(deps, {
      types: false,
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    });
    try {
      const summary = stages.map((s) => [`${s.dependency.name}@${s.dependency.version}`, s.from, s.tag ?? s.fallback]);
      expect(summary).toEqual([
        ['plain@1.0.0', 'repository', 'v1.0.0'],
        ['plain@2.0.0', 'repository', '2.0.0'],
        ['plain@3.0.0', 'package', `no tag for 3.0.0 in ${pathToFileURL(plainV).href}`],
        ['@mono/core@3.1.0', 'repository', '@mono/core@3.1.0'],
        ['util@0.4.0', 'repository', 'util@0.4.0'],
        ['norepo@1.0.0', 'package', 'its package.json names no git repository'],
        ['gone@1.0.0', 'package', expect.stringMatching(/^cannot list the tags of file:.*missing/)],
      ]);
      const root = (i: number) => {
        const result = stages[i]?.result;
        if (!result?.ok) throw new Error(`stage ${i} has nothing`);
        return result.value.root;
      };
      expect(await files(root(0))).toEqual(['README.md', 'docs/guide.md']);
      expect(await readFile(path.join(root(0), 'docs/guide.md'), 'utf8')).toContain('Version one.');
      expect(await readFile(path.join(root(0), 'README.md'), 'utf8')).toContain('README of plain 1.0.0');
      expect(await files(root(1))).toEqual(['README.md', 'docs/guide.md', 'docs/new.md']);
      expect(await readFile(path.join(root(1), 'docs/guide.md'), 'utf8')).toContain('Version two.');
      expect(await files(root(2))).toEqual(['README.md']);
      // The package's own docs folder first; the monorepo's root docs only when it has none.
      expect(await files(root(3))).toEqual(['README.md', 'packages/core/docs/core.md']);
      expect(await files(root(4))).toEqual(['README.md', 'docs/overview.md']);
      const first = stages[0]?.result;
      expect(first?.ok && first.value.source).toMatch(
        /^file:.*plain#[0-9a-f]{40} path docs \(tag v1\.0\.0\), npm:plain@1\.0\.0$/,
      );
      // Two repositories fetched (plus one that failed), each reported as it starts and ends.
      expect(progress.filter((p) => p.startsWith('3/') || p.endsWith('/3'))).toContain('3/3');
    } finally {
      await Promise.all(stages.map((s) => (s.result.ok ? s.result.value.dispose() : undefined)));
    }
    expect(await readdir(temp)).toEqual([]);
  });

  it('falls back when the tag has no docs folder', async () => {
    const bare = await repository('bare', [{ files: { 'README.md': '# bare\n', 'src/x.js': '' }, tags: ['v1.0.0'] }]);
    const [stage] = await stageFromRepositories([await dependency('bare', '1.0.0', pathToFileURL(bare).href)]);
    try {
      expect(stage).toMatchObject({
        from: 'package',
        fallback: `no docs folder in ${pathToFileURL(bare).href} at v1.0.0`,
      });
    } finally {
      if (stage?.result.ok) await stage.result.value.dispose();
    }
  });

  it('gives up on a repository that takes longer than the timeout, falling back for each of its packages', async () => {
    const deps = [await dependency('plain', '1.0.0', pathToFileURL(plainV).href)];
    const stages = await stageFromRepositories(deps, { timeoutMs: 1 });
    try {
      expect(stages[0]).toMatchObject({ from: 'package', fallback: expect.stringMatching(/timed out after 0 s$/) });
    } finally {
      await Promise.all(stages.map((s) => (s.result.ok ? s.result.value.dispose() : undefined)));
    }
    expect(await readdir(temp)).toEqual([]);
  });

  it('leaves nothing behind when aborted', async () => {
    const deps = [
      await dependency('plain', '1.0.0', pathToFileURL(plainV).href),
      await dependency('@mono/core', '3.1.0', { url: pathToFileURL(mono).href, directory: 'packages/core' }),
    ];
    const abort = new AbortController();
    const staging = stageFromRepositories(deps, {
      concurrency: 1,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.done === 1) abort.abort(new Error('interrupted'));
      },
    });
    await expect(staging).rejects.toThrow('interrupted');
    expect(await readdir(temp)).toEqual([]);
  });

  it('plans without fetching anything', async () => {
    const plans = await planRepositories([
      await dependency('@mono/core', '3.1.0', { url: pathToFileURL(mono).href, directory: 'packages/core' }),
    ]);
    expect(plans[0]).toMatchObject({
      repository: { url: pathToFileURL(mono).href, directory: 'packages/core' },
      tags: candidateTags('@mono/core', '3.1.0'),
    });
  });
});
