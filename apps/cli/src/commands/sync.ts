import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type BuildProgress, buildPackage } from '@docs/ingest';
import {
  findProjectDependencies,
  type InstalledDependency,
  planRepositories,
  type RepositoryStage,
  stageDependencyDocs,
  stageFromRepositories,
} from '@docs/sources';
import { formatPackageId, isStoreError, type PackageStore } from '@docs/store';
import { openStore, printJson, readerOrFormatError } from '../context.js';
import { interruptible } from '../interruptible.js';
import type { GlobalOptions } from '../options.js';
import { progressLine } from '../progress-line.js';
import { savePackage } from '../save-package.js';
import { type FromRegistry, installPublished } from './sync-registry.js';

export interface SyncOptions {
  readonly dev?: boolean;
  /** false with --no-types. */
  readonly types?: boolean;
  readonly save?: string;
  /** Only the workspace packages whose name or path matches. */
  readonly filter?: readonly string[];
  /** Build each dependency from its repository's docs at the installed version's tag. */
  readonly fromRepo?: boolean;
  /** List what would be built and skipped; build nothing. */
  readonly dryRun?: boolean;
  /** Install each dependency's doc package from this npm scope when one is published for its version. */
  readonly scope?: string;
  readonly registry?: string;
}

interface Built {
  readonly library: string;
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
  readonly bytes: number;
  readonly saved?: string;
  /** `repository` when built from the repository's docs at a tag, else `package` (README, docs folder, API page). */
  readonly from: 'repository' | 'package';
  readonly tag?: string;
  /** With --from-repo, why the package was used instead of the repository. */
  readonly fallback?: string;
}

interface Outcome {
  readonly library: string;
  readonly reason: string;
}

/** What `--dry-run` would build, and from where. */
interface Planned {
  readonly library: string;
  readonly from: 'repository' | 'package';
  readonly repository?: string;
  readonly directory?: string;
  /** The tags tried, in order, for the installed version; the first that exists is built. */
  readonly tags?: readonly string[];
  readonly fallback?: string;
  readonly usedBy?: readonly string[];
}

/**
 * `docs sync [dir]`: a package for each dependency the project has installed,
 * at its installed version, from the README, docs folder and type
 * declarations it ships (or, with --from-repo, its repository's docs at the
 * version's tag). At a workspace root every workspace package's dependencies
 * are synced, once per name@version. Versions already in the store are
 * skipped; a dependency that fails is reported and the rest go on.
 */
export async function sync(dir: string, options: SyncOptions, globals: GlobalOptions): Promise<void> {
  const project = path.resolve(dir);
  const found = await findProjectDependencies(project, {
    dev: options.dev === true,
    ...(options.filter ? { filter: options.filter } : {}),
  });
  const store = openStore(globals);
  // A package an earlier docs built in another format is built again, not skipped as "already built".
  const present = new Set(
    (await store.list())
      .filter((p) => !isStoreError(readerOrFormatError(store, p)))
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
  const workspace = found.workspaceFile
    ? {
        file: path.relative(project, found.workspaceFile) || found.workspaceFile,
        packages: found.packages.map((p) => p.path),
      }
    : undefined;
  if (workspace) {
    say(`Workspace (${workspace.file}): ${plural(found.packages.length, 'package')}: ${workspace.packages.join(', ')}`);
  }
  for (const s of skipped) say(`Skipped ${s.library}: ${s.reason}`);
  let wanted: InstalledDependency[] = [];
  for (const dependency of found.installed) {
    const library = formatPackageId(dependency);
    if (present.has(library.toLowerCase())) {
      skipped.push({ library, reason: 'already built' });
      say(`Skipped ${library}: already built`);
    } else {
      wanted.push(dependency);
    }
  }

  const fromRegistry: FromRegistry[] = [];
  const registry = (dryRun: boolean, signal?: AbortSignal) =>
    installPublished(
      store,
      wanted,
      {
        scope: options.scope as string,
        project,
        dryRun,
        ...(options.registry ? { registry: options.registry } : {}),
        ...(signal ? { signal } : {}),
      },
      {
        installed: fromRegistry,
        failed,
        say,
        warn: (line) => !globals.json && process.stderr.write(`docs: ${line}\n`),
      },
    );

  if (options.dryRun) {
    if (options.scope) wanted = await registry(true);
    const planned = await plan(wanted, options.fromRepo === true);
    if (globals.json) {
      printJson({
        project,
        ...(workspace ? { workspace } : {}),
        dryRun: true,
        ...(options.scope ? { install: fromRegistry } : {}),
        build: planned,
        skipped,
      });
      return;
    }
    for (const p of planned) say(`Would build ${p.library} ${describePlan(p)}`);
    process.stdout.write(
      `Dry run for ${project}: ${options.scope ? `${fromRegistry.length} would be installed from ${options.scope}, ` : ''}` +
        `${planned.length} would be built, ${skipped.length} skipped; nothing was built\n`,
    );
    return;
  }

  await interruptible('interrupted; packages already built were kept, nothing partial was left', async (signal) => {
    // Published doc packages first; what is left is built.
    if (options.scope) wanted = await registry(false, signal);
    const stages = options.fromRepo
      ? await stageFromRepositories(wanted, {
          types: options.types !== false,
          signal,
          ...(progress ? { onProgress: (p) => progress.text(`repositories ${p.done}/${p.total}: ${p.current}`) } : {}),
        })
      : undefined;
    try {
      for (const [index, dependency] of wanted.entries()) {
        signal.throwIfAborted();
        const library = formatPackageId(dependency);
        const stage = stages?.[index];
        try {
          const outcome = await buildDependency(
            store,
            dependency,
            stage,
            options,
            signal,
            progress ? (p) => progress.build(p, `${library} (${index + 1}/${wanted.length})`) : undefined,
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
                (options.fromRepo ? `, ${describeOrigin(outcome)}` : '') +
                ` (${index + 1}/${wanted.length})`,
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
    } finally {
      // Staged folders not built (an interrupt, a failure) are removed here; built ones were removed after their build.
      await Promise.all((stages ?? []).map((s) => (s.result.ok ? s.result.value.dispose() : undefined)));
    }
  }).finally(() => progress?.clear());

  if (globals.json) {
    printJson({
      project,
      ...(workspace ? { workspace } : {}),
      ...(options.scope ? { installed: fromRegistry } : {}),
      built,
      skipped,
      failed,
    });
    return;
  }
  const none = built.length + fromRegistry.length + skipped.length + failed.length === 0;
  const hint = none && !options.dev ? ' (no dependencies; --dev includes devDependencies)' : '';
  const fromRepositories = built.filter((b) => b.from === 'repository').length;
  const origin = options.fromRepo
    ? ` (${fromRepositories} from repositories, ${built.length - fromRepositories} from packages)`
    : '';
  process.stdout.write(
    `Synced ${project}: ${options.scope ? `${fromRegistry.length} installed from ${options.scope}, ` : ''}` +
      `${built.length} built${origin}, ${skipped.length} skipped, ${failed.length} failed${hint}\n`,
  );
}

async function plan(wanted: readonly InstalledDependency[], fromRepo: boolean): Promise<Planned[]> {
  if (!fromRepo) {
    return wanted.map((dependency) => ({
      library: formatPackageId(dependency),
      from: 'package',
      ...(dependency.usedBy ? { usedBy: dependency.usedBy } : {}),
    }));
  }
  return (await planRepositories(wanted)).map(({ dependency, repository, tags, fallback }) => ({
    library: formatPackageId(dependency),
    from: repository ? 'repository' : 'package',
    ...(repository ? { repository: repository.url, tags } : {}),
    ...(repository?.directory ? { directory: repository.directory } : {}),
    ...(fallback ? { fallback } : {}),
    ...(dependency.usedBy ? { usedBy: dependency.usedBy } : {}),
  }));
}

function describePlan(p: Planned): string {
  const where =
    p.from === 'repository'
      ? `from ${p.repository}${p.directory ? ` (${p.directory})` : ''} at the first tag of ${p.tags?.join(', ')} that exists, else from the package`
      : `from the package (README, docs folder, API page)${p.fallback ? `: ${p.fallback}` : ''}`;
  return `${where}${p.usedBy ? `; used by ${p.usedBy.join(', ')}` : ''}`;
}

function describeOrigin(outcome: Built): string {
  if (outcome.from === 'repository') return `from the repository at ${outcome.tag}`;
  return `from the package${outcome.fallback ? ` (${outcome.fallback})` : ''}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

async function buildDependency(
  store: PackageStore,
  dependency: InstalledDependency,
  stage: RepositoryStage | undefined,
  options: SyncOptions,
  signal: AbortSignal,
  onProgress: ((p: BuildProgress) => void) | undefined,
): Promise<Built | Outcome> {
  const library = formatPackageId(dependency);
  const staged = stage?.result ?? (await stageDependencyDocs(dependency, { types: options.types !== false }));
  const origin = {
    from: stage?.from ?? 'package',
    ...(stage?.tag ? { tag: stage.tag } : {}),
    ...(stage?.fallback ? { fallback: stage.fallback } : {}),
  } as const;
  if (!staged.ok) return { library, reason: stage?.fallback ? `${staged.error} (${stage.fallback})` : staged.error };
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
      ...origin,
    };
  } finally {
    await source.dispose();
  }
}
