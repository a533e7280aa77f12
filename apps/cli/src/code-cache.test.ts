import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Each run is a process of its own, as each `docs` command is: within one process V8 keeps what it compiled
// in memory, and would run a script again without reading the cache at all.
const codeCache = pathToFileURL(path.resolve(import.meta.dirname, '../dist/code-cache.js')).href;

let dir: string;
let bundle: string;
let cacheDir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-code-cache-'));
  bundle = path.join(dir, 'bundle.cjs');
  cacheDir = path.join(dir, 'cache');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A CommonJS bundle as esbuild writes one: exports, require, __filename, and a dynamic import through the loader. */
async function writeBundle(answer: number): Promise<void> {
  await writeFile(
    bundle,
    [
      `const path = require('node:path');`,
      `exports.answer = () => ${answer};`,
      'exports.where = () => path.basename(__filename) + " in " + path.basename(__dirname);',
      `exports.later = () => __docsImport('node:os').then((os) => typeof os.tmpdir);`,
    ].join('\n'),
  );
}

interface Run {
  readonly cached: boolean;
  readonly answer: number;
  readonly where: string;
  readonly later: string;
}

/** Runs the bundle in a new process as dist/bin.js does (saving the cache after), and reports what it saw. */
function run(key = 'search'): Run {
  const script = `
    import { createRequire } from 'node:module';
    import { runCachedScript } from ${JSON.stringify(codeCache)};
    const bundle = ${JSON.stringify(bundle)};
    const { exports, cached, save } = runCachedScript(bundle, {
      cacheDir: ${JSON.stringify(cacheDir)}, key: ${JSON.stringify(key)},
      require: createRequire(bundle), load: (specifier) => import(specifier),
    });
    const seen = { cached, answer: exports.answer(), where: exports.where(), later: await exports.later() };
    save();
    process.stdout.write(JSON.stringify(seen));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Run;
}

describe('runCachedScript', () => {
  it('runs a CommonJS bundle, then runs it again from the code cache it wrote', async () => {
    await writeBundle(42);
    expect(run()).toEqual({
      cached: false,
      answer: 42,
      where: `bundle.cjs in ${path.basename(dir)}`,
      later: 'function',
    });
    const [cacheFile, ...others] = await readdir(cacheDir);
    expect(others).toEqual([]);
    expect(cacheFile).toMatch(/^bundle\.cjs-search-[0-9a-f]{8}-v\d+\.\d+\.\d+-\d+-\d+\.bin$/);
    expect(run()).toMatchObject({ cached: true, answer: 42 });
    expect(await readdir(cacheDir)).toEqual([cacheFile]);
  });

  it('keeps a cache per key', async () => {
    await writeBundle(1);
    run('search');
    expect(run('get').cached).toBe(false);
    expect((await readdir(cacheDir)).map((f) => f.split('-')[1]).sort()).toEqual(['get', 'search']);
    expect(run('search').cached).toBe(true);
    expect(run('get').cached).toBe(true);
  });

  it('does not run a changed bundle with the code of the old one, and replaces the old cache', async () => {
    await writeBundle(1);
    run();
    const [old] = await readdir(cacheDir);
    // The same length (V8's own check) and a later change time: only the cache's name tells them apart.
    await writeBundle(2);
    const later = new Date(Date.now() + 5_000);
    await utimes(bundle, later, later);
    expect(run()).toMatchObject({ cached: false, answer: 2 });
    const files = await readdir(cacheDir);
    expect(files).toHaveLength(1);
    expect(files).not.toContain(old);
    expect(run()).toMatchObject({ cached: true, answer: 2 });
  });

  it("removes other bundles' caches not written for a month, and keeps recent ones", async () => {
    await writeBundle(5);
    await mkdir(cacheDir);
    const stale = path.join(cacheDir, 'bundle.cjs-search-00000000-v20.0.0-1-1.bin');
    const recent = path.join(cacheDir, 'bundle.cjs-search-11111111-v20.0.0-1-1.bin');
    await writeFile(stale, 'old');
    await writeFile(recent, 'new');
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await utimes(stale, longAgo, longAgo);
    expect(run()).toMatchObject({ cached: false, answer: 5 });
    const files = await readdir(cacheDir);
    expect(files).toContain(path.basename(recent));
    expect(files).not.toContain(path.basename(stale));
    expect(files).toHaveLength(2);
  });

  it('runs the same when the cache cannot be written', async () => {
    await writeBundle(7);
    // A file where the cache folder should be: every write fails.
    await writeFile(cacheDir, 'not a folder');
    expect(run()).toMatchObject({ cached: false, answer: 7 });
    expect(run()).toMatchObject({ cached: false, answer: 7 });
  });

  it('compiles anew when the cache is damaged', async () => {
    await writeBundle(3);
    run();
    const [cacheFile] = await readdir(cacheDir);
    await writeFile(path.join(cacheDir, String(cacheFile)), 'garbage');
    expect(run()).toMatchObject({ cached: false, answer: 3 });
    expect(run()).toMatchObject({ cached: true, answer: 3 });
  });
});
