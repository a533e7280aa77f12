#!/usr/bin/env node
// What following a project costs `docs serve`, and how soon an install is answered. Not a test: it measures and
// prints. Usage (after the build):
//
//   node apps/bench/dist/follow.js [--idle-seconds 60] [--pages 300] [--calls 40]
//
// A project laid out in a temp folder (packages written into node_modules as an install writes them) and a real
// `docs serve` over stdio started in it, as an agent host starts it, with a real MCP client:
// - idle CPU: the server's user + system CPU (from /proc) over --idle-seconds with nothing changing;
// - get_docs latency on a built library with nothing building, and while a package of --pages pages builds in the
//   background;
// - from an install (the new version's files, then npm's hidden lockfile) to the first get_docs answer from the new
//   version, and to the first answer from a dependency just added;
// - for the choice of watcher: a `fs.watch` of each watched folder alone (what the server does) against one recursive
//   `fs.watch` of this repository's node_modules: the time to set up, and the CPU over the idle time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { quantile } from './quantile.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'apps/cli/dist/bin.cjs');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

const idleSeconds = option('--idle-seconds', 60);
const pages = option('--pages', 300);
const calls = option('--calls', 40);

/** Installs `name@version` as npm does: the package folder, then the hidden lockfile last. */
async function install(project: string, name: string, version: string, topic: string, extraPages = 0) {
  const folder = path.join(project, 'node_modules', name);
  await rm(folder, { recursive: true, force: true });
  await mkdir(path.join(folder, 'docs'), { recursive: true });
  await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name, version }));
  const words = `The ${topic} option of ${name} is explained here with enough words for a section. `;
  await writeFile(path.join(folder, 'README.md'), `# ${name}\n\n## ${topic}\n\n${words.repeat(6)}\n`);
  for (let i = 0; i < extraPages; i++) {
    await writeFile(
      path.join(folder, 'docs', `page-${i}.md`),
      `# Page ${i}\n\n## Wheels\n\n${'Wheels turn the axle of the cart while the spokes hold the rim. '.repeat(60)}\n`,
    );
  }
  await writeFile(path.join(project, 'node_modules', '.package-lock.json'), JSON.stringify({ version, name }));
}

/** User + system CPU of a process (and of its children it waited for), in ms, from /proc. */
function cpuOf(pid: number): { own: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command: state is field 3; utime 14, stime 15, cutime 16, cstime 17 (1-based, in clock ticks of 10 ms).
  const tick = (n: number) => Number(fields[n - 3]) * 10;
  return { own: tick(14) + tick(15), children: tick(16) + tick(17) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(20);
  }
  return performance.now() - started;
}

function summary(samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p95 ${quantile(sorted, 0.95).toFixed(1)} ms (n=${sorted.length})`;
}

/** Setup time and idle CPU of a script watching folders, in a process of its own. */
async function watcherCost(label: string, script: string): Promise<string> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(String(d))));
  const before = cpuOf(child.pid as number).own;
  await sleep(idleSeconds * 1000);
  const idle = cpuOf(child.pid as number).own - before;
  child.kill();
  return `${label}: ${ready.trim()}, idle CPU ${idle} ms over ${idleSeconds} s`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-bench-follow-'));
  const project = path.join(dir, 'app');
  const home = path.join(dir, 'home');
  await mkdir(path.join(project, 'node_modules'), { recursive: true });
  const manifest = (deps: Record<string, string>) =>
    writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'app', dependencies: deps }));
  await manifest({ alpha: '*', big: '*' });
  await install(project, 'alpha', '1.0.0', 'gearbox');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve'],
    cwd: project,
    env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bench-follow', version: '0.0.0' });
  await client.connect(transport);
  const getDocs = async (library: string, topic: string) => {
    const result = (await client.callTool({ name: 'get_docs', arguments: { library, topic } })) as CallToolResult;
    return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  };
  const rows: Array<[string, string]> = [];
  try {
    const first = await until(async () => /^## alpha@1\.0\.0 /m.test(await getDocs('alpha', 'gearbox')), 120_000);
    rows.push(['first answer of a never-built dependency, from start', `${first.toFixed(0)} ms`]);
    // Idle: two fresh servers in the project, one following it and one not, each asked once, then the same minute.
    const idle = await Promise.all(
      [[], ['--no-follow']].map(async (flags) => {
        const idleTransport = new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'serve', ...flags],
          cwd: project,
          env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
          stderr: 'ignore',
        });
        const idleClient = new Client({ name: 'bench-follow-idle', version: '0.0.0' });
        await idleClient.connect(idleTransport);
        await idleClient.callTool({ name: 'get_docs', arguments: { library: 'alpha', topic: 'gearbox' } });
        return { client: idleClient, pid: idleTransport.pid as number };
      }),
    );
    await sleep(5000);
    const before = idle.map((server) => cpuOf(server.pid));
    await sleep(idleSeconds * 1000);
    const after = idle.map((server) => cpuOf(server.pid));
    await Promise.all(idle.map((server) => server.client.close()));
    const spent = (i: number) => `${(after[i]?.own ?? 0) - (before[i]?.own ?? 0)} ms`;
    const children = (after[0]?.children ?? 0) - (before[0]?.children ?? 0);
    rows.push([`idle CPU over ${idleSeconds} s, following`, `${spent(0)} (its children ${children} ms)`]);
    rows.push([`idle CPU over ${idleSeconds} s, --no-follow beside it`, spent(1)]);

    const quiet: number[] = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      await getDocs('alpha', 'gearbox');
      quiet.push(performance.now() - started);
    }
    rows.push(['get_docs, nothing building', summary(quiet)]);

    await install(project, 'big', '1.0.0', 'wheels', pages);
    const built = path.join(home, 'big@1.0.0.db');
    const busy: number[] = [];
    const buildStarted = performance.now();
    while (!(await readdir(home)).includes(path.basename(built))) {
      const started = performance.now();
      await getDocs('alpha', 'gearbox');
      busy.push(performance.now() - started);
      await sleep(50);
      if (performance.now() - buildStarted > 300_000) throw new Error('the big build did not finish in 5 minutes');
    }
    rows.push([`get_docs while a ${pages}-page package builds in the background`, summary(busy)]);
    rows.push(['  that build, from the install', `${(performance.now() - buildStarted).toFixed(0)} ms`]);

    await install(project, 'alpha', '2.0.0', 'flywheel');
    const upgraded = await until(async () => /^## alpha@2\.0\.0 /m.test(await getDocs('alpha', 'flywheel')), 120_000);
    rows.push(['from `npm install alpha@2` to the first answer from 2.0.0', `${upgraded.toFixed(0)} ms`]);

    await manifest({ alpha: '*', big: '*', beta: '*' });
    await install(project, 'beta', '1.0.0', 'sprocket');
    const added = await until(async () => /^## beta@1\.0\.0 /m.test(await getDocs('beta', 'sprocket')), 120_000);
    rows.push(['from `npm install beta` to its first answer', `${added.toFixed(0)} ms`]);
  } finally {
    await client.close();
  }

  // The watcher: each folder alone (the server's way) against one recursive watch of a real node_modules.
  const modules = path.join(root, 'node_modules');
  const folders = [project, path.join(project, 'node_modules')];
  rows.push([
    'watcher',
    await watcherCost(
      `fs.watch of ${folders.length} folders alone`,
      `const fs=require('fs');const t=performance.now();for(const f of ${JSON.stringify(folders)})fs.watch(f,()=>{});process.stdout.write('set up in '+(performance.now()-t).toFixed(1)+' ms\\n');`,
    ),
  ]);
  rows.push([
    'watcher',
    await watcherCost(
      `fs.watch of ${modules} recursive`,
      `const fs=require('fs');const t=performance.now();fs.watch(${JSON.stringify(modules)},{recursive:true},()=>{});setTimeout(()=>process.stdout.write('set up in '+(performance.now()-t).toFixed(1)+' ms (its walk, timed to the next turn)\\n'),0);`,
    ),
  ]);
  await rm(dir, { recursive: true, force: true });
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);
}

await main();
