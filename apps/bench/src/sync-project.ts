// `docs sync` of a project with many dependencies, as a user runs it: a process into an empty store (cold), then
// the same command again with nothing changed (warm), which should cost little more than starting the command.
// The project is the one given (`--sync-project <dir>`, e.g. a Python virtualenv's project with `--sync-args --all`),
// or one made here: an npm project whose node_modules holds `count` packages, each a README and a docs folder, so
// the bench needs no network.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { quantile } from './quantile.js';
import { type Measured, runTimed } from './timed-process.js';

/** What a sync of the project cost, cold and warm. */
export interface SyncProjectResult {
  readonly project: string;
  readonly args: readonly string[];
  /** Libraries the cold sync built, as its summary line says. */
  readonly built: number;
  readonly cold: { readonly wallMs: number; readonly cpuMs: number; readonly peakRssKb: number };
  /** Each warm run: the same command with nothing changed. */
  readonly warm: {
    readonly wallMsP50: number;
    readonly cpuMsP50: number;
    readonly peakRssKb: number;
    readonly n: number;
  };
}

/**
 * Writes an npm project into `dir` with `count` installed dependencies in its node_modules, each with a README of a
 * few sections and a docs folder of two pages: what `docs sync` builds from an npm package, without a registry.
 */
export async function makeNpmProject(dir: string, count: number): Promise<void> {
  const dependencies: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `bench-dep-${String(i).padStart(3, '0')}`;
    const version = `1.${i % 7}.${i % 13}`;
    dependencies[name] = `^${version}`;
    const pkg = path.join(dir, 'node_modules', name);
    await mkdir(path.join(pkg, 'docs'), { recursive: true });
    await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name, version, description: `Library ${i}` }));
    const section = (title: string, n: number) =>
      `## ${title}\n\n${`The ${name} ${title.toLowerCase()} takes options for retries, timeouts and caching (${n}). `.repeat(6)}\n\n\`\`\`js\nimport { ${title.replace(/\W/g, '')} } from '${name}';\n\`\`\`\n`;
    await writeFile(
      path.join(pkg, 'README.md'),
      `# ${name}\n\nWhat ${name} does.\n\n${['Install', 'Usage', 'Options', 'Errors'].map((t, n) => section(t, n)).join('\n')}`,
    );
    for (const page of ['guide', 'api']) {
      await writeFile(
        path.join(pkg, 'docs', `${page}.md`),
        `# ${page}\n\n${['Configure', 'Extend', 'Migrate'].map((t, n) => section(t, i + n)).join('\n')}`,
      );
    }
  }
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-project', private: true, dependencies }),
  );
}

/**
 * `docs sync <project> <args>` into an empty store in `work`, then `warmRuns` more times with nothing changed, each a
 * process timed by GNU time.
 */
export async function benchSyncProject(options: {
  readonly bin: readonly string[];
  readonly project: string;
  readonly args: readonly string[];
  readonly work: string;
  readonly warmRuns: number;
}): Promise<SyncProjectResult> {
  const home = await mkdtemp(path.join(options.work, 'sync-home-'));
  const env = { ...process.env, DOCS_HOME: home, NO_COLOR: '1' };
  const command = [...options.bin, 'sync', options.project, ...options.args];
  const checked = (m: Measured): Measured => {
    if (m.code !== 0) throw new Error(`${command.join(' ')} exited ${m.code}: ${m.stderr.slice(0, 2000)}`);
    return m;
  };
  try {
    const cold = checked(await runTimed(command, env, options.work));
    const built = Number(/Synced .*: (?:\d+ installed from \S+, )?(\d+) built/.exec(cold.stdout)?.[1] ?? Number.NaN);
    const warm: Measured[] = [];
    for (let i = 0; i < options.warmRuns; i++) {
      const run = checked(await runTimed(command, env, options.work));
      if (!/ 0 built/.test(run.stdout)) throw new Error(`a warm sync built something:\n${run.stdout.slice(-2000)}`);
      warm.push(run);
    }
    const p50 = (xs: number[]) =>
      quantile(
        [...xs].sort((a, b) => a - b),
        0.5,
      );
    return {
      project: options.project,
      args: options.args,
      built,
      cold: { wallMs: cold.wallMs, cpuMs: cold.cpuMs, peakRssKb: cold.peakRssKb },
      warm: {
        wallMsP50: p50(warm.map((w) => w.wallMs)),
        cpuMsP50: p50(warm.map((w) => w.cpuMs)),
        peakRssKb: Math.max(...warm.map((w) => w.peakRssKb)),
        n: warm.length,
      },
    };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The table's rows for a sync measure. */
export function syncRows(sync: SyncProjectResult): Array<[string, string]> {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  return [
    [
      `docs sync ${[path.basename(sync.project), ...sync.args].join(' ')}, cold (${sync.built} built)`,
      `${s(sync.cold.wallMs)} wall, ${s(sync.cold.cpuMs)} CPU, peak RSS ${mb(sync.cold.peakRssKb)}`,
    ],
    [
      `  warm, nothing changed (p50 of ${sync.warm.n})`,
      `${s(sync.warm.wallMsP50)} wall, ${s(sync.warm.cpuMsP50)} CPU, peak RSS ${mb(sync.warm.peakRssKb)}`,
    ],
  ];
}
