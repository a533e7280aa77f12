import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '@docs/ingest';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs add` runs one bundle (dist/bundle-add.cjs: the build, its parser and gpt-tokenizer inlined, the o200k ranks
// read from JSON written at bundle time) through V8's code cache. Whatever it runs from, the package must be the one
// @docs/ingest builds from its own modules: the same sections, text and token counts.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const addBundle = fileURLToPath(new URL('../dist/bundle-add.cjs', import.meta.url));
let work: string;
let folder: string;
let expected: Rows;

/** Every document and chunk of a package file, build time left out. */
interface Rows {
  readonly documents: unknown[];
  readonly chunks: unknown[];
}

function rowsOf(file: string): Rows {
  const db = new Database(file, { readonly: true });
  try {
    return {
      documents: db.prepare('select * from documents order by id').all(),
      chunks: db.prepare('select * from chunks order by id').all(),
    };
  } finally {
    db.close();
  }
}

/** `docs add` of the folder into a new store, with `cache` as the user's cache folder; the package's rows. */
function add(cache: string): Rows {
  const home = path.join(work, `store-${Math.random().toString(36).slice(2)}`);
  const result = spawnSync(process.execPath, [bin, 'add', folder, '--no-embed'], {
    env: { ...process.env, DOCS_HOME: home, XDG_CACHE_HOME: cache, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  expect(result.stderr.slice(0, 2000)).toBe('');
  expect(result.status).toBe(0);
  return rowsOf(path.join(home, 'tokens@1.0.0.db'));
}

const codeCaches = async (cache: string) => readdir(path.join(cache, 'docs', 'code-cache'));

beforeAll(async () => {
  if (!existsSync(bin) || !existsSync(addBundle)) throw new Error('dist/bundle-add.cjs is missing: run pnpm build');
  work = await mkdtemp(path.join(tmpdir(), 'docs-add-bundle-'));
  folder = path.join(work, 'tokens@1.0.0');
  await mkdir(path.join(folder, 'guide'), { recursive: true });
  // Text whose o200k counts take every path of the tokenizer: words in the table, merges of rare pieces, byte-level
  // tokens (emoji, CJK, a lone combining mark), a special token quoted as text; front matter (yaml); an HTML page
  // (the DOM and turndown); a long section cut at the token budget.
  await writeFile(
    path.join(folder, 'index.md'),
    [
      '---\ntitle: Tokens\ndescription: counting\n---',
      '# Tokens\n\nCounting with o200k_base: `<|endoftext|>` and <|im_start|> are plain text here.',
      '## Scripts\n\nПривет, мир. こんにちは世界。 مرحبا بالعالم. 🚀🧪👩‍👩‍👧‍👦 e\u0301 \u0000 tab\there.',
      `## Long\n\n${Array.from({ length: 400 }, (_, i) => `Sentence ${i} about retries, xyzzyplugh${i} and timeouts.`).join(' ')}`,
      '## Code\n\n```ts\nconst x: Map<string, number> = new Map(); // ünïcödé\n```',
    ].join('\n\n'),
  );
  await writeFile(
    path.join(folder, 'guide', 'page.html'),
    '<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>An HTML page with <code>code</code> and naïve café text.</p><h2>More</h2><p>Ωmega ≠ omega.</p></main></body></html>',
  );
  const output = path.join(work, 'expected.db');
  await buildPackage({ root: folder, name: 'tokens', version: '1.0.0', output, workers: 0 });
  expected = rowsOf(output);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('docs add, bundled', () => {
  it('builds the package @docs/ingest builds, first compiling, then from its code cache', async () => {
    const cache = path.join(work, 'cache');
    expect(expected.chunks.length).toBeGreaterThan(4);
    expect(add(cache)).toEqual(expected);
    const [written, ...others] = await codeCaches(cache);
    expect(others).toEqual([]);
    expect(written).toMatch(/^bundle-add\.cjs-add-/);
    expect(add(cache)).toEqual(expected);
  });

  it('builds the same package when its code cache is damaged or foreign', async () => {
    const cache = path.join(work, 'damaged');
    add(cache);
    const [written] = await codeCaches(cache);
    const file = path.join(cache, 'docs', 'code-cache', String(written));
    await writeFile(file, 'garbage');
    expect(add(cache)).toEqual(expected);
    // A cache V8 wrote for another script: the same name, someone else's code.
    const vm = await import('node:vm');
    await writeFile(file, new vm.Script('(function () { return 1; })').createCachedData());
    expect(add(cache)).toEqual(expected);
  });

  it("finds the build workers' script through @docs/ingest, not beside the bundle", () => {
    // Resolved as the bundle resolves it at run time, in a plain Node (the tests' own resolve @docs/* to src/).
    const resolved = spawnSync(
      process.execPath,
      [
        '-e',
        `process.stdout.write(require('node:module').createRequire(${JSON.stringify(addBundle)}).resolve('@docs/ingest'))`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(resolved.stderr).toBe('');
    expect(existsSync(path.join(path.dirname(resolved.stdout), 'process-worker.js'))).toBe(true);
    expect(existsSync(path.join(path.dirname(addBundle), 'process-worker.js'))).toBe(false);
  });
});
