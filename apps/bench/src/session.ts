#!/usr/bin/env node
// What session memory saves an agent, measured: the dev questions asked in sequence through a real MCP client and
// a real `docs serve` (stdio, one session), each followed by the same question rephrased (its first alternative as
// the topic, the next two as alternatives), as an agent asks again when the first answer was not enough. Twice: with
// the session's memory, and with every call `fresh: true` (what a server without memory sends). Not a test: it
// prints a table and writes JSON. Usage:
//
//   node apps/bench/dist/session.js --corpus <dir> --queries <file.jsonl> --alternatives <file.jsonl>
//                                  [--store <dir>] [--tokens N] [--out session-results.json]
//
// --store keeps the built corpus in a folder, built on the first run and reused after; without it the store lives
// in a temporary folder removed at the end. Tokens are o200k (the store's token unit), of the text the model reads.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '@docs/ingest';
import { loadTokenCounter, PackageStore, parsePackageSpec } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { commandLine } from './command-line.js';
import { quantile } from './quantile.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'apps/cli/dist/bin.cjs');

const USAGE =
  'usage: node apps/bench/dist/session.js --corpus <dir> --queries <file.jsonl> --alternatives <file.jsonl>\n' +
  '       [--store <dir>] [--tokens N] [--out session-results.json]';

interface Question {
  readonly id: string;
  readonly query: string;
  readonly library: string | null;
}

/** One tool call of the session, as measured. */
interface Call {
  readonly id: string;
  readonly tool: 'get_docs' | 'search_all';
  readonly followUp: boolean;
  /** Bytes of the whole result as the client received it (JSON). */
  readonly bytes: number;
  /** o200k tokens of its text, what the model reads. */
  readonly tokens: number;
  /** Headers of the results sent with their content. */
  readonly sent: readonly string[];
  /** Tokens of the results (header and content) whose header an earlier call of the session had sent with content. */
  readonly repeatedTokens: number;
  /** Results listed as sent earlier. */
  readonly earlier: number;
}

async function main(): Promise<void> {
  const { values } = commandLine('session', USAGE, {
    options: {
      corpus: { type: 'string' },
      queries: { type: 'string' },
      alternatives: { type: 'string' },
      store: { type: 'string' },
      tokens: { type: 'string' },
      out: { type: 'string', default: 'session-results.json' },
    },
  });
  if (!values.corpus || !values.queries || !values.alternatives) {
    process.stderr.write(`session: --corpus, --queries and --alternatives are required\n${USAGE}\n`);
    process.exit(2);
  }
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  const questions = (await readJsonl(values.queries)) as Question[];
  const phrasings = new Map(
    ((await readJsonl(values.alternatives)) as Array<{ id: string; alternatives: string[] }>).map((a) => [
      a.id,
      a.alternatives,
    ]),
  );
  const tokens = values.tokens === undefined ? undefined : Number(values.tokens);
  const home = values.store ? path.resolve(values.store) : await mkdtemp(path.join(tmpdir(), 'docs-session-'));
  try {
    await buildCorpus(path.resolve(values.corpus), home);
    const count = await loadTokenCounter();
    const withMemory = await session(home, questions, phrasings, { fresh: false, tokens }, count);
    const without = await session(home, questions, phrasings, { fresh: true, tokens }, count);
    const report = summarise(withMemory, without);
    process.stdout.write(`${report.table}\n`);
    await writeFile(values.out, `${JSON.stringify({ ...report.figures, calls: { withMemory, without } }, null, 2)}\n`);
    process.stderr.write(`wrote ${values.out}\n`);
  } finally {
    if (!values.store) await rm(home, { recursive: true, force: true });
  }
}

/** Asks every question and its follow-up, in order, in one `docs serve` session. */
async function session(
  home: string,
  questions: readonly Question[],
  phrasings: ReadonlyMap<string, readonly string[]>,
  options: { fresh: boolean; tokens: number | undefined },
  count: (text: string) => number,
): Promise<Call[]> {
  const client = new Client({ name: 'session-bench', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--home', home, '--no-follow'],
      stderr: 'ignore',
      env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
    }),
  );
  const calls: Call[] = [];
  const received = new Set<string>();
  try {
    for (const q of questions) {
      const [again, ...more] = phrasings.get(q.id) ?? [];
      if (again === undefined) throw new Error(`${q.id} has no alternative phrasings to ask again with`);
      for (const [topic, alternatives, followUp] of [
        [q.query, [], false],
        [again, more.slice(0, 2), true],
      ] as const) {
        const tool = q.library === null ? 'search_all' : 'get_docs';
        const args = {
          ...(q.library === null ? {} : { library: q.library }),
          topic,
          ...(alternatives.length > 0 ? { alternatives } : {}),
          ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
          ...(options.fresh ? { fresh: true } : {}),
        };
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (result.isError) throw new Error(`${q.id} ${tool}: ${textOf(result)}`);
        const text = textOf(result);
        const headers = [...text.matchAll(/^## (.+) \(score [\d.]+([^)]*)\)$/gm)];
        const sent = headers.filter((m) => !m[2]?.includes('sent earlier')).map((m) => m[1] as string);
        // Each result's part of the text, from its header to the next: what it cost the model.
        let repeatedTokens = 0;
        for (const [i, m] of headers.entries()) {
          if (m[2]?.includes('sent earlier') || !received.has(m[1] as string)) continue;
          repeatedTokens += count(text.slice(m.index, headers[i + 1]?.index ?? text.lastIndexOf('\n\n')));
        }
        for (const header of sent) received.add(header);
        calls.push({
          id: q.id,
          tool,
          followUp,
          bytes: Buffer.byteLength(JSON.stringify(result)),
          tokens: count(text),
          sent,
          repeatedTokens,
          earlier: headers.filter((m) => m[2]?.includes('sent earlier')).length,
        });
      }
    }
  } finally {
    await client.close();
  }
  return calls;
}

/** The figures, and a table of them. */
function summarise(withMemory: readonly Call[], without: readonly Call[]) {
  const sum = (calls: readonly Call[], f: (c: Call) => number) => calls.reduce((s, c) => s + f(c), 0);
  const part = (calls: readonly Call[], followUp: boolean | undefined) =>
    followUp === undefined ? calls : calls.filter((c) => c.followUp === followUp);
  const rows: string[] = ['session (o200k tokens of text)      calls   with memory   without   saved'];
  const figures: Record<string, unknown> = {};
  for (const [name, followUp] of [
    ['all calls', undefined],
    ['first asks', false],
    ['follow-ups', true],
  ] as const) {
    const a = sum(part(withMemory, followUp), (c) => c.tokens);
    const b = sum(part(without, followUp), (c) => c.tokens);
    figures[name] = { calls: part(withMemory, followUp).length, withMemory: a, without: b, saved: b - a };
    rows.push(
      `${name.padEnd(34)} ${String(part(withMemory, followUp).length).padStart(5)}   ${String(a).padStart(11)}   ${String(b).padStart(7)}   ${b - a} (${((100 * (b - a)) / b).toFixed(1)}%)`,
    );
  }
  const bytesA = sum(withMemory, (c) => c.bytes);
  const bytesB = sum(without, (c) => c.bytes);
  rows.push(
    `reply bytes, all calls                    ${String(bytesA).padStart(11)}   ${String(bytesB).padStart(7)}   ${bytesB - bytesA} (${((100 * (bytesB - bytesA)) / bytesB).toFixed(1)}%)`,
  );
  // What the agent ends up holding: distinct sections sent in full over the session, and sections sent twice.
  const distinct = (calls: readonly Call[]) => new Set(calls.flatMap((c) => c.sent)).size;
  const repeats = (calls: readonly Call[]) => calls.reduce((s, c) => s + c.sent.length, 0) - distinct(calls);
  const repeatedA = sum(withMemory, (c) => c.repeatedTokens);
  const repeatedB = sum(without, (c) => c.repeatedTokens);
  figures.repeatedTokens = { withMemory: repeatedA, without: repeatedB };
  rows.push(
    `tokens of sections received again         ${String(repeatedA).padStart(11)}   ${String(repeatedB).padStart(7)}   ${repeatedB - repeatedA}`,
    `distinct sections received                ${String(distinct(withMemory)).padStart(11)}   ${String(distinct(without)).padStart(7)}`,
    `sections received again                   ${String(repeats(withMemory)).padStart(11)}   ${String(repeats(without)).padStart(7)}`,
    `results listed as sent earlier            ${String(sum(withMemory, (c) => c.earlier)).padStart(11)}   ${String(sum(without, (c) => c.earlier)).padStart(7)}`,
  );
  const firstGetDocs = without.filter((c) => c.tool === 'get_docs' && !c.followUp).map((c) => c.bytes);
  const sortedFirst = [...firstGetDocs].sort((a, b) => a - b);
  const median = quantile(sortedFirst, 0.5);
  const p95 = quantile(sortedFirst, 0.95);
  rows.push(`get_docs reply bytes, first asks (n=${firstGetDocs.length}): median ${median}, p95 ${p95}`);
  figures.getDocsReplyBytes = { n: firstGetDocs.length, median, p95 };
  figures.distinctSections = { withMemory: distinct(withMemory), without: distinct(without) };
  figures.repeatedSections = { withMemory: repeats(withMemory), without: repeats(without) };
  return { table: rows.join('\n'), figures };
}

/** Builds a package for every `<name>@<version>/` folder of the corpus the store does not hold yet. */
async function buildCorpus(corpus: string, home: string): Promise<void> {
  await mkdir(home, { recursive: true });
  const store = new PackageStore(home);
  try {
    const installed = new Set((await store.list()).map((p) => `${p.name}@${p.version}`));
    for (const folder of await readdir(corpus, { withFileTypes: true })) {
      const { name, version } = parsePackageSpec(folder.name);
      if (!folder.isDirectory() || !version || installed.has(folder.name)) continue;
      const summary = await buildPackage({
        root: path.join(corpus, folder.name),
        name,
        version,
        output: store.partialPath({ name, version }),
      });
      await store.install(summary.output, { move: true });
    }
  } finally {
    await store.close();
  }
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

async function readJsonl(file: string): Promise<unknown[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

main().catch((error: unknown) => {
  process.stderr.write(`session: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
