import { spawn } from 'node:child_process';
import { existsSync, statSync, truncateSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocumentInput, writePackage } from '@docs/store';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// A package file is data, never an instruction: real `docs` processes over real package files changed as someone
// with the sqlite3 shell would change them.

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-untrusted-'));
  home = path.join(dir, 'home');
  // No local model anywhere this process looks, no embedder configured.
  const empty = path.join(dir, 'nothing');
  await mkdir(empty);
  env = {
    ...process.env,
    DOCS_HOME: home,
    DOCS_MODELS: empty,
    HF_HOME: empty,
    HF_HUB_CACHE: empty,
    XDG_CONFIG_HOME: empty,
    DOCS_EMBED: '',
    DOCS_EMBED_URL: '',
  };
  delete env.DOCS_EMBED;
  delete env.DOCS_EMBED_URL;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs docs asynchronously: the test's own HTTP server must answer while it runs. */
function docs(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const page = (name: string): DocumentInput => ({
  path: 'middleware/cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [
    { breadcrumb: ['CORS'], level: 1, content: `Enable CORS in ${name} with the cors middleware.`, tokens: 12 },
    { breadcrumb: ['CORS', 'Options'], level: 2, content: 'Set allowed origins for CORS.', tokens: 7 },
  ],
});

/** A package file built "elsewhere", then changed by `statements` with SQLite's defensive mode off. */
async function packageFile(name: string, ...statements: string[]): Promise<string> {
  const file = path.join(dir, `${name}@1.0.0.db`);
  await writePackage(file, { name, version: '1.0.0' }, [page(name)]);
  const db = new Database(file);
  db.unsafeMode(true);
  for (const statement of statements) db.exec(statement);
  db.close();
  return file;
}

/** An embedder row naming `id`, with a 4-dimension vector for every section. */
const embedderRows = (id: string) => [
  `INSERT INTO embedder (id, dimensions) VALUES ('${id}', 4)`,
  `INSERT INTO chunk_vectors (chunk_id, vector) SELECT id, X'0000003f0000003f0000003f0000003f' FROM chunks`,
];

async function added(file: string): Promise<void> {
  const result = await docs('add', file);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

describe('a package never chooses code, a model or an endpoint', () => {
  let server: Server;
  let requests: string[];
  beforeEach(async () => {
    requests = [];
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    env.OPENAI_API_KEY = 'sk-secret-of-the-user';
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('an openai: embedder id: docs search and docs get send nothing to the endpoint, and answer lexically saying why', async () => {
    await added(await packageFile('hostile', ...embedderRows('openai:text-embedding-3-small:4')));
    await added(await packageFile('healthy'));
    for (const args of [
      ['search', 'enable cors'],
      ['get', 'hostile', 'enable cors'],
      ['get', 'hostile', 'enable cors', '--mode', 'hybrid'],
    ]) {
      const answer = await docs(...args, '--json');
      expect(answer.code, answer.stderr).toBe(0);
      const body = JSON.parse(answer.stdout);
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.retrieval.mode).toBe('lexical');
      expect(body.retrieval.notes.join('\n')).toMatch(/openai:text-embedding-3-small:4.*no embedder is configured/);
    }
    expect(requests).toEqual([]);
  });

  it('a transformers:<absolute path> id never opens that folder', async () => {
    // A model folder at the path the package names: the old way opened it and said what it lacked.
    const elsewhere = path.join(dir, 'elsewhere-model');
    await mkdir(path.join(elsewhere, 'config.json'), { recursive: true });
    await added(await packageFile('hostile', ...embedderRows(`transformers:${elsewhere}:4`)));
    const answer = await docs('get', 'hostile', 'enable cors', '--json');
    expect(answer.code, answer.stderr).toBe(0);
    const notes: string = JSON.parse(answer.stdout).retrieval.notes.join('\n');
    expect(notes).toMatch(/no embedder is configured/);
    expect(notes).not.toMatch(/lacks|could not be opened|no model folder/);
    expect(requests).toEqual([]);
  });
});

describe('derived data is derived here', () => {
  it('a corrupted index size block (FTS5 integrity-check passes) and tokens of 2^63 - 1: docs add, search and list answer', async () => {
    await added(await packageFile('sizes', "UPDATE chunks_fts_docsize SET sz = X'ff'"));
    await added(await packageFile('tokens', 'UPDATE chunks SET tokens = 9223372036854775807'));
    const search = await docs('search', 'enable cors', '--json');
    expect(search.stderr).toBe('');
    expect(search.code).toBe(0);
    expect(new Set(JSON.parse(search.stdout).results.map((r: { library: string }) => r.library))).toEqual(
      new Set(['sizes@1.0.0', 'tokens@1.0.0']),
    );
    const list = await docs('list', '--json');
    expect(list.code, list.stderr).toBe(0);
    const libraries = JSON.parse(list.stdout).libraries as { library: string; tokens: number }[];
    expect(libraries.map((l) => l.library)).toEqual(['sizes@1.0.0', 'tokens@1.0.0']);
    for (const l of libraries) expect(l.tokens).toBeLessThan(100);
  });
});

describe('a library that fails at read time is left out of that answer with a note naming it', () => {
  it('search, list and get on another library answer; get on it names it and says to rebuild; never "a bug"', async () => {
    for (const name of ['express', 'hono', 'koa', 'zod']) await added(await packageFile(name));
    const installed = (name: string) => path.join(home, `${name}@1.0.0.db`);
    // After install: the index's size block overwritten, a count set to overflow a sum, the file cut short.
    const hono = new Database(installed('hono'));
    hono.unsafeMode(true);
    hono.exec("UPDATE chunks_fts_docsize SET sz = X'ff'");
    hono.close();
    const koa = new Database(installed('koa'));
    koa.exec('UPDATE chunks SET tokens = 9223372036854775807');
    koa.close();
    truncateSync(installed('zod'), Math.floor(statSync(installed('zod')).size / 2));

    const search = await docs('search', 'enable cors');
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/express@1\.0\.0/);
    for (const name of ['hono', 'koa', 'zod']) {
      expect(search.stderr).toMatch(new RegExp(`Left out ${name}@1\\.0\\.0: ${name}@1\\.0\\.0 is damaged`));
    }
    const list = await docs('list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^express@1\.0\.0/m);
    expect(list.stderr).toMatch(/zod@1\.0\.0 is damaged/);
    expect((await docs('get', 'express', 'enable cors')).code).toBe(0);
    for (const name of ['hono', 'koa', 'zod']) {
      const get = await docs('get', name, 'enable cors');
      expect(get.code).toBe(2);
      expect(get.stderr).toMatch(new RegExp(`^docs: ${name}@1\\.0\\.0 is damaged \\(.*\\); rebuild it: docs remove`));
    }
    for (const result of [search, list]) expect(result.stderr).not.toMatch(/bug/);
  });
});
