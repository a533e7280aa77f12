import { stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import type { TomlTable } from 'smol-toml';
import { glob } from 'tinyglobby';
import type { InstalledDependency, SkippedDependency } from '../dependencies.js';
import { filterPackages, type WorkspacePackage } from '../workspaces.js';
import { isTable, type LockedPackage, lockedPackages, readToml } from './cargo-files.js';
import { cargoHome, crateSources, findCrateFolder } from './crate-folders.js';

/** Options for {@link findCargoDependencies}. */
export interface CargoOptions {
  /** Include `[dev-dependencies]`. @default false */
  readonly dev?: boolean;
  /** At a workspace root, read every member's dependencies too. @default true */
  readonly workspaces?: boolean;
  /** Only the members whose name or path matches one of these globs. */
  readonly filter?: readonly string[];
  /** Cargo's home (where `registry/src` is). @default $CARGO_HOME, else ~/.cargo */
  readonly cargoHome?: string;
}

/** What a Cargo project depends on, found from its manifests and lockfile. */
export interface CargoDependencies {
  readonly installed: readonly InstalledDependency[];
  readonly skipped: readonly SkippedDependency[];
  readonly packages: readonly WorkspacePackage[];
  /** The Cargo.toml declaring `[workspace]`, when the project is a workspace of several members. */
  readonly workspaceFile?: string;
}

/** A dependency as a manifest declares it: the crate's registry name (a `package = "…"` rename undone). */
interface Declared {
  readonly crate: string;
  /** The name the manifest gives it (the rename), which the lockfile's own entry lists. */
  readonly key: string;
  readonly dev: boolean;
  readonly path: boolean;
}

const FETCH_HINT = 'not fetched (run `cargo fetch` in the project)';

/**
 * The crates a Cargo project depends on, at the versions its Cargo.lock pins: each dependency its Cargo.toml declares
 * (`[dependencies]`, `[target.….dependencies]`, and `[dev-dependencies]` with `dev`; at a workspace root each
 * member's, with `workspace = true` read from `[workspace.dependencies]`), by its crate name where `package = "…"`
 * renames it, and its source folder where Cargo keeps it (`vendor/`, `$CARGO_HOME/registry/src/*`, a git checkout).
 * The workspace's own path dependencies, crates Cargo has not fetched and a project without a lockfile are `skipped`
 * with the reason and what to run. Nothing is built or run: the files are only read.
 *
 * @example
 * const { installed } = await findCargoDependencies('.');
 * // → [{ name: 'serde', version: '1.0.217', dir: '~/.cargo/registry/src/…/serde-1.0.217', ecosystem: 'rust', dev: false }, …]
 */
export async function findCargoDependencies(
  projectDir: string,
  options: CargoOptions = {},
): Promise<CargoDependencies> {
  const project = path.resolve(projectDir);
  const rootManifest = (await readToml(path.join(project, 'Cargo.toml'))) ?? {};
  const lockDir = await findUp(project, 'Cargo.lock');
  const workspaceRoot = lockDir ?? project;
  const rootWorkspace = await workspaceManifest(project, workspaceRoot, rootManifest);
  const members = options.workspaces === false ? [] : await workspaceMembers(project, rootManifest);
  const packages: WorkspacePackage[] = [
    ...(isTable(rootManifest.package) ? [packageOf(project, '.', rootManifest)] : []),
    ...members.map((m) => packageOf(m.dir, m.path, m.manifest)),
  ];
  const manifests = new Map<string, TomlTable>([
    [project, rootManifest],
    ...members.map((m) => [m.dir, m.manifest] as const),
  ]);
  const picked = filterPackages(packages, options.filter ?? []);
  const lock = lockDir === undefined ? undefined : await readToml(path.join(lockDir, 'Cargo.lock'));
  const locked = lock === undefined ? [] : lockedPackages(lock);
  const sources = await crateSources(workspaceRoot, options.cargoHome ?? cargoHome());
  const byId = new Map<string, { dependency: InstalledDependency; usedBy: string[] }>();
  const skipped = new Map<string, SkippedDependency>();
  const skip = (problem: SkippedDependency) => {
    const id = `${problem.name}@${problem.version ?? ''}`;
    if (!skipped.has(id)) skipped.set(id, problem);
  };
  for (const pkg of picked) {
    const manifest = manifests.get(pkg.dir) ?? {};
    const own = locked.find((l) => l.source === undefined && l.name === pkg.name);
    for (const declared of declaredDependencies(manifest, rootWorkspace, options.dev === true)) {
      if (declared.path) {
        skip({ name: declared.crate, reason: "a path dependency: the workspace's own code, not a fetched crate" });
        continue;
      }
      if (lock === undefined) {
        skip({ name: declared.crate, reason: 'no Cargo.lock (run `cargo generate-lockfile` or `cargo fetch`)' });
        continue;
      }
      const entry = lockedVersionOf(declared, own, locked);
      if (entry === undefined) {
        skip({ name: declared.crate, reason: 'not in Cargo.lock (run `cargo fetch` to update it)' });
        continue;
      }
      if (entry.source === undefined) {
        skip({
          name: entry.name,
          version: entry.version,
          reason: "a path dependency: the workspace's own code, not a fetched crate",
        });
        continue;
      }
      const dir = await findCrateFolder(entry, sources);
      if (dir === undefined) {
        skip({ name: entry.name, version: entry.version, reason: FETCH_HINT });
        continue;
      }
      const id = `${entry.name}@${entry.version}`;
      const seen = byId.get(id);
      if (seen) {
        seen.usedBy.push(pkg.path);
        // A crate one member uses at run time is not a development dependency because another tests with it.
        if (seen.dependency.dev && !declared.dev) seen.dependency = { ...seen.dependency, dev: false };
        continue;
      }
      const description = await crateDescription(dir);
      byId.set(id, {
        dependency: {
          name: entry.name,
          version: entry.version,
          dir,
          ecosystem: 'rust',
          dev: declared.dev,
          ...(description ? { description } : {}),
        },
        usedBy: [pkg.path],
      });
    }
  }
  const workspace = picked.length > 1 || members.length > 0;
  const installed = [...byId.values()]
    .map(({ dependency, usedBy }) => (workspace ? { ...dependency, usedBy } : dependency))
    .sort((a, b) => compare(a.name, b.name) || compare(a.version, b.version));
  return {
    installed,
    skipped: [...skipped.values()],
    packages: picked,
    ...(members.length > 0 ? { workspaceFile: path.join(project, 'Cargo.toml') } : {}),
  };
}

/**
 * The dependencies one manifest declares, once each (the first table that names one wins: `[dependencies]` before
 * `[dev-dependencies]`). `{ workspace = true }` takes the crate's name and source from the workspace's table.
 */
function declaredDependencies(manifest: TomlTable, workspace: TomlTable, dev: boolean): Declared[] {
  const tables: { table: unknown; dev: boolean }[] = [{ table: manifest.dependencies, dev: false }];
  const targets = isTable(manifest.target) ? Object.values(manifest.target).filter(isTable) : [];
  for (const target of targets) tables.push({ table: target.dependencies, dev: false });
  if (dev) {
    tables.push({ table: manifest['dev-dependencies'], dev: true });
    for (const target of targets) tables.push({ table: target['dev-dependencies'], dev: true });
  }
  const shared = isTable(workspace.dependencies) ? workspace.dependencies : {};
  const declared = new Map<string, Declared>();
  for (const { table, dev: isDev } of tables) {
    if (!isTable(table)) continue;
    for (const [key, spec] of Object.entries(table)) {
      if (declared.has(key)) continue;
      const inherited = isTable(spec) && spec.workspace === true ? shared[key] : undefined;
      const effective = inherited ?? spec;
      const rename = isTable(effective) && typeof effective.package === 'string' ? effective.package : undefined;
      declared.set(key, {
        crate: rename ?? key,
        key,
        dev: isDev,
        path: isTable(effective) && typeof effective.path === 'string',
      });
    }
  }
  return [...declared.values()];
}

/**
 * Which locked version a declared dependency is: the one the member's own lockfile entry lists (`name` alone, or
 * `name version` where two versions are locked), else the only version of the crate in the lockfile.
 */
function lockedVersionOf(
  declared: Declared,
  own: LockedPackage | undefined,
  locked: readonly LockedPackage[],
): LockedPackage | undefined {
  const candidates = locked.filter((l) => l.name === declared.crate);
  if (candidates.length <= 1) return candidates[0];
  for (const listed of own?.dependencies ?? []) {
    const [name, version] = listed.split(' ');
    if (name !== declared.crate || version === undefined) continue;
    const match = candidates.find((c) => c.version === version);
    if (match) return match;
  }
  // Two versions and no member entry to tell them apart: the highest, which a fresh `cargo add` would pick.
  return [...candidates].sort((a, b) => byVersion(b.version, a.version))[0];
}

/** `[workspace]` of the project's own manifest, or of the workspace root above it (where Cargo.lock is). */
async function workspaceManifest(project: string, workspaceRoot: string, own: TomlTable): Promise<TomlTable> {
  if (isTable(own.workspace)) return own.workspace;
  if (workspaceRoot === project) return {};
  const root = await readToml(path.join(workspaceRoot, 'Cargo.toml')).catch(() => undefined);
  return isTable(root?.workspace) ? root.workspace : {};
}

/** The members `[workspace] members` names (globs as Cargo reads them), less `exclude`, each with its manifest. */
async function workspaceMembers(
  root: string,
  manifest: TomlTable,
): Promise<{ dir: string; path: string; manifest: TomlTable }[]> {
  const workspace = manifest.workspace;
  if (!isTable(workspace) || !Array.isArray(workspace.members)) return [];
  const patterns = workspace.members.filter((m): m is string => typeof m === 'string' && !m.includes('..'));
  const exclude = Array.isArray(workspace.exclude)
    ? workspace.exclude.filter((m): m is string => typeof m === 'string')
    : [];
  const found = await glob(
    patterns.map((p) => `${p.replace(/\/+$/, '')}/Cargo.toml`),
    { cwd: root, ignore: exclude.map((e) => `${e.replace(/\/+$/, '')}/**`), followSymbolicLinks: false },
  );
  const members: { dir: string; path: string; manifest: TomlTable }[] = [];
  for (const file of found.sort()) {
    const relative = path.posix.dirname(file);
    if (relative === '.') continue;
    const memberManifest = await readToml(path.join(root, file)).catch(() => undefined);
    if (memberManifest !== undefined)
      members.push({ dir: path.join(root, relative), path: relative, manifest: memberManifest });
  }
  return members;
}

function packageOf(dir: string, relative: string, manifest: TomlTable): WorkspacePackage {
  const name = isTable(manifest.package) ? manifest.package.name : undefined;
  return { dir, path: relative, ...(typeof name === 'string' ? { name } : {}) };
}

async function findUp(from: string, file: string): Promise<string | undefined> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if ((await stat(path.join(dir, file)).catch(() => undefined))?.isFile()) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The crate's `[package] description`, one line. */
async function crateDescription(dir: string): Promise<string | undefined> {
  const manifest = await readToml(path.join(dir, 'Cargo.toml')).catch(() => undefined);
  const description = isTable(manifest?.package) ? manifest.package.description : undefined;
  return typeof description === 'string' && description.trim() !== ''
    ? description.replace(/\s+/g, ' ').trim()
    : undefined;
}

function byVersion(a: string, b: string): number {
  return semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : compare(a, b);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
