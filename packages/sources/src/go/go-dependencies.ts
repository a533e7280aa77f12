import { stat } from 'node:fs/promises';
import path from 'node:path';
import { goLibraryName, storedGoVersion } from '@docs/store';
import type { InstalledDependency, SkippedDependency } from '../dependencies.js';
import { filterPackages, type WorkspacePackage } from '../workspaces.js';
import { type GoModFile, type GoModReader, type ModuleVersion, type Requirement, readGoMod } from './go-mod.js';
import { isSafeModulePath, moduleCacheDir, moduleFolder } from './module-cache.js';

/** Options for {@link findGoDependencies}. */
export interface GoDependencyOptions {
  /** Also the requirements marked `// indirect` (needed by dependencies, not imported by the module). @default false */
  readonly indirect?: boolean;
  /** At a go.work root, only the modules whose module path or folder matches one of these globs. */
  readonly filter?: readonly string[];
}

/** What {@link findGoDependencies} found. */
export interface GoDependencies {
  readonly installed: readonly InstalledDependency[];
  readonly skipped: readonly SkippedDependency[];
  /** The modules read: the folder's own, or each `use` of a go.work. */
  readonly packages: readonly WorkspacePackage[];
  /** The go.work, when the folder has one. */
  readonly workspaceFile?: string;
  /** Who parsed go.mod: go's own parser (`go mod edit -json`), or docs' where go is not on PATH. */
  readonly reader: GoModReader;
}

/** Whether a folder is a Go module or workspace root: it holds a go.mod or a go.work. */
export async function isGoProject(dir: string): Promise<boolean> {
  for (const file of ['go.work', 'go.mod'])
    if ((await stat(path.join(dir, file)).catch(() => undefined))?.isFile()) return true;
  return false;
}

/**
 * The modules a Go module requires, at exactly the versions its go.mod pins: each `require` (the `// indirect` ones
 * only with `indirect`), with `replace` honoured (a replacement by another module version is documented from that
 * version; one by a local folder is skipped, as it is no release), found in the module cache (`go env GOMODCACHE`)
 * or, for a module not downloaded, in the module's `vendor/` folder. A module in neither is skipped with the
 * command that downloads it. With a go.work, each `use` module's requirements are read, its `replace` lines
 * applied over theirs, and the workspace's own modules are not dependencies. Nothing is downloaded or built.
 *
 * @example
 * const { installed } = await findGoDependencies('.');
 * // → [{ name: 'cobra', version: '1.8.1', goModule: 'github.com/spf13/cobra', dir: '…/github.com/spf13/cobra@v1.8.1', ecosystem: 'go', … }]
 */
export async function findGoDependencies(project: string, options: GoDependencyOptions = {}): Promise<GoDependencies> {
  const workFile = path.join(project, 'go.work');
  const hasWork = (await stat(workFile).catch(() => undefined))?.isFile() === true;
  let reader: GoModReader = 'parser';
  const read = async (file: string): Promise<GoModFile> => {
    const result = await readGoMod(file);
    reader = result.reader;
    return result.file;
  };
  const work = hasWork ? await read(workFile) : undefined;
  const folders = work ? work.use.map((use) => path.resolve(project, use)) : [project];
  const modules: Array<{ pkg: WorkspacePackage; mod: GoModFile }> = [];
  for (const dir of folders) {
    const file = path.join(dir, 'go.mod');
    if (!(await stat(file).catch(() => undefined))?.isFile()) continue;
    const mod = await read(file);
    const folder = path.relative(project, dir).split(path.sep).join('/') || '.';
    modules.push({ pkg: { ...(mod.module ? { name: mod.module } : {}), dir, path: folder }, mod });
  }
  // The workspace's own modules are never dependencies, whichever --filter picks.
  const own = new Set(modules.flatMap(({ mod }) => (mod.module ? [mod.module] : [])));
  const pickedPackages = new Set(
    filterPackages(
      modules.map(({ pkg }) => pkg),
      options.filter ?? [],
    ),
  );
  const picked = modules.filter(({ pkg }) => pickedPackages.has(pkg));
  const cache = await moduleCacheDir();
  const byId = new Map<string, { dependency: InstalledDependency; usedBy: string[] }>();
  const skipped = new Map<string, SkippedDependency>();
  for (const { pkg, mod } of picked) {
    // go.work's replacements win over a module's own, as go applies them.
    const replacements = [...(work?.replace ?? []), ...mod.replace];
    for (const requirement of mod.require) {
      if (requirement.indirect && options.indirect !== true) continue;
      if (own.has(requirement.path)) continue;
      const found = await locate(requirement, replacements, pkg.dir, cache);
      const id = `${requirement.path}@${requirement.version}`;
      if ('reason' in found) {
        if (!skipped.has(id)) {
          skipped.set(id, {
            name: requirement.path,
            version: storedGoVersion(requirement.version),
            reason: found.reason,
          });
        }
        continue;
      }
      const seen = byId.get(id);
      if (seen) {
        seen.usedBy.push(pkg.path);
        continue;
      }
      byId.set(id, {
        usedBy: [pkg.path],
        dependency: {
          name: goLibraryName(requirement.path),
          version: storedGoVersion(requirement.version),
          dir: found.dir,
          ecosystem: 'go',
          dev: false,
          description: requirement.path,
          goModule: requirement.path,
          goSource: found.source,
        },
      });
    }
  }
  const installed = disambiguate(
    [...byId.values()].map(({ dependency, usedBy }) => (hasWork ? { ...dependency, usedBy } : dependency)),
  );
  return {
    installed: installed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    skipped: [...skipped.values()],
    packages: picked.map(({ pkg }) => pkg),
    ...(hasWork ? { workspaceFile: workFile } : {}),
    reader,
  };
}

/** Where a requirement's files are (the module cache, else vendor/), after its replacement; or why they are not. */
async function locate(
  requirement: Requirement,
  replacements: readonly { old: ModuleVersion; new: ModuleVersion }[],
  moduleDir: string,
  cache: string,
): Promise<{ dir: string; source: string } | { reason: string }> {
  const replacement =
    replacements.find((r) => r.old.path === requirement.path && r.old.version === requirement.version) ??
    replacements.find((r) => r.old.path === requirement.path && r.old.version === undefined);
  if (replacement && replacement.new.version === undefined) {
    return { reason: `replaced by the folder ${replacement.new.path}, not a release` };
  }
  const target = replacement ? (replacement.new as Required<ModuleVersion>) : requirement;
  const dir = moduleFolder(cache, target.path, target.version);
  if (dir === undefined)
    return { reason: `not a module path and version docs can read: ${target.path}@${target.version}` };
  if ((await stat(dir).catch(() => undefined))?.isDirectory())
    return { dir, source: `${target.path}@${target.version}` };
  // A vendored module holds only the packages the build needs, and no tests: less, but the version pinned.
  const vendored = path.join(moduleDir, 'vendor', ...requirement.path.split('/'));
  if (
    isSafeModulePath(requirement.path) &&
    (await stat(path.join(moduleDir, 'vendor', 'modules.txt')).catch(() => undefined))?.isFile() &&
    (await stat(vendored).catch(() => undefined))?.isDirectory()
  ) {
    return { dir: vendored, source: `${target.path}@${target.version} (vendor)` };
  }
  return { reason: `not downloaded (run \`go mod download ${target.path}@${target.version}\`)` };
}

/**
 * Library names made unique: where two modules take the same name (`github.com/google/uuid`,
 * `github.com/gofrs/uuid`), each is named with the element before it too (`google-uuid`, `gofrs-uuid`).
 */
function disambiguate(dependencies: InstalledDependency[]): InstalledDependency[] {
  const paths = new Map<string, Set<string>>();
  for (const d of dependencies) paths.set(d.name, (paths.get(d.name) ?? new Set()).add(d.goModule ?? ''));
  return dependencies.map((d) => {
    if ((paths.get(d.name)?.size ?? 0) < 2 || d.goModule === undefined) return d;
    const parts = d.goModule.split('/').filter((p) => !/^v\d+$/.test(p));
    const owner = goLibraryName(parts.slice(0, -1).join('/') || d.goModule);
    return { ...d, name: `${owner}-${d.name}` };
  });
}
