import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real command, a real store and @docs/embed's real fixture embedder (a tiny random-weight ONNX model loaded
// through transformers.js): `docs add` with an embedder configured ends with hybrid answers, made by a detached
// worker, with no other command. What answered is checked, not how well.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
const models = fileURLToPath(new URL('../../../packages/embed/fixtures', import.meta.url));
let root: string;

function docs(home: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home, DOCS_EMBED: 'tiny-embedder', DOCS_RERANK: '', DOCS_MODELS: models, ...env },
    encoding: 'utf8',
    cwd: root,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(home: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = docs(home, [...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

const ask = (home: string) => json(home, ['get', 'alpha', 'how do I control time in tests']).retrieval;

/** Asks until `done` holds (the detached worker needs a model load and a few batches), for at most a minute. */
async function until<T>(what: () => T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = what();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  root = await mkdtemp(path.join(tmpdir(), 'docs-background-vectors-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// Each test starts processes that load a model: slow on a busy machine, not a measure of speed.
describe('vectors made in the background after docs add', { timeout: 120_000 }, () => {
  it('a plain docs add with an embedder configured leads to hybrid answers, and the worker ends', async () => {
    const home = path.join(root, 'plain');
    const added = json(home, ['add', path.join(fixtures, 'alpha@1.0.0')]);
    expect(added.vectors).toMatchObject({ embedder: 'tiny-embedder', worker: 'started' });
    expect(added.vectors.pid).toBeGreaterThan(0);

    const retrieval = await until(
      () => ask(home),
      (r) => r.mode === 'hybrid',
    );
    expect(retrieval).toEqual({ mode: 'hybrid', embedder: expect.stringMatching(/^transformers:tiny-embedder:\d+$/) });
    // Done: the status and the lock are gone, the log says what it did.
    await until(
      () => existsSync(path.join(home, '.vectors-worker.json')) || existsSync(path.join(home, '.@vectors@build.lock')),
      (left) => !left,
    );
    expect(existsSync(path.join(home, '.vectors-worker.json'))).toBe(false);
    expect(existsSync(path.join(home, '.@vectors@build.lock'))).toBe(false);
    expect(await readFile(path.join(home, '.vectors-worker.log'), 'utf8')).toMatch(
      /alpha@1\.0\.0: 4 sections with transformers:tiny-embedder/,
    );

    // Nothing left to embed: a second add of a package with vectors starts no worker.
    const again = json(home, ['add', path.join(fixtures, 'alpha@1.0.0', '..', 'beta@2.0.0'), '--no-embed']);
    expect(again.vectors).toBeUndefined();
  });

  it('--no-embed and backgroundVectors: false start no worker; without an embedder nothing is said', () => {
    const home = path.join(root, 'opted-out');
    const added = json(home, ['add', path.join(fixtures, 'alpha@1.0.0'), '--no-embed']);
    expect(added.vectors).toBeUndefined();
    const configured = json(home, ['add', path.join(fixtures, 'beta@2.0.0')], { DOCS_BACKGROUND_VECTORS: 'false' });
    expect(configured.vectors).toEqual({
      embedder: 'tiny-embedder',
      skipped: expect.stringMatching(/backgroundVectors/),
    });
    const none = json(home, ['add', path.join(fixtures, 'alpha@1.0.0')], { DOCS_EMBED: '' });
    expect(none.vectors).toBeUndefined();
    expect(existsSync(path.join(home, '.vectors-worker.log'))).toBe(false);
    expect(ask(home)).toEqual({ mode: 'lexical' });
  });

  it('one worker per store: while one holds the lock, add starts none and a second worker leaves at once', async () => {
    const home = path.join(root, 'locked');
    expect(json(home, ['add', path.join(fixtures, 'alpha@1.0.0'), '--no-embed']).vectors).toBeUndefined();
    // This test process plays the running worker: it holds the lock and says it embeds alpha, half done.
    await writeFile(path.join(home, '.@vectors@build.lock'), String(process.pid));
    const status = {
      pid: process.pid,
      embedder: 'transformers:tiny-embedder:32',
      current: { file: 'alpha@1.0.0.db', done: 2, total: 4 },
      waiting: ['beta@2.0.0.db'],
      failed: [],
    };
    await writeFile(path.join(home, '.vectors-worker.json'), JSON.stringify(status));

    const added = json(home, ['add', path.join(fixtures, 'beta@2.0.0')]);
    expect(added.vectors).toEqual({ embedder: 'tiny-embedder', worker: 'running', pid: process.pid });
    expect(ask(home)).toEqual({
      mode: 'lexical',
      notes: ['alpha@1.0.0 answered lexically: vectors being made: 50% (transformers:tiny-embedder:32)'],
    });
    const text = docs(home, ['get', 'beta', 'enable CORS']);
    expect(text.stdout).toMatch(/beta@2\.0\.0 answered lexically: vectors waiting to be made/);

    const second = docs(home, ['embed', '--worker', '--embed', 'tiny-embedder']);
    expect(second.code).toBe(0);
    expect(ask(home).mode).toBe('lexical');
    expect(JSON.parse(await readFile(path.join(home, '.vectors-worker.json'), 'utf8'))).toEqual(status);

    // The lock let go, a worker run in the foreground embeds both and clears the status.
    await rm(path.join(home, '.@vectors@build.lock'));
    const worker = docs(home, ['embed', '--worker', '--embed', 'tiny-embedder']);
    expect(worker.code).toBe(0);
    expect(worker.stdout).toMatch(/alpha@1\.0\.0: 4 sections/);
    expect(worker.stdout).toMatch(/beta@2\.0\.0: \d+ sections/);
    expect(ask(home).mode).toBe('hybrid');
    expect(existsSync(path.join(home, '.vectors-worker.json'))).toBe(false);
  });

  it('a model that cannot be opened: the answer says the vectors could not be made, and the package answers', () => {
    const home = path.join(root, 'missing-model');
    const added = json(home, ['add', path.join(fixtures, 'alpha@1.0.0'), '--no-embed']);
    expect(added.vectors).toBeUndefined();
    const worker = docs(home, ['embed', '--worker', '--embed', 'no-such-model']);
    expect(worker.code).toBe(0);
    expect(worker.stdout).toMatch(/cannot open the embedder no-such-model: no local model "no-such-model"/);
    const retrieval = ask(home);
    expect(retrieval.mode).toBe('lexical');
    expect(retrieval.notes).toEqual([
      expect.stringMatching(
        /^alpha@1\.0\.0 answered lexically: its vectors could not be made with no-such-model: .*\(run docs embed alpha\)$/,
      ),
    ]);
  });

  it('docs sync does the same for the dependencies it builds, and --no-embed makes none', async () => {
    const project = path.join(root, 'project');
    const dep = path.join(project, 'node_modules', 'clock-kit');
    await mkdir(dep, { recursive: true });
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'clock-kit': '1.2.0' } }),
    );
    await writeFile(path.join(dep, 'package.json'), JSON.stringify({ name: 'clock-kit', version: '1.2.0' }));
    await writeFile(
      path.join(dep, 'README.md'),
      '# clock-kit\n\nControl time in tests.\n\n## Fake timers\n\nCall `useFakeTimers()` to control time in tests.\n',
    );

    const optedOut = path.join(root, 'sync-opted-out');
    const plain = json(optedOut, ['sync', project, '--no-embed']);
    expect(plain.built).toHaveLength(1);
    expect(plain.vectors).toBeUndefined();

    const home = path.join(root, 'sync');
    const synced = json(home, ['sync', project]);
    expect(synced.built).toHaveLength(1);
    expect(synced.vectors).toMatchObject({ embedder: 'tiny-embedder', worker: 'started' });
    const hybrid = await until(
      () => json(home, ['get', 'clock-kit', 'control time in tests']).retrieval,
      (r) => r.mode === 'hybrid',
    );
    expect(hybrid.mode).toBe('hybrid');
    // The earlier store, synced again with the embedder: nothing to build, but its package gets vectors.
    const again = json(optedOut, ['sync', project]);
    expect(again.built).toHaveLength(0);
    expect(again.vectors).toMatchObject({ worker: 'started' });
    const later = await until(
      () => json(optedOut, ['get', 'clock-kit', 'control time in tests']).retrieval,
      (r) => r.mode === 'hybrid',
    );
    expect(later.mode).toBe('hybrid');
  });
});
