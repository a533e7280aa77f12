import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs sync` over packages built earlier: `--from-repo` upgrades one a plain sync built from its package to its
// repository's docs, `--rebuild` builds every one again, and the package in the store is replaced only by a
// complete build. A real project with node_modules, real git repositories and the built command, all made here.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let temp: string;
let project: string;
let repo: string;
let bigRepo: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function docs(args: string[], home: string, onSpawn?: (interrupt: () => void) => void): Promise<Run> {
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
    onSpawn?.(() => child.kill('SIGINT'));
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

/** The package file's bytes, hashed: the same after a failed rebuild as before it. */
async function fingerprint(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

const origins = (result: { built: Array<{ library: string; from: string; replaced?: boolean }> }) =>
  result.built.map((b) => [b.library, b.from, b.replaced === true]);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-sync-rebuild-'));
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  // lib's repository documents "marmot" at v1.0.0; its package ships only a README.
  repo = path.join(dir, 'lib-repo');
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await write(repo, { 'docs/animals.md': `# Animals\n\n${words('The marmot option')}\n` });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'one');
  git(repo, 'tag', 'v1.0.0');
  // big's repository has docs enough that building them takes a while: time to interrupt the build.
  bigRepo = path.join(dir, 'big-repo');
  await mkdir(bigRepo);
  git(bigRepo, 'init', '-q', '-b', 'main');
  const paragraph = 'Configure the walrus pipeline with options for caching, retries and timeouts. '.repeat(40);
  await write(
    bigRepo,
    Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [
        `docs/page-${i}.md`,
        `# Page ${i}\n\n${paragraph}\n\n## Details ${i}\n\n${paragraph}\n`,
      ]),
    ),
  );
  git(bigRepo, 'add', '-A');
  git(bigRepo, 'commit', '-q', '-m', 'docs');
  git(bigRepo, 'tag', 'v2.0.0');

  project = path.join(dir, 'project');
  const dependency = (name: string, version: string, repository?: string) => ({
    [`node_modules/${name}/package.json`]: {
      name,
      version,
      description: `The ${name} library.`,
      ...(repository ? { repository: { type: 'git', url: `git+${pathToFileURL(repository).href}` } } : {}),
    },
    [`node_modules/${name}/README.md`]: `# ${name}\n\n${words(`The ${name} ${version} readme`)}\n`,
  });
  await write(project, {
    'package.json': {
      name: 'project',
      dependencies: { lib: '^1.0.0', notag: '^3.0.0', solo: '^1.0.0', typed: '^1.0.0', '@types/typed': '^1.0.0' },
    },
    ...dependency('lib', '1.0.0', repo),
    // Names lib's repository, which has no tag for 3.0.0.
    ...dependency('notag', '3.0.0', repo),
    ...dependency('solo', '1.0.0'),
    // Typed by @types/typed, which a plain sync joins to it: its source says so after its own.
    ...dependency('typed', '1.0.0', repo),
    'node_modules/typed/index.js': 'module.exports = () => {};\n',
    'node_modules/@types/typed/package.json': { name: '@types/typed', version: '1.0.4', types: 'index.d.ts' },
    'node_modules/@types/typed/index.d.ts': '/** Makes a typed thing. */\nexport declare function make(): void;\n',
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs sync over packages built earlier', () => {
  it('--from-repo rebuilds one a plain sync built from its package, and keeps it where the repository fails', async () => {
    const home = path.join(dir, 'home-upgrade');
    const plain = await json(home, 'sync', project);
    expect(origins(plain)).toEqual([
      ['lib@1.0.0', 'package', false],
      ['notag@3.0.0', 'package', false],
      ['solo@1.0.0', 'package', false],
      ['typed@1.0.0', 'package', false],
    ]);
    const sources = async () =>
      Object.fromEntries(
        (await json(home, 'list')).libraries.map((l: { library: string; source: string }) => [l.library, l.source]),
      );
    expect((await sources())['typed@1.0.0']).toBe('npm:typed@1.0.0, types from npm:@types/typed@1.0.4');
    expect((await json(home, 'get', 'lib', 'marmot')).results).toEqual([]);
    const notag = path.join(home, 'notag@3.0.0.db');
    const kept = { hash: await fingerprint(notag), mtimeMs: (await stat(notag)).mtimeMs };

    const dry = await docs(['sync', project, '--from-repo', '--dry-run'], home);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      `Would rebuild lib@1.0.0 from ${pathToFileURL(repo).href} at the first tag of lib@1.0.0, lib@v1.0.0, lib-v1.0.0, v1.0.0, 1.0.0 that exists, else keep the one built from the package`,
    );
    expect(dry.stdout).toContain(
      'Skipped solo@1.0.0: already built from the package (its package.json names no git repository)',
    );
    expect(dry.stdout).toMatch(/: 3 would be built, 2 skipped; nothing was built\n$/);

    const upgraded = await json(home, 'sync', project, '--from-repo');
    expect(origins(upgraded)).toEqual([
      ['lib@1.0.0', 'repository', true],
      ['typed@1.0.0', 'repository', true],
    ]);
    expect(upgraded.built[0].tag).toBe('v1.0.0');
    expect((await sources())['typed@1.0.0']).toMatch(
      /^file:.*#[0-9a-f]{40} path docs \(tag v1\.0\.0\), npm:typed@1\.0\.0/,
    );
    expect(upgraded.skipped).toEqual([
      { library: '@types/typed@1.0.4', reason: 'its types document typed@1.0.0' },
      {
        library: 'notag@3.0.0',
        reason: `already built from the package (no tag for 3.0.0 in ${pathToFileURL(repo).href})`,
      },
      { library: 'solo@1.0.0', reason: 'already built from the package (its package.json names no git repository)' },
    ]);
    expect(upgraded.failed).toEqual([]);
    const answer = await json(home, 'get', 'lib', 'marmot');
    expect(answer.results[0]).toMatchObject({ library: 'lib@1.0.0', path: 'docs/animals.md' });
    // The one whose repository could not be used is the package built earlier, untouched.
    expect({ hash: await fingerprint(notag), mtimeMs: (await stat(notag)).mtimeMs }).toEqual(kept);

    // Built from its repository now: skipped as already built.
    const again = await docs(['sync', project, '--from-repo'], home);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Skipped lib@1.0.0: already built\n');
    expect(again.stdout).toMatch(/: 0 built \(0 from repositories, 0 from packages\), 5 skipped, 0 failed\n$/);
    expect(await readdir(temp)).toEqual([]);
  });

  it('--rebuild builds every selected dependency again, replacing each', async () => {
    const home = path.join(dir, 'home-rebuild');
    await json(home, 'sync', project, '--from-repo');
    expect((await json(home, 'get', 'lib', 'marmot')).results).not.toEqual([]);
    const dry = await json(home, 'sync', project, '--rebuild', '--dry-run');
    expect(dry.build).toEqual([
      { library: 'lib@1.0.0', from: 'package', rebuild: true },
      { library: 'notag@3.0.0', from: 'package', rebuild: true },
      { library: 'solo@1.0.0', from: 'package', rebuild: true },
      { library: 'typed@1.0.0', from: 'package', rebuild: true },
    ]);
    const text = await docs(['sync', project, '--rebuild'], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Rebuilt lib@1\.0\.0: 1 documents/m);
    expect(text.stdout).toMatch(/: 4 built, 1 skipped, 0 failed\n$/);
    // Without --from-repo, built from the package again, as asked: the repository's page is gone.
    expect((await json(home, 'get', 'lib', 'marmot')).results).toEqual([]);
    expect((await json(home, 'list')).libraries).toHaveLength(4);
  });

  it('keeps the package built earlier when its rebuild is interrupted, leaving nothing partial', async () => {
    const home = path.join(dir, 'home-interrupted');
    const big = path.join(dir, 'project-big');
    await write(big, {
      'package.json': { name: 'project-big', dependencies: { big: '^2.0.0' } },
      'node_modules/big/package.json': {
        name: 'big',
        version: '2.0.0',
        repository: { type: 'git', url: `git+${pathToFileURL(bigRepo).href}` },
      },
      'node_modules/big/README.md': `# big\n\n${words('The big walrus readme')}\n`,
    });
    await json(home, 'sync', big);
    const file = path.join(home, 'big@2.0.0.db');
    const before = await fingerprint(file);
    const listing = await readdir(home);
    let interrupt: (() => void) | undefined;
    const run = docs(['sync', big, '--from-repo'], home, (kill) => {
      interrupt = kill;
    });
    // Interrupted mid-build: once the new package's partial file exists beside the old one.
    const started = Date.now();
    while (!(await readdir(home)).some((f) => f.endsWith('.partial')) && Date.now() - started < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    interrupt?.();
    const result = await run;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/interrupted; packages already built were kept, nothing partial was left/);
    expect(await fingerprint(file)).toBe(before);
    expect(await readdir(home)).toEqual(listing);
    expect(await readdir(temp)).toEqual([]);
    expect((await json(home, 'get', 'big', 'walrus readme')).results[0]).toMatchObject({ path: 'README.md' });
  });
});
