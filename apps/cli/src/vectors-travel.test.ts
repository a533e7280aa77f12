import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type TestRegistry } from '../../../scripts/verdaccio.mjs';
import { runDocs } from './__tests__/registry-cli.js';
import { bin } from './__tests__/run-command.js';

// Vectors travel: a package embedded on one machine and published to a registry (verdaccio, started here) answers
// hybrid on another machine that holds the same model, with the publisher's vectors and no embedding there; on a
// machine with another model or none, it answers lexically and says why. Each machine is a store of its own; the
// models are the fixture models of @docs/embed (tiny random-weight ONNX models).

const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
const models = fileURLToPath(new URL('../../../packages/embed/fixtures', import.meta.url));
const embedderModel = path.join(models, 'tiny-embedder');
const logImports = fileURLToPath(new URL('./__fixtures__/log-imports.mjs', import.meta.url));
let registry: TestRegistry;
let root: string;
/** Machine A's store: the publisher's. */
let publisher: string;
/** A models folder holding only a copy of the tiny embedder under another name: another model, to docs. */
let otherModels: string;
/** A models folder with nothing in it. */
let noModels: string;
/** The id machine A's vectors carry: `transformers:tiny-embedder:<dims>`. */
let embedderId: string;

/** Runs docs on the store `home`: the fixture models are its models folder unless `env` names another, and no embedder or re-ranker is configured. */
function docs(home: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []) {
  return runDocs(registry, home, args, {
    env: { DOCS_MODELS: models, DOCS_EMBED: '', DOCS_RERANK: '', ...env },
    nodeArgs,
  });
}

async function json(home: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = await docs(home, [...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** A package file's vectors as stored: its embedder row, and each section's id with its vector's bytes. */
function storedVectors(file: string) {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      embedder: database.prepare('SELECT id, dimensions FROM embedder').all(),
      sections: database.prepare('SELECT id FROM chunks ORDER BY id').pluck().all(),
      vectors: database
        .prepare('SELECT chunk_id, hex(vector) AS vector FROM chunk_vectors ORDER BY chunk_id')
        .all() as { chunk_id: number; vector: string }[],
    };
  } finally {
    database.close();
  }
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  registry = await startRegistry();
  root = await mkdtemp(path.join(tmpdir(), 'docs-vectors-travel-'));
  publisher = path.join(root, 'machine-a');
  otherModels = path.join(root, 'other-models');
  noModels = path.join(root, 'no-models');
  await cp(embedderModel, path.join(otherModels, 'other-embedder'), { recursive: true });
  await mkdir(noModels);
  // The project's .npmrc names the registry: approved once, as a user who trusts it would.
  const approved = await docs(publisher, ['config', '--approve']);
  expect(approved.stdout, approved.stderr).toMatch(/Approved .*\.npmrc: its @acme:registry=http/);

  const added = await docs(publisher, ['add', path.join(fixtures, 'alpha@1.0.0'), '--embed', embedderModel]);
  expect(added.stderr).toBe('');
  expect(added.code).toBe(0);
  const id = /sections embedded with (transformers:tiny-embedder:\d+)/.exec(added.stdout)?.[1];
  if (id === undefined) throw new Error(`docs add --embed did not say which embedder: ${added.stdout}`);
  embedderId = id;
  const published = await docs(publisher, ['publish', 'alpha', '--scope', '@acme']);
  expect(published.stderr).toBe('');
  expect(published.stdout).toMatch(/^Published @acme\/docs-alpha@1\.0\.0 /);
}, 180_000);
afterAll(async () => {
  await registry?.close();
  await rm(root, { recursive: true, force: true });
});

// Each test spawns several processes, some of which load a model: slow on a busy machine, not a measure of speed.
describe('a package published with vectors', { timeout: 180_000 }, () => {
  it('installs with the publisher’s vectors, never opening a model, and answers hybrid where the same model is', async () => {
    const home = path.join(root, 'machine-b');
    // Installed with no model at hand and every module the install loads logged: installing needs no model.
    const imports = path.join(root, 'install-imports.log');
    const installed = await docs(
      home,
      ['install', 'alpha@1.0.0', '--scope', '@acme'],
      { DOCS_MODELS: noModels, DOCS_IMPORT_LOG: imports },
      ['--import', pathToFileURL(logImports).href],
    );
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toMatch(/^Installed alpha@1\.0\.0 from @acme\/docs-alpha@1\.0\.0: \d+ sections[^\n]*\n$/);
    const loaded = (await readFile(imports, 'utf8')).split('\n');
    // The log shows the bin itself (the command's code is one bundle), so it was written by this install.
    expect(loaded.some((url) => /\/apps\/cli\/dist\/bin\.cjs$/.test(url))).toBe(true);
    expect(loaded.filter((url) => /\/packages\/embed\/|@huggingface|onnxruntime/.test(url))).toEqual([]);

    // The vectors are the publisher's, row for row and byte for byte, under the same embedder and sections.
    const file = path.join(home, 'alpha@1.0.0.db');
    const published = storedVectors(path.join(publisher, 'alpha@1.0.0.db'));
    expect(published.embedder).toEqual([{ id: embedderId, dimensions: Number(embedderId.split(':').at(-1)) }]);
    expect(published.vectors.length).toBe(published.sections.length);
    expect(published.vectors.length).toBeGreaterThan(0);
    const received = storedVectors(file);
    expect(received).toEqual(published);

    // The same model is in this machine's models folder: the package's id finds it, and search answers hybrid.
    const answer = await json(home, ['get', 'alpha', 'fake timers']);
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
    expect(answer.retrieval).toEqual({ mode: 'hybrid', embedder: embedderId });
    const search = await json(home, ['search', 'fake timers']);
    expect(search.results.length).toBeGreaterThan(0);
    expect(search.retrieval).toEqual({ mode: 'hybrid', embedder: embedderId });
    // Named with --embed, the same model answers too.
    expect((await json(home, ['get', 'alpha', 'fake timers', '--embed', embedderModel])).retrieval).toEqual({
      mode: 'hybrid',
      embedder: embedderId,
    });
    // Searching embedded only the queries: the package's vectors are as installed, and no embedding was started.
    expect(storedVectors(file)).toEqual(published);
    expect((await readdir(home)).filter((f) => f.endsWith('.vectors'))).toEqual([]);
  });

  const lexically = (why: string) =>
    new RegExp(`^alpha@1\\.0\\.0 answered lexically: its vectors were made by transformers:tiny-embedder:\\d+, ${why}`);

  it.each([
    {
      machine: 'another model named with --embed',
      args: () => ['--embed', path.join(otherModels, 'other-embedder')],
      env: (): NodeJS.ProcessEnv => ({ DOCS_MODELS: otherModels }),
      note: lexically('and the embedder here is transformers:other-embedder:\\d+$'),
    },
    {
      machine: 'a re-ranker named with --embed',
      args: () => ['--embed', path.join(models, 'tiny-reranker')],
      env: (): NodeJS.ProcessEnv => ({ DOCS_MODELS: models }),
      note: lexically('and the embedder .*tiny-reranker could not be opened: .* holds a reranker .*, not an embedder$'),
    },
    {
      machine: 'another model in the models folder',
      args: () => [],
      env: (): NodeJS.ProcessEnv => ({ DOCS_MODELS: otherModels }),
      note: lexically('and no embedder is configured .* nor is a local model of that id in the models folder'),
    },
    {
      machine: 'no model at all',
      args: () => [],
      env: (): NodeJS.ProcessEnv => ({ DOCS_MODELS: noModels }),
      note: lexically('and no embedder is configured .* nor is a local model of that id in the models folder'),
    },
  ])('installed on a machine with $machine, answers lexically and says why', async ({ machine, args, env, note }) => {
    const home = path.join(root, `machine-c-${machine.replaceAll(' ', '-')}`);
    const installed = await docs(home, ['install', 'alpha@1.0.0', '--scope', '@acme'], env());
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);

    const answer = await json(home, ['get', 'alpha', 'fake timers', ...args()], env());
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
    expect(answer.retrieval).toEqual({ mode: 'lexical', notes: [expect.stringMatching(note)] });
    const search = await json(home, ['search', 'fake timers', ...args()], env());
    expect(search.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
    expect(search.retrieval).toEqual({ mode: 'lexical', notes: [expect.stringMatching(note)] });
    const text = await docs(home, ['get', 'alpha', 'fake timers', ...args()], env());
    expect(text.stdout).toMatch(
      /\nretrieval: lexical\n {2}alpha@1\.0\.0 answered lexically: its vectors were made by /,
    );
    // The vectors stay as published: a model that is missing here today may be installed tomorrow.
    expect(storedVectors(path.join(home, 'alpha@1.0.0.db'))).toEqual(
      storedVectors(path.join(publisher, 'alpha@1.0.0.db')),
    );
  });
});
