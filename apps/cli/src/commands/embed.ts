import type { Embedder } from '@docs/embed';
import type { EmbedProgress, EmbedSummary } from '@docs/ingest';
import { formatPackageId, type InstalledPackage, type PackageStore, resolveErrorMessage } from '@docs/store';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import { interruptible } from '../interruptible.js';
import { modelSpecs } from '../models.js';
import type { GlobalOptions } from '../options.js';

/** Options of `docs embed`, as commander parses them. */
export interface EmbedOptions {
  readonly all?: boolean;
  readonly embed?: string;
  readonly batchSize?: number;
  /** The store's background worker (vector-worker.ts), as `docs add` and `docs sync` start it. */
  readonly worker?: boolean;
}

/**
 * `docs embed <library…> | --all`: adds a vector per section to installed
 * packages, from their stored sections. Each batch is kept as it is done, so
 * an interrupted run (Ctrl-C, a kill, a crash) carries on where it stopped
 * when run again; each package answers lexically until its vectors are all
 * there, and is then replaced in one step.
 */
export async function embed(
  libraries: readonly string[],
  options: EmbedOptions,
  globals: GlobalOptions,
): Promise<void> {
  if (options.worker) {
    if (options.embed === undefined || libraries.length > 0 || options.all) {
      throw new UsageError('--worker takes --embed <spec> and no libraries: it embeds every package without vectors');
    }
    const { vectorWorker } = await import('./vector-worker.js');
    return vectorWorker(options.embed, globals);
  }
  if (options.all && libraries.length > 0) throw new UsageError('name libraries or give --all, not both');
  if (!options.all && libraries.length === 0) throw new UsageError('say which libraries to embed, or --all');
  const spec = modelSpecs({ ...(options.embed === undefined ? {} : { embed: options.embed }) }).embed;
  if (spec === undefined) {
    throw new UsageError(
      'say which embedder to use: --embed <model folder | model name | openai:<model>>, or set DOCS_EMBED',
    );
  }
  const store = openStore(globals);
  try {
    const packages = await packagesToEmbed(store, libraries, options.all === true);
    const { openEmbedder } = await import('@docs/embed');
    const embedder = await openEmbedder(spec);
    try {
      const summaries: EmbedSummary[] = [];
      for (const pkg of packages) {
        summaries.push(await embedOne(store, pkg, embedder, options, globals));
      }
      if (globals.json) printJson({ embedder: embedder.id, libraries: summaries.map(toJson) });
    } finally {
      await embedder.close();
    }
  } finally {
    await store.close();
  }
}

/**
 * Embeds one installed package with a progress line, turning Ctrl-C into
 * "interrupted" (exit 130) with how far it got. Shared with `docs add --embed`.
 */
export async function embedOne(
  store: PackageStore,
  pkg: InstalledPackage,
  embedder: Embedder,
  options: { batchSize?: number | undefined; announce?: boolean },
  globals: GlobalOptions,
): Promise<EmbedSummary> {
  const { embedPackage } = await import('@docs/ingest');
  const label = formatPackageId(pkg);
  const progress = !globals.json && process.stderr.isTTY ? embedProgressLine(label) : undefined;
  let last: EmbedProgress | undefined;
  const summary = await interruptible(
    `interrupted; ${label} answers as before, and the sections embedded so far are kept: run docs embed ${pkg.name} again to carry on`,
    (signal) =>
      embedPackage(store, pkg, embedder, {
        signal,
        ...(options.batchSize ? { batchSize: options.batchSize } : {}),
        onProgress: (p) => {
          last = p;
          progress?.draw(p);
        },
      }).finally(() => progress?.clear()),
  );
  if (!globals.json && options.announce !== false) {
    if (summary.embedded === 0 && last === undefined) {
      process.stdout.write(`${label} already has vectors from ${summary.embedder}\n`);
    } else {
      const seconds = summary.elapsedMs / 1000;
      const rate = seconds > 0 ? ` (${(summary.embedded / seconds).toFixed(1)} sections/s)` : '';
      const resumed = summary.resumed > 0 ? `, carrying on from ${summary.resumed} done before` : '';
      process.stdout.write(
        `Embedded ${label}: ${summary.total} sections with ${summary.embedder} in ${seconds.toFixed(1)} s${rate}${resumed}\n`,
      );
    }
  }
  return summary;
}

async function packagesToEmbed(
  store: PackageStore,
  libraries: readonly string[],
  all: boolean,
): Promise<InstalledPackage[]> {
  if (all) {
    const seen = new Set<string>();
    const latest = (await store.list()).filter((p) => !seen.has(p.name) && seen.add(p.name));
    if (latest.length === 0) throw new UsageError(`no documentation packages are installed in ${store.dir}`);
    return latest;
  }
  const packages: InstalledPackage[] = [];
  for (const spec of libraries) {
    const found = await store.resolve(spec);
    if (!found.ok) throw new UsageError(resolveErrorMessage(found.error));
    if (!packages.some((p) => p.file === found.value.file)) packages.push(found.value);
  }
  return packages;
}

function toJson(summary: EmbedSummary) {
  const { installed, ...rest } = summary;
  return { library: formatPackageId(installed), file: installed.file, ...rest };
}

/** A progress line on stderr, redrawn at most every 100 ms. */
function embedProgressLine(label: string): { draw: (p: EmbedProgress) => void; clear: () => void } {
  let last = 0;
  let shown = false;
  return {
    draw(p) {
      const now = Date.now();
      if (now - last < 100 && p.done !== p.total) return;
      last = now;
      shown = true;
      const rate = p.elapsedMs > 0 ? `, ${((1000 * p.embedded) / p.elapsedMs).toFixed(1)} sections/s` : '';
      process.stderr.write(`\r\x1b[K  embedding ${label}: ${p.done}/${p.total} sections${rate}`);
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
