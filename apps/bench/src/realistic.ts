// A realistic many-library store: every package installed under this
// repository's node_modules/.pnpm, built as `docs sync` builds a dependency
// from its package (README, docs folder, API from its type declarations),
// beside the corpus libraries. Unlike the synthetic copies, most of these
// libraries hold few of a question's words, as a project's dependencies do.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '@docs/ingest';
import { stageDependencyDocs } from '@docs/sources';
import { type InstalledPackage, PackageStore, packageFileName } from '@docs/store';

interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly description?: unknown;
}

/** The packages pnpm installed for this repository, one per name@version. */
async function installedPackages(
  root: string,
): Promise<Array<{ name: string; version: string; dir: string; description?: string }>> {
  const virtual = path.join(root, 'node_modules/.pnpm');
  const found = new Map<string, { name: string; version: string; dir: string; description?: string }>();
  for (const entry of await readdir(virtual).catch(() => [] as string[])) {
    const modules = path.join(virtual, entry, 'node_modules');
    const names: string[] = [];
    for (const child of await readdir(modules).catch(() => [] as string[])) {
      if (!child.startsWith('@')) names.push(child);
      else
        for (const scoped of await readdir(path.join(modules, child)).catch(() => [])) names.push(`${child}/${scoped}`);
    }
    for (const name of names) {
      const dir = path.join(modules, name);
      // The package itself is a folder; its dependencies beside it are links to their own entries.
      if (!(await lstat(dir)).isDirectory()) continue;
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => '{}')) as Manifest;
      if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') continue;
      found.set(`${manifest.name}@${manifest.version}`, {
        name: manifest.name,
        version: manifest.version,
        dir,
        ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
      });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Fills `dir` with the realistic store (unless it holds one already: pass the
 * same `--realistic-store` folder to reuse it across runs), the corpus
 * packages linked in from `corpusStore`. Returns how many libraries it holds.
 */
async function realisticStore(root: string, corpusStore: readonly InstalledPackage[], dir: string): Promise<number> {
  const store = new PackageStore(dir);
  try {
    if ((await store.list()).length === 0) {
      await mkdir(dir, { recursive: true });
      for (const dependency of await installedPackages(root)) {
        const staged = await stageDependencyDocs({ ...dependency, ecosystem: 'npm', dev: false });
        if (!staged.ok) continue;
        try {
          const summary = await buildPackage({
            root: staged.value.root,
            name: dependency.name,
            version: dependency.version,
            output: store.partialPath(dependency),
            source: staged.value.source,
            workers: 0,
            ...(staged.value.description ? { description: staged.value.description } : {}),
          });
          await store.install(summary.output, { move: true });
        } catch {
          // A dependency whose docs do not build is left out, as sync reports and skips it.
        } finally {
          await staged.value.dispose();
        }
      }
      for (const pkg of corpusStore) {
        const target = path.join(dir, packageFileName(pkg));
        if (!existsSync(target)) await link(pkg.file, target);
      }
      // The linked corpus packages were not installed through the store: their catalog entries come here.
      await store.updateCatalog();
    }
    return (await store.list()).length;
  } finally {
    await store.close();
  }
}

/**
 * A store of `count` libraries made from the realistic one: all of it, then
 * its dependency packages again under new names (hard links), catalogued as
 * an install would. Dependencies resemble each other, so the copies stand for
 * the libraries a larger project adds.
 */
async function realisticStoreOf(
  source: string,
  corpus: readonly InstalledPackage[],
  count: number,
  dir: string,
): Promise<void> {
  const packages = await new PackageStore(source).list();
  const corpusNames = new Set(corpus.map((p) => p.name));
  await mkdir(dir, { recursive: true });
  for (const pkg of packages) await link(pkg.file, path.join(dir, packageFileName(pkg)));
  const dependencies = packages.filter((p) => !corpusNames.has(p.name));
  for (let i = 0; packages.length + i < count && dependencies.length > 0; i++) {
    const from = dependencies[i % dependencies.length] as InstalledPackage;
    await link(from.file, path.join(dir, packageFileName({ name: `${from.name}-copy${i}`, version: from.version })));
  }
  const store = new PackageStore(dir);
  await store.updateCatalog();
  await store.close();
}

/** What many.js prints: searchAll latency over a store and the memory it took. */
export interface ManyStats {
  readonly p50: number;
  readonly p95: number;
  readonly peakRssMb: number;
  readonly anonRssMb?: number;
  readonly fileRssMb?: number;
  /** The ranked full-text query alone in every library, p50 (many.js): what reading every library costs at least. */
  readonly rankedQueryP50?: number;
}

/** A table row of {@link ManyStats}. */
export function manyRow(stats: ManyStats): string {
  const split =
    stats.anonRssMb === undefined || stats.fileRssMb === undefined
      ? ''
      : ` (at the end ${stats.anonRssMb.toFixed(0)} MB own + ${stats.fileRssMb.toFixed(0)} MB mapped files)`;
  return `p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms, peak RSS ${stats.peakRssMb.toFixed(0)} MB${split}`;
}

/**
 * searchAll over the realistic store, and over stores of each of `sizes`
 * libraries made from it, each measured in a process of its own (many.js).
 */
export async function benchRealistic(options: {
  readonly root: string;
  readonly corpus: readonly InstalledPackage[];
  readonly work: string;
  /** Where the realistic store is kept between runs; in `work` (built anew) when unset. */
  readonly storeDir: string | undefined;
  readonly sizes: readonly number[];
  readonly queriesFile: string;
  readonly runs: number;
  readonly table: Array<[string, string]>;
}): Promise<Record<string, unknown>> {
  const dir = options.storeDir ?? path.join(options.work, 'realistic');
  const started = performance.now();
  const libraries = await realisticStore(options.root, options.corpus, dir);
  const results: Record<string, unknown> = { libraries, preparedMs: performance.now() - started };
  const measure = async (store: string, label: string, key: string) => {
    const stats = JSON.parse(await runMany(store, options.queriesFile, options.runs)) as ManyStats;
    results[key] = stats;
    options.table.push([label, manyRow(stats)]);
  };
  await measure(dir, `searchAll, realistic store (${libraries} libraries)`, String(libraries));
  for (const size of options.sizes.filter((n) => n > libraries)) {
    const copies = path.join(options.work, `realistic-${size}`);
    await realisticStoreOf(dir, options.corpus, size, copies);
    await measure(copies, `searchAll, realistic store of ${size} libraries`, String(size));
    await rm(copies, { recursive: true, force: true });
  }
  return results;
}

function runMany(dir: string, queriesFile: string, runs: number): Promise<string> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'many.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir, queriesFile, String(Math.min(runs, 3))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`many.js ${dir} exited ${code}`))));
  });
}
