#!/usr/bin/env node
// Long fuzz runs, not a test: the test suite runs the same checks with a few
// hundred cases and a few crash trials; this runs as many as asked. Usage:
//
//   pnpm fuzz [--queries 100000] [--crashes 100] [--hostile 1000] [--seed N]
//
// 1. Queries: fast-check strings (unicode, FTS5 syntax, SQL, quotes, huge and
//    empty ones) through getDocs and searchAll over a store of generated
//    packages. Every answer must be a valid response (never an SQL error, never
//    a RangeError, never an empty answer without a reason), and its tokens
//    within budget.
// 2. Crashes: `docs add` of a generated folder, killed with SIGKILL at a random
//    point. After each kill, the next store operation must leave the store
//    with only whole packages, each passing the install checks, and no partial
//    or side file left behind.
// 3. Hostile packages: real package files changed at random (bytes, cut
//    short, rows set to numbers at the edges or to megabytes of text with
//    escapes, the full-text index's blocks, an embedder naming a path or an
//    endpoint, triggers and views), each installed beside healthy packages:
//    refused with a reason, or installed with every search over all libraries
//    still answering, within a fixed multiple of its budget in bytes.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDocs, SEARCH_DEFAULTS, type SearchResponse, searchAll } from '@docs/search';
import { type DocumentInput, inspectPackageFile, PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { commandLine } from './command-line.js';
import { fuzzHostile } from './hostile-fuzz.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'apps/cli/dist/bin.cjs'); // the bin package.json declares, as users run it

const WORDS = ['cors', 'timers', 'mock', 'query', 'schema', 'error', 'config', 'route', 'fetch', 'retry', 'stream'];

/** A package of `pages` pages, each a few sections built from the word list. */
function documents(pages: number, salt: number): DocumentInput[] {
  return Array.from({ length: pages }, (_, p) => {
    const words = (i: number) => WORDS.filter((_, w) => (w + i + salt) % 3 === 0).join(' ');
    const chunks = Array.from({ length: 4 }, (_, c) => ({
      breadcrumb: [`Page ${p}`, `Section ${c}`],
      level: 2,
      content: `${words(p + c)} ${'lorem ipsum '.repeat(1 + ((p * 7 + c) % 40))}`,
      tokens: 10 + ((p * 7 + c) % 40) * 2,
    }));
    return { path: `guide/page-${p}.md`, title: `Page ${p} ${words(p)}`, content: `# Page ${p}`, chunks };
  });
}

/** Characters and fragments that have broken search engines: FTS5 and SQL syntax, quotes, odd unicode. */
const hostile = fc.constantFrom(
  '"',
  "'",
  '*',
  '^',
  ':',
  '(',
  ')',
  'NEAR(',
  ' AND ',
  ' OR ',
  ' NOT ',
  '-',
  '--',
  ';',
  'DROP TABLE chunks;',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '😀',
  'é',
  'ﬁ',
  '\u200B',
  '{',
  '[]',
  '\\',
  '%',
  '_',
  'title:',
  'body:',
  '\n',
);
const topic = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.array(fc.oneof(fc.constantFrom(...WORDS), hostile), { maxLength: 20 }).map((parts) => parts.join(' ')),
  fc.array(fc.constantFrom(...WORDS), { minLength: 50, maxLength: 400 }).map((w) => w.join(' ')),
  fc.string({ minLength: 2000, maxLength: 20_000 }),
);
const options = fc.record(
  {
    tokens: fc.integer({ min: 0, max: 20_000 }),
    limit: fc.integer({ min: 1, max: 50 }),
    offset: fc.integer({ min: 0, max: 100 }),
    format: fc.constantFrom('full' as const, 'index' as const),
  },
  { requiredKeys: [] },
);

function check(response: SearchResponse, tokens: number | undefined): string | undefined {
  if (response.status === 'ok' && response.results.length === 0 && response.total === 0) return 'ok with no results';
  if (response.status !== 'ok' && response.message.trim() === '') return `${response.status} without a message`;
  const budget = tokens ?? SEARCH_DEFAULTS.tokens;
  if (budget > 0 && response.totalTokens > budget) return `tokens ${response.totalTokens} over budget ${budget}`;
  return undefined;
}

interface QueryFigures {
  queries: number;
  errors: number;
  sqlLeaks: number;
  invariantBroken: number;
  capped: number;
  seconds: number;
}

interface CrashFigures {
  trials: number;
  killed: number;
  leftovers: number;
  brokenPackages: number;
  msPerAdd: number;
}

async function fuzzQueries(store: PackageStore, count: number, seed: number): Promise<QueryFigures> {
  let errors = 0;
  let sqlLeaks = 0;
  let invariantBroken = 0;
  let capped = 0;
  const started = performance.now();
  // Drawn a thousand at a time: 100k topics of up to 20 KB held at once would take gigabytes.
  const batch = 1000;
  const draws = function* () {
    for (let done = 0; done < count; done += batch)
      yield* fc.sample(fc.tuple(topic, options, fc.boolean()), {
        numRuns: Math.min(batch, count - done),
        seed: seed + done,
      });
  };
  let queries = 0;
  for (const [text, opts, all] of draws()) {
    queries += 1;
    if (queries % 10_000 === 0) process.stderr.write(`${queries} queries, ${errors} errors\n`);
    try {
      const response = all ? await searchAll(store, text, opts) : await getDocs(store, 'lib-0', text, opts);
      if ((response.warnings ?? []).some((w) => w.includes('the cap'))) capped += 1;
      const problem = check(response, opts.tokens);
      if (problem) {
        invariantBroken += 1;
        if (invariantBroken <= 5)
          process.stderr.write(`invariant: ${problem} for ${JSON.stringify(text).slice(0, 120)}\n`);
      }
    } catch (error) {
      errors += 1;
      if (/sqlite|fts5/i.test(String(error))) sqlLeaks += 1;
      if (errors <= 5) process.stderr.write(`error: ${String(error)} for ${JSON.stringify(text).slice(0, 120)}\n`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { queries, errors, sqlLeaks, invariantBroken, capped, seconds: Math.round(seconds) };
}

function run(args: readonly string[], killAfterMs?: number): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'ignore' });
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

async function fuzzCrashes(work: string, trials: number, seed: number): Promise<CrashFigures> {
  const source = path.join(work, 'source');
  await mkdir(path.join(source, 'guide'), { recursive: true });
  for (let p = 0; p < 400; p++) {
    const body = Array.from({ length: 6 }, (_, s) => `## Part ${s}\n\n${WORDS.join(' ')} ${'text '.repeat(60)}`);
    await writeFile(path.join(source, 'guide', `page-${p}.md`), `# Page ${p}\n\n${body.join('\n\n')}\n`);
  }
  const home = path.join(work, 'crash-store');
  // How long a whole add takes here: kills land anywhere from start-up to the final rename.
  const timing = performance.now();
  await run(['add', source, '--name', 'crashlib', '--version', '1.0.0', '--home', home]);
  const whole = performance.now() - timing;
  const random = fc.sample(fc.double({ min: 0, max: 1.1, noNaN: true }), { numRuns: trials, seed });
  let killed = 0;
  let leftovers = 0;
  let broken = 0;
  for (const [i, fraction] of random.entries()) {
    const result = await run(
      ['add', source, '--name', 'crashlib', '--version', `1.0.${i % 3}`, '--home', home],
      fraction * whole,
    );
    if (result.signal === 'SIGKILL') killed += 1;
    // The next store operation: what a user runs after a crash.
    await run(['list', '--home', home]);
    // Package files, and the store's catalog (derived data a killed add may leave behind as it was; the test suite's
    // crash test allows it too).
    const entries = (await readdir(home)).filter((e) => e !== '.catalog');
    const stray = entries.filter((e) => !/^[^.].*@.*\.db$/.test(e));
    if (stray.length > 0) {
      leftovers += stray.length;
      process.stderr.write(`trial ${i}: left ${stray.join(', ')}\n`);
    }
    for (const entry of entries.filter((e) => e.endsWith('.db') && !e.startsWith('.'))) {
      await inspectPackageFile(path.join(home, entry)).catch((error: unknown) => {
        broken += 1;
        process.stderr.write(`trial ${i}: ${entry} is broken: ${(error as Error).message}\n`);
      });
    }
  }
  return { trials, killed, leftovers, brokenPackages: broken, msPerAdd: Math.round(whole) };
}

async function main(): Promise<void> {
  const { values } = commandLine(
    'fuzz',
    'usage: pnpm fuzz [--queries 100000] [--crashes 100] [--hostile 1000] [--seed N]',
    {
      options: {
        queries: { type: 'string', default: '100000' },
        crashes: { type: 'string', default: '100' },
        hostile: { type: 'string', default: '1000' },
        seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      },
    },
  );
  const seed = Number(values.seed);
  const work = await mkdtemp(path.join(tmpdir(), 'docs-fuzz-'));
  try {
    const store = new PackageStore(path.join(work, 'store'));
    for (let i = 0; i < 5; i++) {
      const file = path.join(work, `lib-${i}.db`);
      await writePackage(file, { name: `lib-${i}`, version: '1.0.0' }, documents(60, i));
      await store.install(file, { move: true });
    }
    const queries = await fuzzQueries(store, Number(values.queries), seed);
    await store.close();
    process.stdout.write(`queries: ${JSON.stringify(queries)}\n`);
    const crashes = await fuzzCrashes(work, Number(values.crashes), seed);
    process.stdout.write(`crashes: ${JSON.stringify(crashes)}\n`);
    const hostilePackages = await fuzzHostile(path.join(work, 'hostile'), Number(values.hostile), seed);
    process.stdout.write(`hostile: ${JSON.stringify(hostilePackages)}\n`);
    process.stdout.write(`seed: ${seed}\n`);
    const failures = queries.errors + queries.invariantBroken + crashes.leftovers + crashes.brokenPackages;
    const failed = failures + hostilePackages.failed > 0 ? 'FAILED' : 'ok';
    process.stdout.write(`${failed}\n`);
    if (failed !== 'ok') process.exitCode = 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
