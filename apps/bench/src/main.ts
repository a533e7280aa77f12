#!/usr/bin/env node
// The benchmark. Not a test: it measures, prints a table and writes JSON so
// runs can be compared across commits. Usage:
//
//   pnpm bench [corpus] [--queries file.jsonl] [--alternatives file.jsonl] [--runs N] [--out results.json] [--many 100,1000]
//              [--realistic 1000|off] [--realistic-store dir]
//              [--http-clients 20] [--http-requests 1000]
//              [--embed <model>[,<model>…]] [--rerank <model>] [--vectors 10000,50000]
//              [--sync-project <dir>|off] [--sync-args=--all]
//   pnpm bench [corpus] --peer NAME=COMMAND [--peer NAME=COMMAND…] [--runs N] [--out results.json]
//
// --peer runs the side-by-side benchmark instead (peers.ts): docs and every peer given, driven by their commands
// through the adapters of peer-adapters.ts (NAME: context, qmd, docs-mcp-server), interleaved, and prints a
// markdown table with docs's ratio to the best; the other sections are then skipped.
// --sync-project times `docs sync` of that project (with --sync-args) into an empty store and again with nothing
// changed; without it, of an npm project of 120 dependencies made in the temp directory (sync-project.ts).
// --embed adds hybrid rows for each embedding model, --rerank re-ranking rows,
// --vectors brute-force cosine over one package of that many sections. --realistic adds searchAll over a
// store of this repository's dependencies' docs plus the corpus (and one grown to each size listed);
// --realistic-store keeps that store in a folder, built on the first run and reused after.
// corpus defaults to ../shared/corpus; the questions default to
// <corpus>/../eval/queries-dev.jsonl, their alternative phrasings to
// <corpus>/../eval/alternatives-dev.jsonl (measured when the file exists). Every store it builds lives in a temp
// directory that is removed at the end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '@docs/ingest';
import { getDocs, searchAll } from '@docs/search';
import { type InstalledPackage, PackageStore, packageFileName, parsePackageSpec } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchAddProcesses } from './add-processes.js';
import { benchAlternatives } from './alternatives.js';
import { benchBuildParts, cpuMs } from './build-parts.js';
import { commandLine } from './command-line.js';
import { churn, type LoadResult, load, startServe, warmUpPerClient } from './http-api.js';
import { benchBruteForce, benchHybrid } from './hybrid.js';
import { benchLongQueries } from './long-query.js';
import { benchMcpHttp, threads } from './mcp-http.js';
import { PEER_ADAPTERS } from './peer-adapters.js';
import { peerSpecs } from './peer-args.js';
import { benchPeers } from './peers.js';
import { quantile } from './quantile.js';
import { benchRealistic, type ManyStats, manyRow } from './realistic.js';
import { benchReplicas } from './replicas.js';
import { benchStartup } from './startup.js';
import { benchSyncProject, makeNpmProject, syncRows } from './sync-project.js';

interface Question {
  readonly id?: string;
  readonly query: string;
  readonly library: string | null;
}

/** p50 and p95 of a list of milliseconds. */
interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly n: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'apps/cli/dist/bin.cjs');

const USAGE =
  'usage: pnpm bench [corpus dir, default ../shared/corpus] [--queries file.jsonl] [--alternatives file.jsonl] [--runs 5]\n' +
  '       [--many 100,1000] [--realistic 1000|off] [--realistic-store dir] [--http-clients 20] [--http-requests 1000]\n' +
  '       [--embed model[,model...]] [--rerank model] [--vectors 10000,50000] [--out bench-results.json]\n' +
  '       [--sync-project dir|off] [--sync-args=--all]\n' +
  '       pnpm bench [corpus] --peer NAME=COMMAND [--peer NAME=COMMAND...] [--runs 3] [--out bench-results.json]\n' +
  `       (side by side with peers; NAME one of ${[...PEER_ADAPTERS.keys()].filter((n) => n !== 'docs').join(', ')})`;

function latency(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), n: sorted.length };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  const { values, positionals } = commandLine('bench', USAGE, {
    allowPositionals: true,
    options: {
      queries: { type: 'string' },
      alternatives: { type: 'string' },
      runs: { type: 'string', default: '5' },
      out: { type: 'string', default: 'bench-results.json' },
      many: { type: 'string', default: '100,1000' },
      'http-clients': { type: 'string', default: '20' },
      'http-requests': { type: 'string', default: '1000' },
      embed: { type: 'string' },
      rerank: { type: 'string' },
      vectors: { type: 'string', default: '' },
      realistic: { type: 'string', default: '1000' },
      'realistic-store': { type: 'string' },
      peer: { type: 'string', multiple: true },
      'sync-project': { type: 'string' },
      'sync-args': { type: 'string' },
    },
  });
  const corpus = path.resolve(positionals[0] ?? path.join(root, '../shared/corpus'));
  const queriesFile = values.queries ?? path.join(corpus, '../eval/queries-dev.jsonl');
  if (!existsSync(corpus)) throw new Error(`no corpus at ${corpus}: pass its path as the first argument`);
  if (!existsSync(queriesFile)) throw new Error(`no questions at ${queriesFile}: pass --queries <file.jsonl>`);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
  const runs = Math.max(1, Number(values.runs));
  const questions = (await readFile(queriesFile, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Question);
  if (values.peer && values.peer.length > 0) {
    const specs = peerSpecs(values.peer, [...PEER_ADAPTERS.keys()], [process.execPath, bin]);
    if (!specs.ok) {
      process.stderr.write(`bench: ${specs.error}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    const side = await benchPeers({
      corpus,
      questions,
      specs: specs.value,
      adapters: PEER_ADAPTERS,
      runs,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`\n${side.markdown}`);
    await writeFile(
      values.out,
      `${JSON.stringify({ date: new Date().toISOString(), corpus, runs, ...side.results }, null, 2)}\n`,
    );
    process.stdout.write(`\nwrote ${values.out}\n`);
    return;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'docs-bench-'));
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: process.platform,
    },
    corpus,
    questions: questions.length,
    runs,
  };
  const table: Array<[string, string]> = [];
  try {
    // Build throughput: every library of the corpus, several runs after a warm-up.
    const folders = (await readdir(corpus, { withFileTypes: true })).filter(
      (e) => e.isDirectory() && e.name.includes('@'),
    );
    const perLibrary = new Map<string, { bytes: number; ms: number[] }>();
    const home = path.join(work, 'store');
    const store = new PackageStore(home);
    await mkdir(home, { recursive: true });
    // Each timed run's buildPackage and store.install wall times, and the CPU the build used on every thread.
    const parts = { build: [] as number[], install: [] as number[], buildCpu: [] as number[] };
    const libraries: Array<{ folder: string; name: string; version: string }> = [];
    const corpusPackages: InstalledPackage[] = [];
    for (let run = 0; run <= runs; run++) {
      let buildMs = 0;
      let installMs = 0;
      let buildCpu = 0;
      for (const folder of folders) {
        const { name, version } = parsePackageSpec(folder.name);
        if (!version) continue;
        if (run === 0) libraries.push({ folder: folder.name, name, version });
        const started = performance.now();
        const cpuStarted = cpuMs();
        const summary = await buildPackage({
          root: path.join(corpus, folder.name),
          name,
          version,
          output: store.partialPath({ name, version }),
        });
        const built = performance.now();
        buildCpu += cpuMs() - cpuStarted;
        const done = await store.install(summary.output, { move: true });
        if (run === runs) corpusPackages.push(done.installed);
        const ms = performance.now() - started;
        buildMs += built - started;
        installMs += performance.now() - built;
        if (run === 0) continue; // warm-up
        const entry = perLibrary.get(folder.name) ?? { bytes: summary.sourceBytes, ms: [] };
        entry.ms.push(ms);
        perLibrary.set(folder.name, entry);
      }
      if (run === 0) continue;
      parts.build.push(buildMs);
      parts.install.push(installMs);
      parts.buildCpu.push(buildCpu);
    }
    const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
    const totalBytes = [...perLibrary.values()].reduce((sum, e) => sum + e.bytes, 0);
    const wholeRuns = Array.from({ length: runs }, (_, i) =>
      [...perLibrary.values()].reduce((sum, e) => sum + (e.ms[i] ?? 0), 0),
    );
    const whole = latency(wholeRuns);
    const buildOnly = latency(parts.build).p50;
    const installOnly = latency(parts.install).p50;
    const buildCpu = latency(parts.buildCpu).p50;
    const buildParts = await benchBuildParts({
      corpus,
      libraries,
      store,
      installed: corpusPackages,
      work,
      runs: Math.min(runs, 3),
    });
    results.build = {
      wholeCorpus: { bytes: totalBytes, msP50: whole.p50, mbPerSecond: mbps(totalBytes, whole.p50) },
      buildPackage: {
        msP50: buildOnly,
        mbPerSecond: mbps(totalBytes, buildOnly),
        cpuMsP50: buildCpu,
        coresBusy: buildCpu / buildOnly,
      },
      storeInstall: { msP50: installOnly, msPerLibrary: installOnly / perLibrary.size },
      parts: buildParts.results,
      perLibrary: Object.fromEntries(
        [...perLibrary].map(([lib, e]) => [
          lib,
          { bytes: e.bytes, msP50: latency(e.ms).p50, mbPerSecond: mbps(e.bytes, latency(e.ms).p50) },
        ]),
      ),
    };
    table.push([
      'build, whole corpus',
      `${mbps(totalBytes, whole.p50).toFixed(2)} MB/s (${(totalBytes / 1e6).toFixed(1)} MB in ${(whole.p50 / 1000).toFixed(2)} s)`,
    ]);
    table.push([
      '  buildPackage',
      `${mbps(totalBytes, buildOnly).toFixed(2)} MB/s (${(buildOnly / 1000).toFixed(2)} s; ${(buildCpu / 1000).toFixed(2)} s CPU on every thread, ${(buildCpu / buildOnly).toFixed(2)} of ${cpus().length} cores busy)`,
    ]);
    table.push([
      '  store.install',
      `${(installOnly / 1000).toFixed(2)} s (${(installOnly / perLibrary.size).toFixed(0)} ms a library)`,
    ]);
    table.push(...buildParts.rows);
    for (const [lib, e] of perLibrary)
      table.push([`  build ${lib}`, `${mbps(e.bytes, latency(e.ms).p50).toFixed(2)} MB/s`]);

    // As a user (and the side-by-side bench) builds: `docs add` of each library, a process each, into a fresh store.
    const adds = await benchAddProcesses({ bin: [process.execPath, bin], corpus, libraries, work });
    results.addProcesses = adds.results;
    table.push(...adds.rows);

    // `docs sync` of a project with many dependencies, cold and warm.
    if (values['sync-project'] !== 'off') {
      let project = values['sync-project'];
      if (project === undefined) {
        project = path.join(work, 'sync-project');
        await makeNpmProject(project, 120);
      }
      const sync = await benchSyncProject({
        bin: [process.execPath, bin],
        project: path.resolve(project),
        args: (values['sync-args'] ?? '').split(' ').filter(Boolean),
        work,
        warmRuns: 5,
      });
      results.syncProject = sync;
      table.push(...syncRows(sync));
    }

    // In-process search, warm connections.
    const single = questions.filter((q): q is Question & { library: string } => q.library !== null);
    for (const q of single) await getDocs(store, q.library, q.query);
    const getSamples: number[] = [];
    for (let run = 0; run < runs; run++)
      for (const q of single) getSamples.push(await timed(() => getDocs(store, q.library, q.query)));
    const get = latency(getSamples);
    results.getDocs = get;
    table.push(['getDocs in process', `p50 ${get.p50.toFixed(2)} ms, p95 ${get.p95.toFixed(2)} ms`]);

    for (const q of questions) await searchAll(store, q.query);
    const allSamples: number[] = [];
    for (let run = 0; run < runs; run++)
      for (const q of questions) allSamples.push(await timed(() => searchAll(store, q.query)));
    const all = latency(allSamples);
    results.searchAll = { libraries: perLibrary.size, ...all };
    table.push([
      `searchAll, ${perLibrary.size} libraries`,
      `p50 ${all.p50.toFixed(2)} ms, p95 ${all.p95.toFixed(2)} ms`,
    ]);

    // The same questions with their alternative phrasings, against themselves alone.
    const alternatives = await benchAlternatives(
      store,
      questions,
      values.alternatives ?? path.join(corpus, '../eval/alternatives-dev.jsonl'),
      runs,
      timed,
      latency,
    );
    if (alternatives) {
      results.alternatives = alternatives.results;
      table.push(...alternatives.rows);
    }

    // A pasted page as the question (the caps keep it near a short one's cost).
    const long = await benchLongQueries(store, questions, Math.min(runs, 3));
    results.longQueries = long.results;
    table.push(...long.rows);

    // The processes users start: MCP over stdio, `docs search`, `docs serve` to ready.
    const env = { ...process.env, DOCS_HOME: home };
    const readySamples: number[] = [];
    for (let run = 0; run < runs; run++) {
      const client = new Client({ name: 'docs-bench', version: '0.0.0' });
      const started = performance.now();
      await client.connect(
        // --no-follow: the store measured is the one built here, not the repository's installs.
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'serve', '--no-follow'],
          env,
          stderr: 'ignore',
        }),
      );
      readySamples.push(performance.now() - started);
      if (run === runs - 1) {
        for (const q of single.slice(0, 5))
          await client.callTool({ name: 'get_docs', arguments: { library: q.library, topic: q.query } });
        const mcpSamples: number[] = [];
        for (let r = 0; r < runs; r++) {
          for (const q of single) {
            mcpSamples.push(
              await timed(() =>
                client.callTool({ name: 'get_docs', arguments: { library: q.library, topic: q.query } }),
              ),
            );
          }
        }
        const mcp = latency(mcpSamples);
        results.mcpGetDocs = mcp;
        table.push(['MCP get_docs round trip (stdio)', `p50 ${mcp.p50.toFixed(2)} ms, p95 ${mcp.p95.toFixed(2)} ms`]);
      }
      await client.close();
    }
    const ready = latency(readySamples);
    results.serveReady = ready;
    table.push(['docs serve, spawn to ready', `p50 ${ready.p50.toFixed(0)} ms, p95 ${ready.p95.toFixed(0)} ms`]);

    const startup = await benchStartup(questions, runs, (args) => timed(() => runProcess(args, env)), latency);
    results.cliSearch = startup.search;
    results.nodeStart = startup.bareNode;
    table.push(...startup.rows);

    // The JSON API under load, from a `docs serve --http` of its own: steady, then while a package comes and goes.
    const clients = Number(values['http-clients']);
    const perClient = Number(values['http-requests']);
    if (clients > 0 && perClient > 0) {
      const paths = questions.map((q) => {
        const params = new URLSearchParams({ q: q.query });
        if (q.library) params.set('library', q.library);
        return `/api/search?${params}`;
      });
      const smallest = [...perLibrary].sort((a, b) => a[1].bytes - b[1].bytes)[0]?.[0] as string;
      const extra = await buildPackage({
        root: path.join(corpus, smallest),
        name: 'churn',
        version: '1.0.0',
        output: path.join(work, 'churn@1.0.0.db'),
      });
      const serve = await startServe(bin, home);
      try {
        for (const p of paths) await load(serve.origin, [p], 1, 1);
        await load(serve.origin, paths, clients, warmUpPerClient(perClient));
        const steady = await load(serve.origin, paths, clients, perClient);
        const running = load(serve.origin, paths, clients, perClient);
        const churnStore = new PackageStore(home);
        const [changing, cycles] = await Promise.all([
          running,
          churn(churnStore, extra.output, 'churn@1.0.0', running),
        ]).finally(() => churnStore.close());
        results.httpApi = {
          clients,
          perClient,
          workers: serve.workers,
          steady,
          whileChanging: { ...changing, cycles },
        };
        const row = (r: LoadResult) =>
          `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, ${r.perSecond.toFixed(0)} req/s, ${r.errors} errors`;
        table.push([`HTTP /api/search, ${clients} clients × ${perClient}, ${threads(serve.workers)}`, row(steady)]);
        table.push([`  while a package is added and removed (${cycles}×)`, row(changing)]);
        for (const sample of [...steady.errorSamples, ...changing.errorSamples]) process.stderr.write(`${sample}\n`);
      } finally {
        await serve.stop();
      }
      const mcp = await benchMcpHttp(bin, home, questions, {
        clients,
        perClient,
        churnFile: extra.output,
        churnSpec: 'churn@1.0.0',
      });
      results.mcpHttp = mcp.results;
      table.push(...mcp.rows);
    }

    // A team's server: HTTP replicas over the one store, round-robin.
    const replicas = await benchReplicas(bin, home, questions, { rounds: runs });
    results.replicas = replicas.results;
    table.push(...replicas.rows);
    await store.close();

    // Many libraries: the corpus packages again under new names, as hard links, so each of the 12 libraries is there
    // ~n/12 times, every copy the same as its original. Not installed one by one (an install copies, validates and
    // indexes each file anew, and the name inside a file stays its original's), but catalogued as an install
    // catalogues: PackageStore.updateCatalog, the step install ends with, records every package it has no entry for.
    const installed = await store.list();
    const many: Record<string, unknown> = {};
    for (const n of values.many
      .split(',')
      .map(Number)
      .filter((x) => x > 0)) {
      const dir = path.join(work, `many-${n}`);
      await mkdir(dir, { recursive: true });
      for (let i = 0; i < n; i++) {
        const source = installed[i % installed.length];
        if (!source) break;
        const copy = { name: `${source.name}-copy${i}`, version: source.version };
        await link(source.file, path.join(dir, packageFileName(copy)));
      }
      const catalogStarted = performance.now();
      const copies = new PackageStore(dir);
      await copies.updateCatalog();
      await copies.close();
      const catalogMs = performance.now() - catalogStarted;
      // Measured in a process of its own: its memory is then what serving takes, not the build's.
      const stats = JSON.parse(
        await runProcess(
          [
            path.join(path.dirname(fileURLToPath(import.meta.url)), 'many.js'),
            dir,
            queriesFile,
            String(Math.min(runs, 3)),
          ],
          process.env,
          true,
        ),
      ) as ManyStats;
      many[n] = { ...stats, catalogMs };
      table.push([`searchAll, ${n} libraries`, manyRow(stats)]);
      if (stats.rankedQueryP50 !== undefined)
        table.push([`  one ranked full-text query in each, alone`, `p50 ${stats.rankedQueryP50.toFixed(1)} ms`]);
      table.push([`  their catalog, recorded`, `${(catalogMs / 1000).toFixed(1)} s`]);
      await rm(dir, { recursive: true, force: true });
    }
    results.searchAllMany = many;

    // Many libraries as a project has them: its dependencies' docs, most holding few of a question's words.
    if (values.realistic !== 'off') {
      results.searchAllRealistic = await benchRealistic({
        root,
        corpus: installed,
        work,
        storeDir: values['realistic-store'] ? path.resolve(values['realistic-store']) : undefined,
        sizes: values.realistic
          .split(',')
          .map(Number)
          .filter((x) => x > 0),
        queriesFile,
        runs,
        table,
      });
    }

    // Hybrid retrieval, when models are given: without them the rows above are all there is.
    const embedSpecs = (values.embed ?? '').split(',').filter((s) => s.trim() !== '');
    const hybrid: Record<string, unknown>[] = [];
    for (const [i, embed] of embedSpecs.entries()) {
      hybrid.push(
        await benchHybrid({
          installed,
          work,
          questions,
          embed,
          // Re-ranking is measured once, with the first embedder's rows.
          rerank: i === 0 ? values.rerank : undefined,
          runs,
          latency,
          timed,
          table,
        }),
      );
    }
    if (hybrid.length > 0) results.hybrid = hybrid;
    const sizes = values.vectors
      .split(',')
      .map(Number)
      .filter((x) => x > 0);
    if (sizes.length > 0) {
      results.bruteForce = await benchBruteForce({ work, sizes, dimensions: 384, latency, timed, table });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const width = Math.max(...table.map(([k]) => k.length));
  process.stdout.write(`${table.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`);
  await writeFile(values.out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nwrote ${values.out}\n`);
}

function runProcess(args: readonly string[], env: NodeJS.ProcessEnv, capture = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', capture ? 'pipe' : 'ignore', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
