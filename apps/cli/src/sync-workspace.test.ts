import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs sync` at the root of a pnpm monorepo made here (symlinks into
// node_modules/.pnpm), whose dependencies name git repositories made here.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let temp: string;
let root: string;
let repo: string;

function docs(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, DOCS_HOME: home, TMPDIR: temp } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function json(home: string, ...args: string[]) {
  const result = await docs([...args, '--json'], home);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

async function write(at: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(at, file)), { recursive: true });
    await writeFile(path.join(at, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

const words = (topic: string) => `${topic} is explained here with enough words to make a proper section. `.repeat(4);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-sync-ws-'));
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  // The library's repository: v1.0.0 documents "marmot", 2.0.0 documents "ocelot".
  repo = path.join(dir, 'lib-repo');
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await write(repo, { 'docs/animals.md': `# Animals\n\n${words('The marmot option')}\n` });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'one');
  git(repo, 'tag', 'v1.0.0');
  await write(repo, { 'docs/animals.md': `# Animals\n\n${words('The ocelot option')}\n` });
  git(repo, 'commit', '-q', '-am', 'two');
  git(repo, 'tag', '2.0.0');

  root = path.join(dir, 'mono');
  const lib = (version: string) => ({
    [`node_modules/.pnpm/lib@${version}/node_modules/lib/package.json`]: {
      name: 'lib',
      version,
      description: 'A library with docs in its repository.',
      repository: { type: 'git', url: `git+${pathToFileURL(repo).href}` },
    },
    [`node_modules/.pnpm/lib@${version}/node_modules/lib/README.md`]: `# lib\n\n${words(`The lib ${version} readme`)}\n`,
  });
  await write(root, {
    'package.json': { name: 'mono', private: true },
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'packages/old/package.json': { name: '@mono/old', dependencies: { lib: '^1.0.0', solo: '^1.0.0' } },
    'packages/new/package.json': { name: '@mono/new', dependencies: { lib: '^2.0.0' } },
    'packages/also-old/package.json': { name: '@mono/also-old', dependencies: { lib: '^1.0.0' } },
    ...lib('1.0.0'),
    ...lib('2.0.0'),
    'node_modules/.pnpm/solo@1.0.0/node_modules/solo/package.json': { name: 'solo', version: '1.0.0' },
    'node_modules/.pnpm/solo@1.0.0/node_modules/solo/README.md': `# solo\n\n${words('The solo readme')}\n`,
  });
  const link = async (target: string, at: string) => {
    await mkdir(path.dirname(path.join(root, at)), { recursive: true });
    await symlink(path.join(root, target), path.join(root, at));
  };
  await link('node_modules/.pnpm/lib@1.0.0/node_modules/lib', 'packages/old/node_modules/lib');
  await link('node_modules/.pnpm/lib@1.0.0/node_modules/lib', 'packages/also-old/node_modules/lib');
  await link('node_modules/.pnpm/lib@2.0.0/node_modules/lib', 'packages/new/node_modules/lib');
  await link('node_modules/.pnpm/solo@1.0.0/node_modules/solo', 'packages/old/node_modules/solo');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs sync at a workspace root', () => {
  it('lists with --dry-run what it would build and from where, building nothing', async () => {
    const home = path.join(dir, 'home-dry');
    const text = await docs(['sync', root, '--dry-run', '--from-repo'], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'Workspace (pnpm-workspace.yaml): 4 packages: ., packages/also-old, packages/new, packages/old',
    );
    expect(text.stdout).toContain(
      `Would build lib@1.0.0 from ${pathToFileURL(repo).href} at the first tag of lib@1.0.0, lib@v1.0.0, lib-v1.0.0, v1.0.0, 1.0.0 that exists, else from the package; used by packages/also-old, packages/old`,
    );
    expect(text.stdout).toContain(
      'Would build solo@1.0.0 from the package (README, docs folder, API page): its package.json names no git repository',
    );
    expect(text.stdout).toMatch(/Dry run for .*: 3 would be built, 0 skipped; nothing was built/);
    const result = await json(home, 'sync', root, '--dry-run', '--filter', '@mono/new');
    expect(result.workspace).toEqual({ file: 'pnpm-workspace.yaml', packages: ['packages/new'] });
    expect(result.build).toEqual([{ library: 'lib@2.0.0', from: 'package', usedBy: ['packages/new'] }]);
    expect(await readdir(home).catch(() => [])).toEqual([]);
  });

  it("builds every workspace package's dependencies once, from the tagged repository docs, falling back with the reason", async () => {
    const home = path.join(dir, 'home');
    const result = await json(home, 'sync', root, '--from-repo');
    expect(
      result.built.map((b: { library: string; from: string; tag?: string; fallback?: string }) => [
        b.library,
        b.from,
        b.tag ?? b.fallback,
      ]),
    ).toEqual([
      ['lib@1.0.0', 'repository', 'v1.0.0'],
      ['lib@2.0.0', 'repository', '2.0.0'],
      ['solo@1.0.0', 'package', 'its package.json names no git repository'],
    ]);
    expect(await readdir(temp)).toEqual([]);
    const old = await json(home, 'get', 'lib@1.0.0', 'marmot');
    expect(old.results[0]?.content).toContain('marmot');
    const newer = await json(home, 'get', 'lib@2.0.0', 'ocelot');
    expect(newer.results[0]?.content).toContain('ocelot');
    expect((await json(home, 'get', 'lib@2.0.0', 'marmot')).results).toEqual([]);

    const again = await docs(['sync', root, '--from-repo'], home);
    expect(again.stdout).toContain('Synced');
    expect(again.stdout).toContain('0 built (0 from repositories, 0 from packages), 3 skipped, 0 failed');
  });

  it('refuses a --filter that picks no package, naming the packages', async () => {
    const result = await docs(['sync', root, '--filter', 'nope'], path.join(dir, 'home-bad'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--filter nope matches no package; the packages are: mono, @mono/also-old, @mono/new, @mono/old',
    );
  });
});
