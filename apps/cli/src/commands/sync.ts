import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BuildProgress } from '@docs/ingest';
import {
  findProjectDependencies,
  type InstalledDependency,
  type ProjectDependencies,
  planRepositories,
  type RepositoryStage,
  stageDependencyDocs,
  stageFromRepositories,
} from '@docs/sources';
import { formatPackageId, type InstalledPackage, isStoreError, type PackageStore, parsePackageSpec } from '@docs/store';
import { describeBackgroundVectors, startBackgroundVectors } from '../background-vectors.js';
import { openStore, printJson, readerOrFormatError } from '../context.js';
import { interruptible } from '../interruptible.js';
import type { GlobalOptions } from '../options.js';
import { progressLine } from '../progress-line.js';
import { savePackage } from '../save-package.js';
import { groupDigits } from '../terminal.js';
import { type FromRegistry, installPublished } from './sync-registry.js';

export interface SyncOptions {
  readonly dev?: boolean;
  /** Every dependency, not only those the project declares directly: Go's `// indirect` requirements, every
   * distribution installed in a Python project's virtualenv. */
  readonly all?: boolean;
  /** A Python project: the virtualenv to read. */
  readonly venv?: string;
  /** false with --no-types. */
  readonly types?: boolean;
  readonly save?: string;
  /** Only the workspace packages whose name or path matches. */
  readonly filter?: readonly string[];
  /**
   * Only these dependencies (`name` or `name@version`): the rest are neither built nor listed as skipped. How a
   * server following its project builds one library at a time (follow/).
   */
  readonly only?: readonly string[];
  /**
   * Build each dependency from its repository's docs at the installed version's tag; a dependency already built from
   * its package (a plain sync) is built again so, replacing it only when that build succeeds.
   */
  readonly fromRepo?: boolean;
  /** Build every selected dependency again, replacing the package in the store once the new one is built. */
  readonly rebuild?: boolean;
  /** List what would be built and skipped; build nothing. */
  readonly dryRun?: boolean;
  /** Install each dependency's doc package from this npm scope when one is published for its version. */
  readonly scope?: string;
  readonly registry?: string;
  /** false with --no-embed: no vectors made in the background though an embedder is configured. */
  readonly embed?: boolean;
  /** After the sync, follow the project: build what each install changes, until Ctrl-C (sync-watch.ts). */
  readonly watch?: boolean;
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
  /** Set when it replaced the package of this version in the store. */
  readonly replaced?: true;
  /** What the build fell short of (an API page cut at its limits), printed as warnings. */
  readonly warnings?: readonly string[];
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
  /** Set when it would replace the package of this version in the store. */
  readonly rebuild?: true;
}

/**
 * `docs sync [dir]`: a package for each dependency the project has installed,
 * at its installed version, from the README, docs folder and type
 * declarations it ships (or, with --from-repo, its repository's docs at the
 * version's tag). At a workspace root every workspace package's dependencies
 * are synced, once per name@version. Versions already in the store are
 * skipped, except with --rebuild, and with --from-repo those built from the
 * package; a dependency that fails is reported and the rest go on. A package
 * built again replaces the one in the store only once it is built and
 * installed: a build that fails or is interrupted leaves the old one as it was.
 */
export async function sync(dir: string, options: SyncOptions, globals: GlobalOptions): Promise<void> {
  const project = path.resolve(dir);
  const found = onlyThese(
    await findProjectDependencies(project, {
      dev: options.dev === true,
      all: options.all === true,
      indirect: options.all === true,
      ...(options.venv ? { venv: options.venv } : {}),
      ...(options.filter ? { filter: options.filter } : {}),
    }),
    options.only,
  );
  const store = openStore(globals);
  const listed = new Map((await store.list()).map((p) => [formatPackageId(p).toLowerCase(), p]));
  // A package an earlier docs built in another format is built again, not skipped as "already built". Only the
  // project's dependencies are opened to tell: a store holds other projects' libraries too, and opening each of
  // hundreds costs a warm sync, which builds nothing, more than the rest of its work.
  const present = (library: string): InstalledPackage | undefined => {
    const pkg = listed.get(library.toLowerCase());
    return pkg === undefined || isStoreError(readerOrFormatError(store, pkg)) ? undefined : pkg;
  };
  /** Dependencies built from their package whose repository --from-repo tries: kept as they are if it cannot be used. */
  const upgrades = new Set<InstalledDependency>();
  /** Dependencies in the store built again. */
  const rebuilt = new Set<InstalledDependency>();
  const built: Built[] = [];
  /** Python distributions built from their installed files: a wheel holds no docs folder, its sdist often does. */
  let pythonFromFiles = 0;
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
  if (found.goModReader) {
    say(
      `Go module: go.mod read by ${found.goModReader === 'go' ? 'go mod edit -json' : "docs' parser (go is not on PATH)"}`,
    );
  }
  for (const s of skipped) say(`Skipped ${s.library}: ${s.reason}`);
  let wanted: InstalledDependency[] = [];
  for (const dependency of found.installed) {
    const library = formatPackageId(dependency);
    const installed = present(library);
    if (installed === undefined) {
      wanted.push(dependency);
    } else if (options.rebuild) {
      rebuilt.add(dependency);
      wanted.push(dependency);
    } else if (options.fromRepo && (await builtFromPackage(store, installed, dependency))) {
      rebuilt.add(dependency);
      upgrades.add(dependency);
      wanted.push(dependency);
    } else {
      skipped.push({ library, reason: 'already built' });
      say(`Skipped ${library}: already built`);
    }
  }

  const fromRegistry: FromRegistry[] = [];
  // A package built from its package is upgraded from its repository only: a published one may be no richer, and
  // installing it would make the next --from-repo try again.
  const registry = async (dryRun: boolean, signal?: AbortSignal) => {
    const rest = new Set(
      await installPublished(
        store,
        wanted.filter((d) => !upgrades.has(d)),
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
      ),
    );
    return wanted.filter((d) => upgrades.has(d) || rest.has(d));
  };

  if (options.dryRun) {
    if (options.scope) wanted = await registry(true);
    const upgrading = new Set([...upgrades].map(formatPackageId));
    const planned: Planned[] = [];
    for (const p of await plan(wanted, options.fromRepo === true, rebuilt)) {
      if (p.from === 'package' && upgrading.has(p.library)) {
        const reason = `already built from the package (${p.fallback ?? 'no repository docs'})`;
        skipped.push({ library: p.library, reason });
        say(`Skipped ${p.library}: ${reason}`);
      } else {
        planned.push(p);
      }
    }
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
    for (const p of planned) {
      say(`Would ${p.rebuild ? 'rebuild' : 'build'} ${p.library} ${describePlan(p, upgrading.has(p.library))}`);
    }
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
          if (upgrades.has(dependency) && stage?.from === 'package') {
            // Its repository cannot be used: the package built earlier from the package stays.
            const reason = `already built from the package (${stage.fallback ?? 'no repository docs'})`;
            skipped.push({ library, reason });
            say(`Skipped ${library}: ${reason}`);
            continue;
          }
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
            if (dependency.ecosystem === 'python' && outcome.from === 'package') pythonFromFiles += 1;
            say(
              `${outcome.replaced ? 'Rebuilt' : 'Built'} ${library}: ${outcome.documents} documents, ${outcome.chunks} sections, ` +
                `${groupDigits(outcome.tokens)} tokens, ${(outcome.bytes / 1e6).toFixed(1)} MB` +
                (outcome.saved ? `, saved to ${outcome.saved}` : '') +
                (options.fromRepo ? `, ${describeOrigin(outcome)}` : '') +
                ` (${index + 1}/${wanted.length})`,
            );
            if (!globals.json) {
              for (const warning of outcome.warnings ?? [])
                process.stderr.write(`docs: warning: ${library}: ${warning}\n`);
            }
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

  // Asked even when nothing was built: an earlier sync's packages may still lack the vectors a new embedder makes.
  const vectors = await startBackgroundVectors(store, globals, options.embed === false);
  if (globals.json) {
    printJson({
      project,
      ...(workspace ? { workspace } : {}),
      ...(options.scope ? { installed: fromRegistry } : {}),
      built,
      skipped,
      failed,
      ...(vectors ? { vectors } : {}),
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
  if (vectors) process.stdout.write(`${describeBackgroundVectors(vectors)}\n`);
  if (pythonFromFiles > 0 && !options.fromRepo) process.stdout.write(`${sdistHint(pythonFromFiles)}\n`);
}

/**
 * Said after a sync that built Python distributions from their installed files alone: a wheel ships no docs folder,
 * so those packages hold the README and API pages only, and `--from-repo` is how the docs folder of each one's source
 * distribution comes in (on the Python fixture project, MRR@5 0.760 → 0.801; docs/ranking.md). Not on its own: it
 * asks the package index, which a plain sync never does.
 */
function sdistHint(count: number): string {
  const which = count === 1 ? 'A Python distribution was' : `${count} Python distributions were`;
  return (
    `${which} built from installed files, which hold no docs folder: \`docs sync --from-repo\` adds the docs ` +
    'folder of each source distribution at its installed version, from the package index pip uses'
  );
}

/** The dependencies `only` names (see SyncOptions.only), or every one without it. */
function onlyThese(found: ProjectDependencies, only: readonly string[] | undefined): ProjectDependencies {
  if (only === undefined) return found;
  const wanted = only.map((spec) => parsePackageSpec(spec.trim()));
  const picked = (name: string, version: string | undefined) =>
    wanted.some(
      (w) => w.name.toLowerCase() === name.toLowerCase() && (w.version === undefined || w.version === version),
    );
  return {
    ...found,
    installed: found.installed.filter((d) => picked(d.name, d.version)),
    skipped: found.skipped.filter((s) => picked(s.name, s.version)),
  };
}

async function plan(
  wanted: readonly InstalledDependency[],
  fromRepo: boolean,
  rebuilt: ReadonlySet<InstalledDependency>,
): Promise<Planned[]> {
  const common = (dependency: InstalledDependency) => ({
    ...(dependency.usedBy ? { usedBy: dependency.usedBy } : {}),
    ...(rebuilt.has(dependency) ? { rebuild: true as const } : {}),
  });
  if (!fromRepo) {
    return wanted.map((dependency) => ({
      library: formatPackageId(dependency),
      from: 'package',
      ...common(dependency),
    }));
  }
  return (await planRepositories(wanted)).map(({ dependency, repository, tags, fallback }) => ({
    library: formatPackageId(dependency),
    from: repository ? 'repository' : 'package',
    ...(repository ? { repository: repository.url, tags } : {}),
    ...(repository?.directory ? { directory: repository.directory } : {}),
    ...(fallback ? { fallback } : {}),
    ...common(dependency),
  }));
}

/** Where a planned build comes from; `upgrade`: a package built from the package, kept when its repository fails. */
function describePlan(p: Planned, upgrade: boolean): string {
  const otherwise = upgrade ? 'else keep the one built from the package' : 'else from the package';
  const where =
    p.from === 'repository'
      ? `from ${p.repository}${p.directory ? ` (${p.directory})` : ''} at the first tag of ${p.tags?.join(', ')} that exists, ${otherwise}`
      : `from the package (README, docs folder, API page)${p.fallback ? `: ${p.fallback}` : ''}`;
  return `${where}${p.usedBy ? `; used by ${p.usedBy.join(', ')}` : ''}`;
}

/**
 * Whether an installed package was built from the dependency's own package (a plain sync: README, docs folder, API
 * page), as its recorded source says: it starts with `npm:name@version` (alone, or followed by what else it was
 * built from, such as `, types from npm:@types/name@1.0.0`), where one built from its repository starts with the
 * repository's URL, and one added another way with its folder, URL or anything else.
 */
async function builtFromPackage(
  store: PackageStore,
  installed: InstalledPackage,
  dependency: InstalledDependency,
): Promise<boolean> {
  const source = (await store.reader(installed).info()).source.toLowerCase();
  const own =
    `${dependency.ecosystem === 'npm' ? 'npm' : 'pypi'}:${dependency.name}@${dependency.version}`.toLowerCase();
  return source === own || source.startsWith(`${own},`);
}

function describeOrigin(outcome: Built): string {
  // A Python distribution's docs come from its sdist (`click-8.1.8.tar.gz`), not from a tag.
  if (outcome.from === 'repository' && outcome.tag?.endsWith('.tar.gz')) return `from its sdist ${outcome.tag}`;
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
    // Loaded once something is to be built: a sync that finds everything built never needs the build's modules.
    const { buildPackage } = await import('@docs/ingest');
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
    // Moved in over the package built earlier, if any, only now that the build is complete.
    const { installed, replaced } = await store.install(summary.output, { move: true });
    const saved = options.save === undefined ? undefined : await savePackage(installed, `${options.save}/`);
    return {
      library: formatPackageId(installed),
      documents: summary.documents,
      chunks: summary.chunks,
      tokens: summary.tokens,
      bytes: summary.bytes,
      ...(saved ? { saved } : {}),
      ...origin,
      ...(replaced ? { replaced: true as const } : {}),
      ...(source.warnings.length > 0 ? { warnings: source.warnings } : {}),
    };
  } finally {
    await source.dispose();
  }
}
