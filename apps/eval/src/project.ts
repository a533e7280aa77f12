import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getDocs, type SearchOptions, type SearchResponse, searchAll } from '@docs/search';
import { PackageStore } from '@docs/store';
import {
  type ProjectQuestion,
  type ProjectSummary,
  parseQuestions,
  rankOf,
  type Scored,
  summarise,
  trailOf,
} from './project-score.js';

const run = promisify(execFile);

/** The built `docs` command. Apps do not import one another: the evaluation runs it as a user would. */
const CLI = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));

export interface ProjectOptions {
  /** The project folder: a package.json with its dependencies installed in node_modules, a Go module (go.mod), or a Cargo project. */
  readonly project: string;
  /** The questions file (JSON lines); default `<project>/questions.jsonl`. */
  readonly questions?: string;
  /** Where to write the results as JSON. */
  readonly out?: string;
  /** A store to build into and keep (sync then skips what it already holds); default a fresh temporary one. */
  readonly store?: string;
  /** Ranking knobs other than the defaults; none by default, as an agent's MCP calls have none. */
  readonly search: SearchOptions;
  /** Adds vectors to what sync built (`--embed`), before the questions are asked. */
  readonly embed?: (store: PackageStore) => Promise<void>;
}

/** What `docs sync --json` reports, as far as the evaluation reads it. */
interface SyncReport {
  readonly built: ReadonlyArray<{
    library: string;
    documents: number;
    chunks: number;
    tokens: number;
    bytes: number;
    /** What the build left out, and why (an API page cut at its limits, a part of the docs that failed). */
    warnings?: readonly string[];
  }>;
  readonly skipped: ReadonlyArray<{ library: string; reason: string }>;
  readonly failed: ReadonlyArray<{ library: string; reason: string }>;
}

interface Answered extends Scored {
  readonly question: ProjectQuestion;
  readonly status: SearchResponse['status'];
  readonly results: ReadonlyArray<{ library: string; trail: string; score: number; tokens: number }>;
}

/**
 * `pnpm eval --project <dir>`: builds what `docs sync --dev` builds for the project into a store of its own (timed),
 * asks every question as an agent's MCP call would (`getDocs` for a question with a library, `searchAll` without,
 * every option at its default), and scores each answer by content: the rank of the first result of the expected
 * library whose heading trail and content match the expected pattern.
 */
export async function runProject(options: ProjectOptions): Promise<number> {
  const project = path.resolve(options.project);
  // A Go module's requirements are in the module cache (sync skips one not downloaded, saying how to download it); a
  // Rust project's crates are read where Cargo fetched them (sync names any not fetched: run `cargo fetch`).
  const goModule = existsSync(path.join(project, 'go.mod'));
  const cargo = existsSync(path.join(project, 'Cargo.toml'));
  if (!goModule && !cargo && !existsSync(path.join(project, 'package.json'))) {
    process.stderr.write(
      `eval: ${project} has no package.json, go.mod or Cargo.toml: --project names a project folder\n`,
    );
    return 2;
  }
  if (cargo && !existsSync(path.join(project, 'Cargo.lock'))) {
    process.stderr.write(`eval: ${project} has no Cargo.lock: the evaluation needs the versions it pins\n`);
    return 2;
  }
  if (!goModule && !cargo && !existsSync(path.join(project, 'node_modules'))) {
    process.stderr.write(
      `eval: ${project} has no node_modules: run \`npm ci --ignore-scripts\` in it first (it needs the npm registry)\n`,
    );
    return 2;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`eval: ${CLI} is missing: build the repository first (npx -y pnpm@10.34.9 build)\n`);
    return 2;
  }
  const questionsFile = path.resolve(options.questions ?? path.join(project, 'questions.jsonl'));
  if (!existsSync(questionsFile)) {
    process.stderr.write(`eval: no such questions file: ${questionsFile}\n`);
    return 2;
  }
  const questions = parseQuestions(await readFile(questionsFile, 'utf8'), questionsFile);
  // The user's and the environment's settings stay out (a config's "fromRepo" or "scope" would change the build).
  const scratch = await mkdtemp(path.join(tmpdir(), 'docs-eval-project-'));
  const home = options.store ? path.resolve(options.store) : path.join(scratch, 'store');
  try {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DOCS_')));
    const docs = async (args: readonly string[]) =>
      (
        await run(process.execPath, [CLI, ...args], {
          cwd: project,
          env: { ...env, XDG_CONFIG_HOME: path.join(scratch, 'config') },
          maxBuffer: 64 * 1024 * 1024,
        })
      ).stdout;
    const version = (await docs(['--version'])).trim();
    const started = performance.now();
    const report = JSON.parse(await docs(['sync', project, '--dev', '--json', '--home', home])) as SyncReport;
    const seconds = (performance.now() - started) / 1000;
    printSync(version, seconds, report);
    const store = new PackageStore(home);
    let answered: Answered[];
    try {
      await options.embed?.(store);
      answered = await ask(store, questions, options.search);
    } finally {
      await store.close();
    }
    const groups = groupsOf(answered);
    process.stdout.write(`\n${table(groups)}\n\n${misses(answered)}\n`);
    if (options.out) {
      await writeFile(
        options.out,
        `${JSON.stringify(
          {
            docs: version,
            project,
            questions: questionsFile,
            sync: { seconds: Number(seconds.toFixed(2)), ...report },
            summary: Object.fromEntries(groups),
            answers: answered.map(({ question, ...rest }) => ({ ...question, ...rest })),
          },
          null,
          2,
        )}\n`,
      );
    }
    return 0;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Each question asked once, as an agent would: one library by its name, or every library. */
async function ask(
  store: PackageStore,
  questions: readonly ProjectQuestion[],
  search: SearchOptions,
): Promise<Answered[]> {
  const answered: Answered[] = [];
  for (const question of questions) {
    const response =
      question.library === undefined
        ? await searchAll(store, question.question, search)
        : await getDocs(store, question.library, question.question, search);
    answered.push({
      question,
      status: response.status,
      rank: rankOf(response.results, question.expect),
      tokens: response.totalTokens,
      results: response.results.map((r) => ({
        library: r.library,
        trail: trailOf(r),
        score: r.score,
        tokens: r.tokens,
      })),
    });
  }
  return answered;
}

function printSync(version: string, seconds: number, report: SyncReport): void {
  const lines = [
    `docs ${version}: sync --dev built ${report.built.length}, skipped ${report.skipped.length}, failed ${report.failed.length} in ${seconds.toFixed(1)} s (wall time, the whole command)`,
    ...report.built.map(
      (b) =>
        `  ${b.library.padEnd(36)} ${String(b.documents).padStart(4)} documents ${String(b.chunks).padStart(6)} sections ${b.tokens.toLocaleString('en').padStart(10)} tokens`,
    ),
    ...report.built.flatMap((b) => (b.warnings ?? []).map((w) => `  warning ${b.library}: ${w}`)),
    ...report.skipped.map((s) => `  skipped ${s.library}: ${s.reason}`),
    ...report.failed.map((s) => `  FAILED ${s.library}: ${s.reason}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The figures overall, per kind and per expected library, in that order. */
function groupsOf(answered: readonly Answered[]): Array<[string, ProjectSummary]> {
  const groups = new Map<string, Answered[]>();
  const add = (name: string, a: Answered) => groups.set(name, [...(groups.get(name) ?? []), a]);
  for (const a of answered) {
    add('ALL', a);
    add(`kind=${a.question.kind}`, a);
    add(`library=${a.question.expect.library}`, a);
  }
  const names = [...groups.keys()];
  return [
    'ALL',
    ...names.filter((n) => n.startsWith('kind=')).sort(),
    ...names.filter((n) => n.startsWith('library=')).sort(),
  ].map((name) => [name, summarise(groups.get(name) ?? [])]);
}

function table(groups: ReadonlyArray<[string, ProjectSummary]>): string {
  const rows = ['group                             n   MRR@5   hit@1   hit@3   found   tokens median    mean'];
  for (const [name, s] of groups) {
    rows.push(
      `${name.padEnd(30)} ${String(s.n).padStart(3)}   ${[s.mrr5, s.hit1, s.hit3, s.found].map((x) => x.toFixed(3)).join('   ')}   ${String(Math.round(s.tokensMedian)).padStart(13)}  ${String(Math.round(s.tokensMean)).padStart(6)}`,
    );
  }
  return rows.join('\n');
}

/** Every question whose first result is not right: its rank (– for none) and what came first instead. */
function misses(answered: readonly Answered[]): string {
  const missed = answered.filter((a) => a.rank !== 1);
  const rows = [`misses (first result not right): ${missed.length} of ${answered.length}`];
  for (const a of missed) {
    const q = a.question;
    const first = a.results[0];
    rows.push(
      `  ${(a.rank === null ? '–' : String(a.rank)).padStart(2)}  ${q.id} [${q.kind}, ${q.library ?? 'all libraries'}] "${q.question}"`,
      `      first: ${first ? `${first.library}  ${first.trail}` : `nothing (${a.status})`}`,
    );
  }
  return rows.join('\n');
}
