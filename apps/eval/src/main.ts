#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Embedder } from '@docs/embed';
import { buildPackage, embedPackage } from '@docs/ingest';
import {
  getDocs,
  heldModels,
  NUMERIC_KNOBS,
  type NumericKnob,
  type RankingConfig,
  type SearchOptions,
  type SearchResponse,
  searchAll,
} from '@docs/search';
import { PackageStore, parsePackageSpec } from '@docs/store';
import { AnswerSizes, parseBudgets } from './answer-sizes.js';
import { type GoldEntry, isHit, type QueryScore, type RankedEntry, scoreQuery, summarise } from './metrics.js';
import { type GradedPage, type PageScore, pageKey, scorePages } from './pages.js';
import { readAlternatives, withAlternatives } from './phrasings.js';
import { runProject } from './project.js';
import { weakMatchCheck } from './weak.js';

interface Question {
  readonly id: string;
  readonly query: string;
  readonly library: string | null;
  readonly style?: string;
  readonly gold: readonly GoldEntry[];
}

/** The usage line; the ranking knobs' flags come from the search's table of knobs (RANKING_KNOBS). */
function usage(): string {
  const knobs = [...NUMBER_FLAGS.keys()].map((flag) => `[--${flag} N]`).join(' ');
  return (
    'usage: pnpm eval --corpus <dir> --queries <file.jsonl> [--external <dir>] [--out results.jsonl] [--external-out run.jsonl] [--store <dir>] [--per-query]\n' +
    '       [--min-section-tokens N] [--max-section-tokens N] [--embed <model>] [--rerank <model>] [--mode lexical|hybrid]\n' +
    '       [--alternatives <file.jsonl>]... [--weak-check] [--budgets 1000,2000,4000]\n' +
    `       ranking: [--weights title,headings,heading,body] [--no-synonyms] [--fusion convex|rrf] ${knobs}\n` +
    '       pnpm eval --project <dir> [--questions <file.jsonl>] [--out results.json] [--store <dir>] [--embed <model>] [--tokens N] [ranking flags]\n' +
    '       (what `docs sync --dev` builds for the project, timed, then its questions; default <dir>/questions.jsonl)'
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      queries: { type: 'string', multiple: true },
      // A real project: what `docs sync --dev` builds for it, asked its questions (default <dir>/questions.jsonl).
      project: { type: 'string' },
      questions: { type: 'string' },
      out: { type: 'string' },
      external: { type: 'string' },
      'external-out': { type: 'string' },
      store: { type: 'string' },
      'per-query': { type: 'boolean' },
      // {"id", "alternatives": [...]} per question: run each question with its phrasings.
      alternatives: { type: 'string', multiple: true },
      // Also ask every question with its libraries removed, to measure the weak-match flag.
      'weak-check': { type: 'boolean' },
      // The token budgets at which to measure whether the full answer holds a correct section (default: the default).
      budgets: { type: 'string' },
      // A real project's answers at another token budget than the default.
      tokens: { type: 'string' },
      // Ranking options, to measure a change before it becomes a default.
      weights: { type: 'string' },
      ...Object.fromEntries([...NUMBER_FLAGS.keys()].map((flag) => [flag, { type: 'string' } as const])),
      'no-synonyms': { type: 'boolean' },
      // Hybrid retrieval: packages get vectors from this embedder, searches use it (and the re-ranker).
      embed: { type: 'string' },
      rerank: { type: 'string' },
      mode: { type: 'string' },
      fusion: { type: 'string' },
      'min-section-tokens': { type: 'string' },
      'max-section-tokens': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || ((!values.corpus || !values.queries?.length) && !values.external && !values.project)) {
    process.stderr.write(`${usage()}\n`);
    return values.help ? 0 : 2;
  }
  if (values.project) {
    const models = await openRetrieval(values);
    try {
      return await runProject({
        project: values.project,
        ...(values.questions ? { questions: values.questions } : {}),
        ...(values.out ? { out: values.out } : {}),
        ...(values.store ? { store: values.store } : {}),
        search: { ...rankingOptions(values), ...models.options, ...tokenBudget(values.tokens) },
        ...(models.embedder ? { embed: (store: PackageStore) => embedAll(store, models.embedder as Embedder) } : {}),
      });
    } finally {
      await models.close();
    }
  }
  const corpus = values.corpus ? path.resolve(values.corpus) : undefined;
  const home = values.store ? path.resolve(values.store) : await mkdtemp(path.join(tmpdir(), 'docs-eval-'));
  const store = new PackageStore(home);
  const retrieval = await openRetrieval(values);
  try {
    const build = sectionOptions(values['min-section-tokens'], values['max-section-tokens']);
    const budgets = parseBudgets(values.budgets);
    const tuning: SearchOptions = { ...rankingOptions(values), ...retrieval.options };
    const phrasings = await readAlternatives(values.alternatives ?? []);
    if (values.external) {
      // Its own store: its libraries overlap the corpus's at other versions (fastapi).
      const externalStore = new PackageStore(path.join(home, 'external'));
      try {
        await runExternal(
          path.resolve(values.external),
          externalStore,
          build,
          tuning,
          values['external-out'],
          retrieval.embedder,
          phrasings,
          values['weak-check'] === true,
          budgets,
        );
      } finally {
        await externalStore.close();
      }
    }
    if (!corpus || !values.queries?.length) return 0;
    await buildCorpus(corpus, store, build, retrieval.embedder);
    const questions = (await Promise.all(values.queries.map(readJsonl))).flat() as Question[];
    const lines: string[] = [];
    const scored: Array<{ q: Question; s: QueryScore }> = [];
    const sizes = new AnswerSizes();
    for (const q of questions) {
      const options = withAlternatives({ format: 'index', limit: 10, ...tuning } as const, phrasings, q.id);
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
      // What an agent receives: the full format, within each budget measured.
      for (const tokens of budgets) {
        const fullOptions = withAlternatives({ ...tuning, tokens }, phrasings, q.id);
        const full =
          q.library === null
            ? await searchAll(store, q.query, fullOptions)
            : await getDocs(store, q.library, q.query, fullOptions);
        // A result that joined adjacent sections holds each of them.
        const held = full.results.flatMap((r) =>
          (r.sections ?? [r.breadcrumb]).map((breadcrumb) => ({
            library: r.library,
            path: r.path,
            title: r.title,
            heading: breadcrumb.length > 0 ? breadcrumb : [r.title],
          })),
        );
        sizes.record(
          tokens,
          held.some((r) => q.gold.some((g) => isHit(r, g))),
          full.totalTokens,
        );
      }
    }
    if (values.out) await writeFile(values.out, `${lines.join('\n')}\n`);
    printTable(scored, values['per-query'] === true);
    // The set's name as the lines below print it: its file's name without `queries-` and `.jsonl` (dev, unbiased…).
    const setName = values.queries
      .map((file) => path.basename(file, '.jsonl').replace(/^queries-?/, '') || path.basename(path.dirname(file)))
      .join(' + ');
    if (values['weak-check']) {
      await weakMatchCheck(
        setName,
        store,
        questions.map((q) => ({
          id: q.id,
          query: q.query,
          library: q.library,
          libraries: [...new Set(q.gold.map((g) => g.library))],
        })),
        (id) => withAlternatives({ format: 'index', limit: 10, ...tuning } as const, phrasings, id),
      );
    }
    process.stdout.write(`\n${sizes.lines(setName).join('\n')}\n`);
    return 0;
  } finally {
    await retrieval.close();
    await store.close();
    if (!values.store) await rm(home, { recursive: true, force: true });
  }
}

/** `--tokens N`: the answers' token budget, a whole number ≥ 0 (0: none). */
function tokenBudget(tokens: string | undefined): { tokens?: number } {
  if (tokens === undefined) return {};
  const n = Number(tokens);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--tokens must be a whole number ≥ 0, not ${tokens}`);
  return { tokens: n };
}

/**
 * The models `--embed` and `--rerank` name, opened once, and the search
 * options that use them. Without them the evaluation is the lexical one, unchanged.
 */
async function openRetrieval(values: {
  embed?: string | undefined;
  rerank?: string | undefined;
  mode?: string | undefined;
}): Promise<{ embedder?: Embedder; options: SearchOptions; close(): Promise<void> }> {
  const mode = values.mode as SearchOptions['mode'];
  const extra: SearchOptions = mode ? { mode } : {};
  if (!values.embed && !values.rerank) return { options: extra, close: async () => {} };
  const { openEmbedder, openReranker } = await import('@docs/embed');
  const embedder = values.embed ? await openEmbedder(values.embed) : undefined;
  const reranker = values.rerank ? await openReranker(values.rerank) : undefined;
  process.stderr.write(
    `retrieval: ${embedder ? `embedder ${embedder.id}` : 'lexical'}${reranker ? `, re-ranker ${reranker.id}` : ''}\n`,
  );
  return {
    ...(embedder ? { embedder } : {}),
    options: {
      ...extra,
      models: heldModels({ ...(embedder ? { embedder } : {}), ...(reranker ? { reranker } : {}) }),
    },
    async close() {
      await embedder?.close();
      await reranker?.close();
    },
  };
}

/** Builds a package for every `<name>@<version>/` folder of the corpus not already in the store. */
async function buildCorpus(
  corpus: string,
  store: PackageStore,
  build: SectionOptions,
  embedder: Embedder | undefined,
): Promise<void> {
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
  if (embedder) await embedAll(store, embedder);
}

/** Vectors for every package of the store; a kept store (--store) keeps its vectors: a package that has this embedder's is skipped. */
async function embedAll(store: PackageStore, embedder: Embedder): Promise<void> {
  let sections = 0;
  const embedStarted = performance.now();
  for (const pkg of await store.list()) {
    sections += (await embedPackage(store, pkg, embedder)).embedded;
  }
  if (sections > 0) {
    const seconds = (performance.now() - embedStarted) / 1000;
    process.stderr.write(`embedded ${sections} sections with ${embedder.id} in ${seconds.toFixed(1)} s\n`);
  }
}

interface ExternalQuery {
  readonly id: string;
  readonly query: string;
  readonly library: string;
  readonly intent?: string;
  readonly gold: readonly GradedPage[];
}

/**
 * The external benchmark: its libraries built like the corpus, every query
 * answered within its library (index format, limit 10), scored per page.
 */
async function runExternal(
  dir: string,
  store: PackageStore,
  build: SectionOptions,
  tuning: SearchOptions,
  out: string | undefined,
  embedder: Embedder | undefined,
  phrasings: ReadonlyMap<string, readonly string[]>,
  weakCheck: boolean,
  budgets: readonly number[],
): Promise<void> {
  await buildCorpus(dir, store, build, embedder);
  const sizes = new AnswerSizes();
  const queries = (await readJsonl(path.join(dir, 'qrels.jsonl'))) as ExternalQuery[];
  const lines: string[] = [];
  const scores: Array<{ q: ExternalQuery; s: PageScore }> = [];
  for (const q of queries) {
    const response = await getDocs(
      store,
      q.library,
      q.query,
      withAlternatives({ format: 'index', limit: 10, ...tuning }, phrasings, q.id),
    );
    if (response.status !== 'ok' && response.status !== 'no-match') throw new Error(`${q.id}: ${response.message}`);
    lines.push(
      JSON.stringify({
        id: q.id,
        results: response.results.map((r) => ({ library: r.library, path: r.path, heading: r.heading })),
      }),
    );
    scores.push({
      q,
      s: scorePages(
        q.gold,
        response.results.map((r) => r.path),
      ),
    });
    // The labels are pages: a canonical or related one (grade 2 or 3) among the answer's results, with its content.
    const relevant = new Set(q.gold.filter((g) => g.grade >= 2).map((g) => pageKey(g.path)));
    for (const tokens of budgets) {
      const full = await getDocs(store, q.library, q.query, withAlternatives({ ...tuning, tokens }, phrasings, q.id));
      sizes.record(
        tokens,
        full.results.some((r) => r.content !== undefined && relevant.has(pageKey(r.path))),
        full.totalTokens,
      );
    }
  }
  if (out) await writeFile(out, `${lines.join('\n')}\n`);
  const groups = new Map<string, PageScore[]>();
  for (const { q, s } of scores) {
    for (const name of ['ALL', `library=${q.library}`, ...(q.intent ? [`intent=${q.intent}`] : [])]) {
      groups.set(name, [...(groups.get(name) ?? []), s]);
    }
  }
  const mean = (list: readonly PageScore[], f: (s: PageScore) => number) =>
    list.reduce((sum, s) => sum + f(s), 0) / list.length;
  const rows = ['external (page level)      n    MRR@5  MRR@10  nDCG@5   Hit@5  Recall@5'];
  for (const [name, list] of [...groups].sort(([a], [b]) =>
    a === 'ALL' ? -1 : b === 'ALL' ? 1 : a.localeCompare(b),
  )) {
    rows.push(
      `${name.padEnd(24)} ${String(list.length).padStart(3)}    ${[mean(list, (s) => s.mrr5), mean(list, (s) => s.mrr10), mean(list, (s) => s.ndcg5), mean(list, (s) => s.hit5), mean(list, (s) => s.recall5)].map((x) => x.toFixed(3)).join('   ')}`,
    );
  }
  process.stdout.write(`${rows.join('\n')}\n\n${sizes.lines('external', 'correct page').join('\n')}\n\n`);
  if (weakCheck) {
    await weakMatchCheck(
      'external',
      store,
      queries.map((q) => ({ id: q.id, query: q.query, library: q.library, libraries: [q.library] })),
      (id) => withAlternatives({ format: 'index', limit: 10, ...tuning }, phrasings, id),
    );
  }
}

/** The numeric ranking options `pnpm eval` takes, flag → option (validated by the search itself). */
/** How packages are cut into sections: only what the flags set, the rest as `docs add` does it. */
interface SectionOptions {
  minSectionTokens?: number;
  maxSectionTokens?: number;
}

function sectionOptions(min: string | undefined, max: string | undefined): SectionOptions {
  return {
    ...(min === undefined ? {} : { minSectionTokens: Number(min) }),
    ...(max === undefined ? {} : { maxSectionTokens: Number(max) }),
  };
}

/** Each numeric ranking knob is a flag of its own: `coverageExponent` → `--coverage-exponent`. */
const NUMBER_FLAGS: ReadonlyMap<string, NumericKnob> = new Map(
  NUMERIC_KNOBS.map((knob) => [knob.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), knob]),
);

/** The ranking knobs the flags set (validated by the search itself), the rest left at their defaults. */
function rankingOptions(values: Record<string, string | boolean | string[] | undefined>): SearchOptions {
  const number = (key: string) => (typeof values[key] === 'string' ? Number(values[key]) : undefined);
  const weights = typeof values.weights === 'string' ? values.weights.split(',').map(Number) : undefined;
  const ranking: { -readonly [K in keyof RankingConfig]?: RankingConfig[K] } = {};
  if (weights)
    ranking.weights = {
      title: weights[0] ?? 1,
      headings: weights[1] ?? 1,
      heading: weights[2] ?? 1,
      body: weights[3] ?? 1,
    };
  for (const [flag, knob] of NUMBER_FLAGS) {
    const value = number(flag);
    if (value !== undefined) ranking[knob] = value;
  }
  if (values['no-synonyms'] === true) ranking.synonyms = false;
  if (typeof values.fusion === 'string') ranking.fusion = values.fusion as RankingConfig['fusion'];
  return Object.keys(ranking).length > 0 ? { ranking } : {};
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
