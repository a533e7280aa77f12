// The side-by-side benchmark: the same workload run against docs and every peer given with --peer, interleaved
// (docs, peer 1, peer 2, docs, … for each run), each engine in a temp HOME of its own. Every engine is driven only
// through its command line and its MCP server over stdio, as an agent or a user starts them, so docs is measured
// exactly as its peers are. What each engine is asked is data: peer-adapters.ts.
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { answeredNothing, fillTemplate, type PeerAdapter, type PeerToolCall } from './peer-adapters.js';
import type { PeerSpec } from './peer-args.js';
import { formatKb, formatMs, formatPeerTable, type PeerNote, type PeerRow, type PeerValue } from './peer-table.js';
import { quantile } from './quantile.js';
import { runTimed as run } from './timed-process.js';

interface Question {
  readonly query: string;
  readonly library: string | null;
}

interface Library {
  readonly folder: string;
  readonly name: string;
  readonly version: string;
}

interface Engine {
  readonly spec: PeerSpec;
  readonly adapter: PeerAdapter;
  readonly home: string;
  version: string;
  failure?: string;
  readonly builds: { wallMs: number; cpuMs: number; peakRssKb: number }[];
  readonly cli: number[];
  readonly cliCpu: number[];
  nothing: number;
  unaskable: number;
  readonly sessions: {
    startMs: number;
    rssKb: number;
    single: number[] | string;
    cross: number[] | string;
    /** CPU milliseconds the server's processes used a call, over the timed single- and cross-library calls. */
    cpuPerCallMs: { single: number; cross: number };
    emptyErrors: number;
  }[];
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: readonly number[]) => quantile(sorted(xs), 0.5);

function environment(engine: Engine): NodeJS.ProcessEnv {
  const home = engine.home;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    NO_COLOR: '1',
  };
  delete env.DOCS_HOME;
  for (const [key, value] of Object.entries(engine.adapter.env)) env[key] = fillTemplate(value, { home });
  return env;
}

/** The peak RSS (VmHWM) of the largest process in the tree under `pid`, in kB; NaN where /proc cannot tell. */
async function treePeakRssKb(pid: number | null | undefined): Promise<number> {
  let peak = Number.NaN;
  for (const p of await processTree(pid)) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    const kb = Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1]);
    if (Number.isFinite(kb) && !(kb <= peak)) peak = kb;
  }
  return peak;
}

/** `pid` and every process below it, from the parent ids in /proc. */
async function processTree(pid: number | null | undefined): Promise<number[]> {
  if (!pid) return [];
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(entry), ppid);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of parents) if (parent === tree[i] && !tree.includes(child)) tree.push(child);
  return tree;
}

/** CPU milliseconds (user + system) the processes of the tree under `pid` have used so far, from /proc. */
async function treeCpuMs(pid: number | null | undefined): Promise<number> {
  let total = 0;
  for (const p of await processTree(pid)) {
    const text = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => '');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat (12 and 13 after the command), in clock ticks of 10 ms.
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

const tail = (text: string) => text.trim().split('\n').slice(-3).join(' / ').slice(0, 300);

async function build(engine: Engine, libraries: readonly Library[], corpus: string): Promise<void> {
  await rm(engine.home, { recursive: true, force: true });
  await mkdir(engine.home, { recursive: true });
  const env = environment(engine);
  let wallMs = 0;
  let cpuMs = 0;
  let peakRssKb = 0;
  for (const library of libraries) {
    const args = fillTemplate(engine.adapter.build, {
      home: engine.home,
      folder: path.join(corpus, library.folder),
      name: library.name,
      version: library.version,
    });
    const done = await run([...engine.spec.command, ...args], env, engine.home);
    if (done.code !== 0) {
      engine.failure = `build of ${library.folder} exited ${done.code}: ${tail(done.stderr || done.stdout)}`;
      return;
    }
    wallMs += done.wallMs;
    cpuMs += done.cpuMs;
    peakRssKb = Math.max(peakRssKb, done.peakRssKb);
  }
  engine.builds.push({ wallMs, cpuMs, peakRssKb });
}

function templateValues(engine: Engine, q: Question, versions: ReadonlyMap<string, string>) {
  return {
    home: engine.home,
    library: q.library ?? '',
    libraryVersion: (q.library && versions.get(q.library)) || '',
    query: q.query,
  };
}

/** One MCP session: spawn to the first tools/list reply, warm-up, then every question timed, and the peak RSS. */
async function session(
  engine: Engine,
  questions: readonly Question[],
  versions: ReadonlyMap<string, string>,
): Promise<Engine['sessions'][number]> {
  const [command, ...first] = engine.spec.command as [string, ...string[]];
  const transport = new StdioClientTransport({
    command,
    args: [...first, ...engine.adapter.serve.args],
    env: environment(engine) as Record<string, string>,
    cwd: engine.home,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const client = new Client({ name: 'docs-bench-peers', version: '0.0.0' });
  try {
    const started = performance.now();
    await client.connect(transport);
    const { tools } = await client.listTools();
    const startMs = performance.now() - started;
    const names = new Set(tools.map((t) => t.name));
    let emptyErrors = 0;
    const call = async (tool: PeerToolCall, q: Question): Promise<number> => {
      const args = fillTemplate(tool.arguments, templateValues(engine, q, versions));
      const t = performance.now();
      const result = await client.callTool({ name: tool.tool, arguments: args });
      const ms = performance.now() - t;
      if (result.isError) emptyErrors++;
      return ms;
    };
    const cpu = { single: Number.NaN, cross: Number.NaN };
    const measure = async (key: 'single' | 'cross', asked: readonly Question[]): Promise<number[] | string> => {
      const tool = engine.adapter.serve[key];
      if (!tool) return 'no such tool';
      if (!names.has(tool.tool)) return `no tool ${tool.tool}`;
      for (const q of asked.slice(0, 5)) await call(tool, q);
      const samples: number[] = [];
      const cpuStart = await treeCpuMs(transport.pid);
      for (const q of asked) samples.push(await call(tool, q));
      cpu[key] = ((await treeCpuMs(transport.pid)) - cpuStart) / samples.length;
      return samples;
    };
    const single = await measure(
      'single',
      questions.filter((q) => q.library !== null),
    );
    const cross = await measure('cross', questions);
    const rssKb = await treePeakRssKb(transport.pid);
    return { startMs, rssKb, single, cross, cpuPerCallMs: cpu, emptyErrors };
  } catch (error) {
    throw new Error(`${engine.spec.name} MCP server: ${(error as Error).message} ${tail(stderr)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function corpusLibraries(corpus: string): Promise<{ libraries: Library[]; bytes: number }> {
  const libraries: Library[] = [];
  let bytes = 0;
  for (const entry of await readdir(corpus, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const at = entry.name.lastIndexOf('@');
    if (at <= 0) continue;
    libraries.push({ folder: entry.name, name: entry.name.slice(0, at), version: entry.name.slice(at + 1) });
    for (const file of await readdir(path.join(corpus, entry.name), { recursive: true, withFileTypes: true }))
      if (file.isFile()) bytes += (await stat(path.join(file.parentPath, file.name))).size;
  }
  return { libraries: libraries.sort((a, b) => a.folder.localeCompare(b.folder)), bytes };
}

/** Every engine's figures, and the table with the floor, the load and the versions above it. */
export async function benchPeers(options: {
  readonly corpus: string;
  readonly questions: readonly Question[];
  readonly specs: readonly PeerSpec[];
  readonly adapters: ReadonlyMap<string, PeerAdapter>;
  readonly runs: number;
  readonly log: (line: string) => void;
}): Promise<{ readonly markdown: string; readonly results: Record<string, unknown> }> {
  const { corpus, questions, runs, log } = options;
  const { libraries, bytes } = await corpusLibraries(corpus);
  const versions = new Map(libraries.map((l) => [l.name, l.version]));
  const work = await mkdtemp(path.join(tmpdir(), 'docs-bench-peers-'));
  const load = loadavg().map((x) => x.toFixed(2));
  const engines: Engine[] = options.specs.map((spec) => {
    const adapter = options.adapters.get(spec.name);
    if (!adapter) throw new Error(`no adapter named ${spec.name}`);
    return {
      spec,
      adapter,
      home: path.join(work, spec.name),
      version: '?',
      builds: [],
      cli: [],
      cliCpu: [],
      nothing: 0,
      unaskable: 0,
      sessions: [],
    };
  });
  const floor: number[] = [];
  const floorCpu: number[] = [];
  try {
    for (const engine of engines) {
      await mkdir(engine.home, { recursive: true });
      const v = await run([...engine.spec.command, ...engine.adapter.version], environment(engine), engine.home);
      engine.version = v.code === 0 ? (v.stdout.trim().split('\n')[0] ?? '?') : `? (exit ${v.code})`;
      log(`${engine.spec.name}: ${engine.spec.command.join(' ')} → ${engine.version}`);
    }
    // Builds: every library of the corpus, one process each, in a fresh home; the last run's stores are asked.
    for (let r = 0; r < runs; r++)
      for (const engine of engines) {
        if (engine.failure) continue;
        await build(engine, libraries, corpus);
        const b = engine.builds.at(-1);
        log(
          `build run ${r + 1}/${runs} ${engine.spec.name}: ${engine.failure ?? `${formatMs(b?.wallMs ?? Number.NaN)} wall, ${formatMs(b?.cpuMs ?? Number.NaN)} CPU`}`,
        );
      }
    // One-shot questions: each question asked of every engine in turn, with a bare `node -e 0` beside them.
    for (const [i, q] of questions.entries()) {
      const bare = await run([process.execPath, '-e', '0'], process.env, work);
      floor.push(bare.wallMs);
      floorCpu.push(bare.cpuMs);
      for (const engine of engines) {
        if (engine.failure) continue;
        const template = q.library ? engine.adapter.query.single : engine.adapter.query.cross;
        if (!template) {
          engine.unaskable++;
          continue;
        }
        const args = fillTemplate(template, templateValues(engine, q, versions));
        const done = await run([...engine.spec.command, ...args], environment(engine), engine.home);
        engine.cli.push(done.wallMs);
        engine.cliCpu.push(done.cpuMs);
        if (done.code !== 0 || answeredNothing(engine.adapter, done.stdout)) engine.nothing++;
      }
      if ((i + 1) % 10 === 0) log(`one-shot questions: ${i + 1}/${questions.length}`);
    }
    // MCP over stdio: a server started per run and engine, warmed up, every question timed.
    for (let r = 0; r < runs; r++)
      for (const engine of engines) {
        if (engine.failure) continue;
        try {
          const s = await session(engine, questions, versions);
          engine.sessions.push(s);
          log(`MCP run ${r + 1}/${runs} ${engine.spec.name}: ready in ${formatMs(s.startMs)}, ${formatKb(s.rssKb)}`);
        } catch (error) {
          engine.failure = (error as Error).message;
          log(engine.failure);
        }
      }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const loadEnd = loadavg().map((x) => x.toFixed(2));
  const floorMs = median(floor);
  const floorCpuMs = median(floorCpu);
  const rows = peerRows(engines, bytes, floorMs, floorCpuMs, questions.length);
  const titles = engines.map((e) => e.adapter.title);
  const markdown = [
    `${libraries.length} libraries (${(bytes / 1e6).toFixed(2)} MB), ${questions.length} questions, ${runs} run(s) interleaved; ${cpus().length} cores, load average ${load.join(' ')} at the start, ${loadEnd.join(' ')} at the end; \`node -e 0\` ${formatMs(floorMs)} wall, ${formatMs(floorCpuMs)} CPU (p50) in the same run.`,
    '',
    formatPeerTable(titles, rows),
    ...engines.map(
      (e) => `- ${e.adapter.title}: \`${e.spec.command.join(' ')}\` (${e.version})${e.failure ? `: ${e.failure}` : ''}`,
    ),
    '',
  ].join('\n');
  const results = {
    corpusBytes: bytes,
    loadAverage: { start: load, end: loadEnd },
    nodeFloorMs: floorMs,
    nodeFloorCpuMs: floorCpuMs,
    engines: engines.map((e) => ({
      name: e.spec.name,
      command: e.spec.command,
      version: e.version,
      failure: e.failure,
      builds: e.builds,
      cliMsP50: median(e.cli),
      cliCpuMsP50: median(e.cliCpu),
      nothing: e.nothing,
      unaskable: e.unaskable,
      sessions: e.sessions.map((s) => ({
        startMs: s.startMs,
        rssKb: s.rssKb,
        errors: s.emptyErrors,
        cpuPerCallMs: s.cpuPerCallMs,
        single: typeof s.single === 'string' ? s.single : latency(s.single),
        cross: typeof s.cross === 'string' ? s.cross : latency(s.cross),
      })),
    })),
  };
  return { markdown, results };
}

function latency(samples: readonly number[]): { p50: number; p95: number; n: number } {
  const s = sorted(samples);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), n: s.length };
}

const failed = (engine: Engine): PeerNote => ({ note: engine.failure ? 'failed' : '—' });

/** The table's rows from every engine's samples: medians over the runs, MCP percentiles over every run's calls. */
function peerRows(
  engines: readonly Engine[],
  bytes: number,
  floorMs: number,
  floorCpuMs: number,
  questionCount: number,
): PeerRow[] {
  const cell = (engine: Engine, value: number, text: string): PeerValue | PeerNote =>
    Number.isFinite(value) ? { value, text } : failed(engine);
  /** The highest of a memory reading in KB (none: -Infinity, which `cell` reports as failed). */
  const peak = (engine: Engine, kbs: readonly number[]) => {
    const kb = Math.max(...kbs);
    return cell(engine, kb, formatKb(kb));
  };
  const mcp = (engine: Engine, key: 'single' | 'cross'): PeerValue | PeerNote => {
    if (engine.sessions.length === 0) return failed(engine);
    const note = engine.sessions.map((s) => s[key]).find((x) => typeof x === 'string');
    if (typeof note === 'string') return { note };
    const all = latency(engine.sessions.flatMap((s) => s[key] as number[]));
    return { value: all.p50, text: `${all.p50.toFixed(2)} / ${all.p95.toFixed(2)} ms` };
  };
  const buildWall = (e: Engine) => median(e.builds.map((b) => b.wallMs));
  return [
    {
      label: `build every library, wall (MB/s over ${(bytes / 1e6).toFixed(2)} MB)`,
      worse: 'slower',
      cells: engines.map((e) => {
        const ms = buildWall(e);
        return cell(e, ms, `${formatMs(ms)} (${(bytes / 1e6 / (ms / 1000)).toFixed(2)})`);
      }),
    },
    {
      label: 'build CPU, user + sys of every process',
      worse: 'more',
      cells: engines.map((e) => {
        const ms = median(e.builds.map((b) => b.cpuMs));
        return cell(e, ms, formatMs(ms));
      }),
    },
    {
      label: 'build peak RSS, one process',
      worse: 'more',
      cells: engines.map((e) =>
        peak(
          e,
          e.builds.map((b) => b.peakRssKb),
        ),
      ),
    },
    {
      label: 'CLI one-shot query, wall p50',
      worse: 'slower',
      floor: { value: floorMs, name: 'the bare node floor' },
      cells: engines.map((e) => cell(e, median(e.cli), formatMs(median(e.cli)))),
    },
    {
      label: 'CLI one-shot query, CPU p50 (user + sys)',
      worse: 'more',
      floor: { value: floorCpuMs, name: 'the bare node floor' },
      cells: engines.map((e) => cell(e, median(e.cliCpu), formatMs(median(e.cliCpu)))),
    },
    { label: 'MCP single-library tool, p50 / p95', worse: 'slower', cells: engines.map((e) => mcp(e, 'single')) },
    { label: 'MCP cross-library, p50 / p95', worse: 'slower', cells: engines.map((e) => mcp(e, 'cross')) },
    ...(['single', 'cross'] as const).map(
      (key): PeerRow => ({
        label: `MCP server CPU a ${key}-library call, mean (/proc, 10 ms ticks)`,
        worse: 'more',
        cells: engines.map((e) => {
          const ms = median(e.sessions.map((s) => s.cpuPerCallMs[key]));
          if (Number.isFinite(ms)) return { value: ms, text: formatMs(ms) };
          const why = mcp(e, key);
          return 'note' in why ? why : { note: '—' };
        }),
      }),
    ),
    {
      label: 'serving process peak RSS',
      worse: 'more',
      cells: engines.map((e) =>
        peak(
          e,
          e.sessions.map((s) => s.rssKb),
        ),
      ),
    },
    {
      label: 'server start → first `tools/list` reply, p50',
      worse: 'slower',
      cells: engines.map((e) => {
        const ms = median(e.sessions.map((s) => s.startMs));
        return cell(e, ms, formatMs(ms));
      }),
    },
    {
      label: `questions answered with nothing (of ${questionCount})`,
      worse: 'none',
      cells: engines.map((e) =>
        e.cli.length === 0 && e.unaskable === 0
          ? failed(e)
          : {
              value: e.nothing + e.unaskable,
              text: e.unaskable > 0 ? `${e.nothing + e.unaskable} (${e.unaskable} not askable)` : String(e.nothing),
            },
      ),
    },
  ];
}
