import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type BuildProgress, buildPackage } from '@docs/ingest';
import { findProjectDependencies, type InstalledDependency, stageDependencyDocs } from '@docs/sources';
import { formatPackageId, type PackageStore, StoreError } from '@docs/store';
import { openStore, printJson, readerOrFormatError } from '../context.js';
import type { GlobalOptions } from '../main.js';
import { interruptible, progressLine, savePackage } from './add.js';

export interface SyncOptions {
  readonly dev?: boolean;
  /** false with --no-types. */
  readonly types?: boolean;
  readonly save?: string;
}

interface Built {
  readonly library: string;
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
  readonly bytes: number;
  readonly saved?: string;
}

interface Outcome {
  readonly library: string;
  readonly reason: string;
}

/**
 * `docs sync [dir]`: a package for each dependency the project has installed,
 * at its installed version, from the README, docs folder and type
 * declarations it ships. Versions already in the store are skipped; a
 * dependency that fails is reported and the rest go on.
 */
export async function sync(dir: string, options: SyncOptions, globals: GlobalOptions): Promise<void> {
  const project = path.resolve(dir);
  const found = await findProjectDependencies(project, { dev: options.dev === true });
  const store = openStore(globals);
  // A package an earlier docs built in another format is built again, not skipped as "already built".
  const present = new Set(
    (await store.list())
      .filter((p) => !(readerOrFormatError(store, p) instanceof StoreError))
      .map((p) => formatPackageId(p).toLowerCase()),
  );
  const built: Built[] = [];
  const skipped: Outcome[] = found.skipped.map((s) => ({
    library: s.version ? `${s.name}@${s.version}` : s.name,
    reason: s.reason,
  }));
  const failed: Outcome[] = [];
  const progress = !globals.json && process.stderr.isTTY ? progressLine() : undefined;
  const say = (line: string) => {
    if (globals.json) return;
    progress?.clear();
    process.stdout.write(`${line}\n`);
  };
  for (const s of skipped) say(`Skipped ${s.library}: ${s.reason}`);

  await interruptible('interrupted; packages already built were kept, nothing partial was left', async (signal) => {
    for (const [index, dependency] of found.installed.entries()) {
      const library = formatPackageId(dependency);
      if (present.has(library.toLowerCase())) {
        skipped.push({ library, reason: 'already built' });
        say(`Skipped ${library}: already built`);
        continue;
      }
      try {
        const outcome = await buildDependency(
          store,
          dependency,
          options,
          signal,
          progress ? (p) => progress.build(p, `${library} (${index + 1}/${found.installed.length})`) : undefined,
        );
        if ('reason' in outcome) {
          skipped.push(outcome);
          say(`Skipped ${library}: ${outcome.reason}`);
        } else {
          built.push(outcome);
          say(
            `Built ${library}: ${outcome.documents} documents, ${outcome.chunks} sections, ` +
              `${outcome.tokens.toLocaleString('en')} tokens, ${(outcome.bytes / 1e6).toFixed(1)} MB` +
              (outcome.saved ? `, saved to ${outcome.saved}` : '') +
              ` (${index + 1}/${found.installed.length})`,
          );
        }
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = (error as Error).message ?? String(error);
        failed.push({ library, reason });
        progress?.clear();
        if (!globals.json) process.stderr.write(`docs: ${library} failed: ${reason}\n`);
      }
    }
  }).finally(() => progress?.clear());

  if (globals.json) {
    printJson({ project, built, skipped, failed });
    return;
  }
  const none = built.length + skipped.length + failed.length === 0;
  const hint = none && !options.dev ? ' (no dependencies; --dev includes devDependencies)' : '';
  process.stdout.write(
    `Synced ${project}: ${built.length} built, ${skipped.length} skipped, ${failed.length} failed${hint}\n`,
  );
}

async function buildDependency(
  store: PackageStore,
  dependency: InstalledDependency,
  options: SyncOptions,
  signal: AbortSignal,
  onProgress: ((p: BuildProgress) => void) | undefined,
): Promise<Built | Outcome> {
  const library = formatPackageId(dependency);
  const staged = await stageDependencyDocs(dependency, { types: options.types !== false });
  if (!staged.ok) return { library, reason: staged.error };
  const source = staged.value;
  try {
    await mkdir(store.dir, { recursive: true });
    const summary = await buildPackage({
      root: source.root,
      name: dependency.name,
      version: dependency.version,
      output: store.partialPath(dependency),
      source: source.source,
      signal,
      ...(onProgress ? { onProgress } : {}),
      ...(source.description ? { description: source.description } : {}),
    });
    const { installed } = await store.install(summary.output, { move: true });
    const saved = options.save === undefined ? undefined : await savePackage(installed, `${options.save}/`);
    return {
      library: formatPackageId(installed),
      documents: summary.documents,
      chunks: summary.chunks,
      tokens: summary.tokens,
      bytes: summary.bytes,
      ...(saved ? { saved } : {}),
    };
  } finally {
    await source.dispose();
  }
}
