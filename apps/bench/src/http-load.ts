#!/usr/bin/env node
// HTTP load alone, against a store already built (the benchmark builds its own): the JSON API and MCP over
// HTTP, each steady and then while a package is added and removed. Usage:
//
//   node apps/bench/dist/http-load.js --home <store> [--queries file.jsonl] [--clients 20] [--requests 300]
//                                     [--churn-folder <docs folder>] [--bin <a docs bin to serve>]
//
// The questions default to ../shared/eval/queries-dev.jsonl, the churned package to a build of
// ../shared/corpus/httpx@0.28.1 named `churn` (removed at the end).
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '@docs/ingest';
import { PackageStore } from '@docs/store';
import { commandLine } from './command-line.js';
import { churn, type LoadResult, load, startServe, warmUpPerClient } from './http-api.js';
import { benchMcpHttp, threads } from './mcp-http.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const USAGE =
  'usage: node apps/bench/dist/http-load.js --home <store> [--queries file.jsonl] [--clients 20] [--requests 300]\n' +
  '       [--churn-folder <docs folder>] [--bin <a docs bin to serve>]';

async function main(): Promise<void> {
  const { values } = commandLine('http-load', USAGE, {
    options: {
      home: { type: 'string' },
      queries: { type: 'string', default: path.join(root, '../shared/eval/queries-dev.jsonl') },
      clients: { type: 'string', default: '20' },
      requests: { type: 'string', default: '300' },
      'churn-folder': { type: 'string', default: path.join(root, '../shared/corpus/httpx@0.28.1') },
      bin: { type: 'string', default: path.join(root, 'apps/cli/dist/bin.cjs') },
    },
  });
  if (!values.home) throw new Error('--home <store> is required: a store with the questions’ libraries');
  const home = values.home;
  const questions = (await readFile(values.queries, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { query: string; library: string | null });
  const clients = Number(values.clients);
  const perClient = Number(values.requests);
  const churnFile = path.join(tmpdir(), `docs-http-load-${process.pid}-churn@1.0.0.db`);
  await buildPackage({ root: values['churn-folder'], name: 'churn', version: '1.0.0', output: churnFile });
  const bin = values.bin;
  const rows: [string, string][] = [];
  const row = (r: LoadResult) =>
    `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, ${r.perSecond.toFixed(0)} req/s, ${r.errors} errors`;
  try {
    const serve = await startServe(bin, home);
    try {
      const paths = questions.map((q) => {
        const params = new URLSearchParams({ q: q.query });
        if (q.library) params.set('library', q.library);
        return `/api/search?${params}`;
      });
      for (const p of paths) await load(serve.origin, [p], 1, 1);
      await load(serve.origin, paths, clients, warmUpPerClient(perClient));
      const steady = await load(serve.origin, paths, clients, perClient);
      const running = load(serve.origin, paths, clients, perClient);
      const writer = new PackageStore(home);
      const [changing, cycles] = await Promise.all([running, churn(writer, churnFile, 'churn@1.0.0', running)]).finally(
        () => writer.close(),
      );
      rows.push([`HTTP /api/search, ${clients} clients × ${perClient}, ${threads(serve.workers)}`, row(steady)]);
      rows.push([`  while a package is added and removed (${cycles}×)`, row(changing)]);
      for (const sample of [...steady.errorSamples, ...changing.errorSamples]) process.stderr.write(`${sample}\n`);
    } finally {
      await serve.stop();
    }
    const mcp = await benchMcpHttp(bin, home, questions, { clients, perClient, churnFile, churnSpec: 'churn@1.0.0' });
    rows.push(...mcp.rows);
  } finally {
    await rm(churnFile, { force: true });
    const leftover = new PackageStore(home);
    await leftover.remove('churn@1.0.0').catch(() => undefined);
    await leftover.close();
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)}  ${value}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`http-load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
