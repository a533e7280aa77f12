#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildPackage } from '@docs/ingest';
import { getDocs, type SearchOptions, type SearchResponse, searchAll } from '@docs/search';
import { PackageStore, parsePackageSpec } from '@docs/store';
import { type GoldEntry, type QueryScore, type RankedEntry, scoreQuery, summarise } from './metrics.js';

interface Question {
  readonly id: string;
  readonly query: string;
  readonly library: string | null;
  readonly style?: string;
  readonly gold: readonly GoldEntry[];
}

const USAGE =
  'usage: pnpm eval --corpus <dir> --queries <file.jsonl> [--out results.jsonl] [--store <dir>] [--per-query]\n' +
  '       [--weights title,headings,heading,body] [--coverage-exponent N] [--drop F] [--candidates N] [--min-section-tokens N] [--history-weight F] [--heading-boost F] [--page-weight F] [--identifier-weight F]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      queries: { type: 'string', multiple: true },
      out: { type: 'string' },
      store: { type: 'string' },
      'per-query': { type: 'boolean' },
      // Ranking options, to measure a change before it becomes a default.
      weights: { type: 'string' },
      'coverage-exponent': { type: 'string' },
      drop: { type: 'string' },
      'history-weight': { type: 'string' },
      'heading-boost': { type: 'string' },
      'page-weight': { type: 'string' },
      'identifier-weight': { type: 'string' },
      candidates: { type: 'string' },
      'min-section-tokens': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.corpus || !values.queries?.length) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const corpus = path.resolve(values.corpus);
  const home = values.store ? path.resolve(values.store) : await mkdtemp(path.join(tmpdir(), 'docs-eval-'));
  const store = new PackageStore(home);
  try {
    const minSection = values['min-section-tokens'];
    await buildCorpus(corpus, store, minSection === undefined ? {} : { minSectionTokens: Number(minSection) });
    const tuning = rankingOptions(values);
    const questions = (await Promise.all(values.queries.map(readJsonl))).flat() as Question[];
    const lines: string[] = [];
    const scored: Array<{ q: Question; s: QueryScore }> = [];
    for (const q of questions) {
      const options = { format: 'index', limit: 10, ...tuning } as const;
      const response =
        q.library === null
          ? await searchAll(store, q.query, options)
          : await getDocs(store, q.library, q.query, options);
      if (response.status !== 'ok' && response.status !== 'no-match') throw new Error(`${q.id}: ${response.message}`);
      const ranked = toRanked(response);
      lines.push(
        JSON.stringify({
          id: q.id,
          results: ranked.map(({ library, path: p, heading }) => ({ library, path: p, heading })),
        }),
      );
      scored.push({ q, s: scoreQuery(q.gold, ranked) });
    }
    if (values.out) await writeFile(values.out, `${lines.join('\n')}\n`);
    printTable(scored, values['per-query'] === true);
    return 0;
  } finally {
    await store.close();
    if (!values.store) await rm(home, { recursive: true, force: true });
  }
}

/** Builds a package for every `<name>@<version>/` folder of the corpus not already in the store. */
async function buildCorpus(corpus: string, store: PackageStore, build: { minSectionTokens?: number }): Promise<void> {
  await mkdir(store.dir, { recursive: true });
  const installed = new Set((await store.list()).map((p) => `${p.name}@${p.version}`));
  const folders = (await readdir(corpus, { withFileTypes: true })).filter(
    (e) => e.isDirectory() && e.name.includes('@'),
  );
  let bytes = 0;
  const started = performance.now();
  for (const folder of folders) {
    const { name, version } = parsePackageSpec(folder.name);
    if (!version || installed.has(folder.name)) continue;
    const summary = await buildPackage({
      root: path.join(corpus, folder.name),
      name,
      version,
      output: store.partialPath({ name, version }),
      ...build,
    });
    await store.install(summary.output, { move: true });
    bytes += summary.sourceBytes;
  }
  if (bytes > 0) {
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `built ${folders.length} packages, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s\n`,
    );
  }
}

function rankingOptions(values: Record<string, string | boolean | string[] | undefined>): SearchOptions {
  const number = (key: string) => (typeof values[key] === 'string' ? Number(values[key]) : undefined);
  const weights = typeof values.weights === 'string' ? values.weights.split(',').map(Number) : undefined;
  const options: { -readonly [K in keyof SearchOptions]: SearchOptions[K] } = {};
  if (weights)
    options.weights = {
      title: weights[0] ?? 1,
      headings: weights[1] ?? 1,
      heading: weights[2] ?? 1,
      body: weights[3] ?? 1,
    };
  const exponent = number('coverage-exponent');
  if (exponent !== undefined) options.coverageExponent = exponent;
  const drop = number('drop');
  if (drop !== undefined) options.drop = drop;
  const headingBoost = number('heading-boost');
  if (headingBoost !== undefined) options.headingBoost = headingBoost;
  const identifierWeight = number('identifier-weight');
  if (identifierWeight !== undefined) options.identifierWeight = identifierWeight;
  const pageWeight = number('page-weight');
  if (pageWeight !== undefined) options.pageWeight = pageWeight;
  const history = number('history-weight');
  if (history !== undefined) options.historyWeight = history;
  const candidates = number('candidates');
  if (candidates !== undefined) options.candidates = candidates;
  return options;
}

function toRanked(response: SearchResponse): RankedEntry[] {
  return response.results.map((r) => ({
    library: r.library,
    path: r.path,
    heading: r.breadcrumb.length > 0 ? r.breadcrumb : [r.title],
    title: r.title,
  }));
}

async function readJsonl(file: string): Promise<unknown[]> {
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);
}

function printTable(scored: ReadonlyArray<{ q: Question; s: QueryScore }>, perQuery: boolean): void {
  const groups = new Map<string, QueryScore[]>();
  const add = (name: string, s: QueryScore) => groups.set(name, [...(groups.get(name) ?? []), s]);
  for (const { q, s } of scored) {
    add('ALL', s);
    add(q.library === null ? 'scope=cross-library' : 'scope=single-library', s);
    if (q.style) add(`style=${q.style}`, s);
  }
  const names = [...groups.keys()];
  const order = [
    'ALL',
    ...names.filter((n) => n.startsWith('scope=')).sort(),
    ...names.filter((n) => n.startsWith('style=')).sort(),
  ];
  const out = ['group                    n   MRR@10  nDCG@10  recall@5  recall@10  hit@10'];
  for (const name of order) {
    const m = summarise(groups.get(name) ?? []);
    out.push(
      `${name.padEnd(22)} ${String(m.n).padStart(3)}   ${m.mrr.toFixed(3)}    ${m.ndcg.toFixed(3)}     ${m.recall5.toFixed(3)}      ${m.recall10.toFixed(3)}   ${m.hit10.toFixed(3)}`,
    );
  }
  if (perQuery) {
    for (const { q, s } of scored) {
      out.push(
        `${q.id}  ${(q.style ?? '').padEnd(8)} rank=${String(s.firstRank ?? '-').padStart(2)}  ${q.library ?? '(cross)'}: ${q.query}`,
      );
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`eval: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
