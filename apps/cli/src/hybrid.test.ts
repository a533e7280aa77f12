import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real command, a real store and the real fixture models of @docs/embed (tiny
// random-weight ONNX models loaded through transformers.js): what answered is checked,
// not how well (random weights rank nothing meaningfully).
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
const models = fileURLToPath(new URL('../../../packages/embed/fixtures', import.meta.url));
const embedderModel = path.join(models, 'tiny-embedder');
const rerankerModel = path.join(models, 'tiny-reranker');
const logImports = fileURLToPath(new URL('./__fixtures__/log-imports.mjs', import.meta.url));
let root: string;
let home: string;

function docs(args: readonly string[], env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []) {
  const result = spawnSync(process.execPath, [...nodeArgs, bin, ...args], {
    env: { ...process.env, DOCS_HOME: home, DOCS_EMBED: '', DOCS_RERANK: '', DOCS_MODELS: models, ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = docs([...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** A folder of `pages` markdown pages with a few sections each, for an embedding that takes a while. */
async function manyPages(dir: string, pages: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (let p = 0; p < pages; p++) {
    const sections = Array.from(
      { length: 6 },
      (_, s) =>
        `## Topic ${p}-${s}\n\nSection ${s} of page ${p} explains option number ${p * 6 + s}, how it is configured, what its default is and when a project would change it.`,
    );
    await writeFile(path.join(dir, `page-${p}.md`), `# Page ${p}\n\n${sections.join('\n\n')}\n`);
  }
  return dir;
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  root = await mkdtemp(path.join(tmpdir(), 'docs-hybrid-cli-'));
  home = path.join(root, 'home');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// Each test spawns several processes that load a model: slow on a busy machine, not a measure of speed.
describe('hybrid retrieval through the docs command', { timeout: 180_000 }, () => {
  it('adds a folder with --embed, then get --mode hybrid --rerank says what answered', () => {
    const added = docs(['add', path.join(fixtures, 'alpha@1.0.0'), '--embed', embedderModel]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added alpha@1\.0\.0: 2 documents/);
    expect(added.stdout).toMatch(/sections embedded with transformers:tiny-embedder:\d+/);

    const text = docs([
      'get',
      'alpha',
      'how do I control time in tests',
      '--mode',
      'hybrid',
      '--rerank',
      rerankerModel,
    ]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /\nretrieval: hybrid \(embedder transformers:tiny-embedder:\d+, re-ranked by transformers:tiny-reranker\)\n$/,
    );
    const answer = json([
      'get',
      'alpha',
      'how do I control time in tests',
      '--mode',
      'hybrid',
      '--rerank',
      rerankerModel,
    ]);
    expect(answer.status).toBe('ok');
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.retrieval).toEqual({
      mode: 'hybrid',
      embedder: expect.stringMatching(/^transformers:tiny-embedder:\d+$/),
      reranker: 'transformers:tiny-reranker',
    });
    // Lexical asked for: no vectors read, and nothing more said.
    expect(json(['get', 'alpha', 'fake timers', '--mode', 'lexical']).retrieval).toEqual({ mode: 'lexical' });
  });

  it('a package embedded with a model this machine lacks answers lexically, and says so', () => {
    const answer = json(['get', 'alpha', 'fake timers'], { DOCS_MODELS: path.join(root, 'no-models-here') });
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0' });
    expect(answer.retrieval.mode).toBe('lexical');
    expect(answer.retrieval.notes).toEqual([
      expect.stringMatching(
        /^alpha@1\.0\.0 answered lexically: its vectors were made by transformers:tiny-embedder:\d+, and no embedder is configured .* nor is a local model of that id in the models folder/,
      ),
    ]);
    const text = docs(['get', 'alpha', 'fake timers'], { DOCS_MODELS: path.join(root, 'no-models-here') });
    expect(text.stdout).toMatch(/\nretrieval: lexical\n {2}alpha@1\.0\.0 answered lexically: /);
  });

  it('docs search without models loads neither @docs/embed nor transformers; a hybrid one does', async () => {
    expect(docs(['add', path.join(fixtures, 'beta@2.0.0')]).code).toBe(0);
    const imports = path.join(root, 'imports.log');
    const hook = ['--import', pathToFileURL(logImports).href];
    const loaded = async () => (await readFile(imports, 'utf8').catch(() => '')).split('\n');
    const lexical = docs(['search', 'enable CORS', '--library', 'beta', '--json'], { DOCS_IMPORT_LOG: imports }, hook);
    expect(lexical.code).toBe(0);
    const lexicalImports = await loaded();
    // The search code is one CommonJS bundle (scripts/bundle.mjs) that the bin runs through its code cache: the log
    // shows the bin itself, so it was written by this command.
    expect(lexicalImports.some((url) => /\/apps\/cli\/dist\/bin\.cjs$/.test(url))).toBe(true);
    expect(lexicalImports.filter((url) => /\/packages\/embed\/|@huggingface|onnxruntime/.test(url))).toEqual([]);
    await rm(imports, { force: true });
    // The same check sees the model code when it is used, so it can fail.
    const hybrid = docs(
      ['get', 'alpha', 'fake timers', '--mode', 'hybrid', '--json'],
      { DOCS_IMPORT_LOG: imports },
      hook,
    );
    expect(hybrid.code).toBe(0);
    expect((await loaded()).some((url) => url.includes('/packages/embed/'))).toBe(true);
  });

  it('refuses a package of format 2 by name, saying to rebuild it', () => {
    expect(docs(['add', path.join(fixtures, 'beta@2.0.0'), '--name', 'old', '--version', '1.0.0']).code).toBe(0);
    const raw = new Database(path.join(home, 'old@1.0.0.db'));
    raw.pragma('user_version = 2');
    raw.close();
    const get = docs(['get', 'old', 'enable CORS']);
    expect(get.code).toBe(2);
    expect(get.stderr).toBe(
      'docs: old@1.0.0 has package format version 2, and this docs reads version 3: it was built by an older docs; rebuild it\n',
    );
    expect(docs(['embed', 'old', '--embed', embedderModel]).stderr).toMatch(/format version 2.*rebuild it/);
    expect(docs(['remove', 'old']).code).toBe(0);
  });

  it('docs embed asks which embedder, and refuses unknown libraries', () => {
    expect(docs(['embed', 'beta']).stderr).toMatch(/^docs: say which embedder to use: --embed/);
    expect(docs(['embed', 'nope', '--embed', embedderModel]).stderr).toMatch(/^docs: Library "nope" is not installed/);
    expect(docs(['embed', '--embed', embedderModel]).stderr).toMatch(/say which libraries to embed, or --all/);
  });

  it('docs embed killed midway carries on when run again, and ends identical to an uninterrupted run', async () => {
    const source = await manyPages(path.join(root, 'many@1.0.0'), 60);
    const built = path.join(root, 'built');
    expect(docs(['add', source, '--save', built]).code).toBe(0);
    const packageFile = path.join(built, 'many@1.0.0.db');
    const sections = (
      new Database(packageFile, { readonly: true }).prepare('SELECT count(*) AS n FROM chunks').get() as {
        n: number;
      }
    ).n;
    expect(sections).toBeGreaterThan(300);

    // The same package file in two stores: one embedded in one go, one killed and resumed.
    const straight = path.join(root, 'straight');
    const interrupted = path.join(root, 'interrupted');
    for (const store of [straight, interrupted]) {
      await mkdir(store, { recursive: true });
      await copyFile(packageFile, path.join(store, 'many@1.0.0.db'));
    }
    expect(docs(['embed', 'many', '--embed', embedderModel], { DOCS_HOME: straight }).code).toBe(0);

    const child = spawn(process.execPath, [bin, 'embed', 'many', '--embed', embedderModel, '--batch-size', '4'], {
      env: { ...process.env, DOCS_HOME: interrupted, DOCS_EMBED: '', DOCS_MODELS: models },
      stdio: 'ignore',
    });
    const done = await killWhenPartlyDone(child, interrupted, sections);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(sections);
    // Meanwhile the package answers, lexically, as it did.
    const meanwhile = json(['get', 'many', 'option number 42'], { DOCS_HOME: interrupted });
    expect(meanwhile.results[0]).toMatchObject({ library: 'many@1.0.0' });
    expect(meanwhile.retrieval).toEqual({ mode: 'lexical' });

    const resumed = docs(['embed', 'many', '--embed', embedderModel], { DOCS_HOME: interrupted });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`carrying on from ${done} done before`));
    expect((await readdir(interrupted)).filter((f) => f !== '.catalog')).toEqual(['many@1.0.0.db']);
    const digest = async (file: string) =>
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    expect(await digest(path.join(interrupted, 'many@1.0.0.db'))).toBe(
      await digest(path.join(straight, 'many@1.0.0.db')),
    );
    expect(docs(['embed', 'many', '--embed', embedderModel], { DOCS_HOME: interrupted }).stdout).toMatch(
      /^many@1\.0\.0 already has vectors from transformers:tiny-embedder:\d+\n$/,
    );
  });
});

/** Waits until the embedding has committed some batches (read from its work file), then kills it with SIGKILL. */
async function killWhenPartlyDone(child: ChildProcess, store: string, total: number): Promise<number> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      const work = (await readdir(store)).find((f) => f.endsWith('.vectors'));
      if (work) {
        const done = countRows(path.join(store, work));
        if (done >= 8 && done < total) {
          child.kill('SIGKILL');
          await exited;
          return countRows(path.join(store, work));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the embedding never got going');
  } finally {
    child.kill('SIGKILL');
  }
}

function countRows(file: string): number {
  try {
    // Read-write: after a kill, opening rolls back the batch that was being written, as the next run will.
    const db = new Database(file, { fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM vectors').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}
