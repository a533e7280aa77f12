import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { SourceError } from './errors.js';
import { findGoDependencies, isGoProject } from './go/go-dependencies.js';
import { findCargoDependencies } from './rust/cargo-dependencies.js';
import { filterPackages, findProjectLayout, type WorkspacePackage } from './workspaces.js';

/** A dependency of a project as it is installed. */
export interface InstalledDependency {
  readonly name: string;
  /** The installed version (from the installed package's own metadata, not the range the project asks for). */
  readonly version: string;
  /** The installed package folder (symlinks resolved), or a Python distribution's `.dist-info` folder. */
  readonly dir: string;
  readonly ecosystem: 'npm' | 'python' | 'go' | 'rust';
  /** A development dependency (`devDependencies`). */
  readonly dev: boolean;
  readonly description?: string;
  /** The project's packages that install it (their paths, `.` for the root), at a workspace root. */
  readonly usedBy?: readonly string[];
  /**
   * The `@types/…` package installed beside it (`@types/express` for `express`), found as TypeScript finds it:
   * its declarations document this package where it ships none of its own.
   */
  readonly types?: { readonly name: string; readonly version: string; readonly dir: string };
  /** Go: the module path its packages are imported by (`github.com/spf13/cobra`); `name` is its last element. */
  readonly goModule?: string;
  /** Go: the module version the files are read from (`github.com/spf13/cobra@v1.8.1`), after go.mod's `replace`. */
  readonly goSource?: string;
}

/** A dependency that will not be built, and why. */
export interface SkippedDependency {
  readonly name: string;
  readonly version?: string;
  readonly reason: string;
}

/** What {@link findProjectDependencies} found. */
export interface ProjectDependencies {
  readonly installed: readonly InstalledDependency[];
  readonly skipped: readonly SkippedDependency[];
  /** The packages whose dependencies were read: the root, and at a workspace root the workspace packages picked. */
  readonly packages: readonly WorkspacePackage[];
  /** The file that declares the workspace (`pnpm-workspace.yaml`, `package.json`), at a workspace root. */
  readonly workspaceFile?: string;
  /** A Go module's go.mod was read by go's own parser (`go mod edit -json`), or by docs' where go is not on PATH. */
  readonly goModReader?: 'go' | 'parser';
}

/** Options for {@link findProjectDependencies}. */
export interface FindDependenciesOptions {
  /** Include `devDependencies`. @default false */
  readonly dev?: boolean;
  /** At a workspace root, read every workspace package's dependencies too. @default true */
  readonly workspaces?: boolean;
  /** Only the project packages whose name or path matches one of these globs (see {@link filterPackages}). */
  readonly filter?: readonly string[];
  /** Go: also the requirements marked `// indirect`. @default false */
  readonly indirect?: boolean;
}

// `name` or `@scope/name`, neither part `.`/`..` nor holding a path separator: what may follow `node_modules/`.
const PACKAGE_NAME = /^(?:@(?!\.\.?\/)[^/\\]+\/)?(?!\.\.?$)[^/\\@][^/\\]*$/;

// Tools a virtualenv always holds; not what the project runs.
const PYTHON_TOOLING = new Set(['pip', 'setuptools', 'wheel', 'distribute']);
const VIRTUALENV_FOLDERS = ['.venv', 'venv', 'env', '.env'];

/**
 * The dependencies a project really runs, at their installed versions: each
 * name in package.json's `dependencies` and `optionalDependencies` (and
 * `devDependencies` with `dev`) is looked up the way Node resolves packages
 * (`node_modules/<name>` in the project folder, then in each parent), with
 * symlinks resolved (pnpm), and its version read from the installed
 * package.json. With a virtualenv (`.venv`, `venv`, or the folder itself),
 * every installed Python distribution is listed too. Dependencies not
 * installed, or linked from the workspace rather than installed from a
 * registry, are listed in `skipped` with the reason. At a workspace root
 * (`pnpm-workspace.yaml`, or package.json `workspaces` for npm, yarn and bun)
 * every workspace package's dependencies are read too, each resolved from that
 * package's own folder, and listed once per name@version with `usedBy`. Throws
 * SourceError('not-found') when the folder has neither a package.json nor a virtualenv.
 *
 * @example
 * const { installed } = await findProjectDependencies('.', { dev: true });
 * // → [{ name: 'zod', version: '4.1.12', dir: '/…/node_modules/.pnpm/zod@4.1.12/node_modules/zod', ecosystem: 'npm', dev: false }, …]
 */
export async function findProjectDependencies(
  projectDir: string,
  options: FindDependenciesOptions = {},
): Promise<ProjectDependencies> {
  const project = path.resolve(projectDir);
  const info = await stat(project).catch(() => undefined);
  if (!info?.isDirectory()) throw new SourceError('not-found', `folder not found: ${projectDir}`);
  const sitePackages = await findSitePackages(project);
  const layout =
    options.workspaces === false ? { packages: [{ dir: project, path: '.' }] } : await findProjectLayout(project);
  const rootManifest = await readJson(path.join(project, 'package.json'));
  // Other ecosystems' projects in the same folder are read on their own: a Rust or Go project alone, or beside a Node
  // project (a native addon, a Tauri app, a Go service with its web front end in one repository).
  const cargo = (await stat(path.join(project, 'Cargo.toml')).catch(() => undefined))?.isFile()
    ? await findCargoDependencies(project, options)
    : undefined;
  const goProject = await isGoProject(project);
  if (rootManifest === undefined && sitePackages.length === 0 && cargo === undefined && !goProject) {
    throw new SourceError(
      'not-found',
      `no package.json, Python virtualenv (.venv), go.mod or Cargo.toml in ${project}`,
    );
  }
  // --filter picks a Go workspace's modules where there is no Node workspace to pick from.
  const go = goProject
    ? await findGoDependencies(project, {
        indirect: options.indirect === true,
        ...(rootManifest === undefined && options.filter ? { filter: options.filter } : {}),
      })
    : undefined;
  if (rootManifest === undefined && (go !== undefined || cargo !== undefined)) {
    // A Go or Rust project: its modules and crates, and a virtualenv's distributions beside them where it has one.
    const python = await Promise.all(sitePackages.map(pythonDistributions));
    const primary = go ?? cargo;
    return {
      installed: [...(go?.installed ?? []), ...(cargo?.installed ?? []), ...python.flatMap((p) => p.distributions)],
      skipped: [...(go?.skipped ?? []), ...(cargo?.skipped ?? []), ...python.flatMap((p) => p.problems)],
      packages: primary?.packages ?? [{ dir: project, path: '.' }],
      ...(primary?.workspaceFile === undefined ? {} : { workspaceFile: primary.workspaceFile }),
      ...(go ? { goModReader: go.reader } : {}),
    };
  }
  const picked = filterPackages(layout.packages, options.filter ?? []);
  const workspace = layout.packages.length > 1;
  // One entry per name@version however many packages install it; each knows who does.
  const byId = new Map<string, { dependency: InstalledDependency; usedBy: string[] }>();
  const skipped = new Map<string, SkippedDependency>();
  for (const pkg of picked) {
    const manifest = pkg.path === '.' ? rootManifest : await readJson(path.join(pkg.dir, 'package.json'));
    if (manifest === undefined) continue;
    const found = await packageDependencies(pkg.dir, manifest, options.dev === true);
    for (const dependency of found.installed) {
      const id = `${dependency.name}@${dependency.version}`;
      const seen = byId.get(id);
      if (seen) seen.usedBy.push(pkg.path);
      else byId.set(id, { dependency, usedBy: [pkg.path] });
    }
    for (const problem of found.skipped) {
      const reason = workspace
        ? problem.reason.replace(/^not installed/, `not installed in ${pkg.path}`)
        : problem.reason;
      const key = `${problem.name}@${problem.version ?? ''}`;
      if (!skipped.has(key)) skipped.set(key, { ...problem, reason });
    }
  }
  const installed: InstalledDependency[] = [...byId.values()]
    .map(({ dependency, usedBy }) => (workspace ? { ...dependency, usedBy } : dependency))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : compareText(a.version, b.version)));
  const problems = [...skipped.values()];
  for (const site of sitePackages) {
    const { distributions, problems: pythonProblems } = await pythonDistributions(site);
    installed.push(...distributions);
    problems.push(...pythonProblems);
  }
  installed.push(...(go?.installed ?? []), ...(cargo?.installed ?? []));
  problems.push(...(go?.skipped ?? []), ...(cargo?.skipped ?? []));
  return {
    installed,
    skipped: problems,
    packages: picked,
    ...(layout.workspaceFile === undefined ? {} : { workspaceFile: layout.workspaceFile }),
    ...(go ? { goModReader: go.reader } : {}),
  };
}

/** One package.json's dependencies, each resolved from that package's folder the way Node resolves it. */
async function packageDependencies(
  from: string,
  manifest: Record<string, unknown>,
  dev: boolean,
): Promise<{ installed: InstalledDependency[]; skipped: SkippedDependency[] }> {
  const installed: InstalledDependency[] = [];
  const skipped: SkippedDependency[] = [];
  const wanted = new Map<string, boolean>();
  for (const field of ['dependencies', 'optionalDependencies', ...(dev ? ['devDependencies'] : [])]) {
    const entries = manifest[field];
    if (typeof entries !== 'object' || entries === null) continue;
    for (const name of Object.keys(entries)) if (!wanted.has(name)) wanted.set(name, field === 'devDependencies');
  }
  for (const [name, isDev] of [...wanted].sort(([a], [b]) => compareText(a, b))) {
    const found = await resolvePackageFolder(from, name);
    if (found === undefined) {
      skipped.push({ name, reason: 'not installed (run the install command of your package manager)' });
      continue;
    }
    const installedManifest = await readJson(path.join(found, 'package.json'));
    const version = installedManifest?.version;
    if (typeof version !== 'string') {
      skipped.push({ name, reason: `no version in ${path.join(found, 'package.json')}` });
      continue;
    }
    if (!found.split(path.sep).includes('node_modules')) {
      skipped.push({ name, version, reason: 'linked from the workspace, not an installed release' });
      continue;
    }
    const description = installedManifest?.description;
    const types = name.startsWith('@types/') ? undefined : await typesPackage(from, name);
    installed.push({
      name,
      version,
      dir: found,
      ecosystem: 'npm',
      dev: isDev,
      ...(typeof description === 'string' && description !== '' ? { description } : {}),
      ...(types ? { types } : {}),
    });
  }
  // `@types/express` documents `express`, at express's version: not a library of its own beside it.
  const joined = new Map(installed.flatMap((d) => (d.types ? [[d.types.dir, d] as const] : [])));
  return {
    installed: installed.filter((d) => !joined.has(d.dir)),
    skipped: [
      ...skipped,
      ...installed.flatMap((d) => {
        const runtime = joined.get(d.dir);
        return runtime
          ? [{ name: d.name, version: d.version, reason: `its types document ${runtime.name}@${runtime.version}` }]
          : [];
      }),
    ],
  };
}

/** The `@types/…` package TypeScript would read for `name` from `from` (`@scope/pkg` → `@types/scope__pkg`), if installed. */
async function typesPackage(
  from: string,
  name: string,
): Promise<{ name: string; version: string; dir: string } | undefined> {
  const typesName = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
  const dir = await resolvePackageFolder(from, typesName);
  const version = dir === undefined ? undefined : (await readJson(path.join(dir, 'package.json')))?.version;
  return dir !== undefined && typeof version === 'string' ? { name: typesName, version, dir } : undefined;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The folder of an installed package as Node finds it: `node_modules/<name>` here or in a parent, symlinks resolved.
 * A name is read from a package.json, which is untrusted: one that is not a package name (`../../elsewhere`, a
 * backslash, more than a scope and a name) finds nothing, so it can never name a folder outside `node_modules`.
 */
export async function resolvePackageFolder(from: string, name: string): Promise<string | undefined> {
  if (!PACKAGE_NAME.test(name)) return undefined;
  let dir = from;
  for (;;) {
    if (path.basename(dir) !== 'node_modules') {
      const candidate = path.join(dir, 'node_modules', ...name.split('/'));
      const info = await stat(path.join(candidate, 'package.json')).catch(() => undefined);
      if (info?.isFile()) return realpath(candidate);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

async function findSitePackages(project: string): Promise<string[]> {
  const found: string[] = [];
  for (const candidate of ['', ...VIRTUALENV_FOLDERS]) {
    const venv = path.join(project, candidate);
    if (!(await stat(path.join(venv, 'pyvenv.cfg')).catch(() => undefined))) continue;
    for (const lib of ['lib', 'lib64', 'Lib']) {
      const libDir = path.join(venv, lib);
      const entries = await readdir(libDir).catch(() => [] as string[]);
      if (lib === 'Lib' && (await stat(path.join(libDir, 'site-packages')).catch(() => undefined))) {
        found.push(path.join(libDir, 'site-packages'));
      }
      for (const entry of entries) {
        if (/^python\d/.test(entry)) {
          const site = path.join(libDir, entry, 'site-packages');
          if (await stat(site).catch(() => undefined)) found.push(await realpath(site));
        }
      }
    }
  }
  return [...new Set(found)];
}

async function pythonDistributions(
  site: string,
): Promise<{ distributions: InstalledDependency[]; problems: SkippedDependency[] }> {
  const distributions: InstalledDependency[] = [];
  const problems: SkippedDependency[] = [];
  const entries: Dirent[] = await readdir(site, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory() || !entry.name.endsWith('.dist-info')) continue;
    const dir = path.join(site, entry.name);
    const metadata = await readFile(path.join(dir, 'METADATA'), 'utf8').catch(() => undefined);
    if (metadata === undefined) continue;
    const headers = parseMetadata(metadata).headers;
    const rawName = headers.get('name');
    const version = headers.get('version');
    if (!rawName || !version) {
      problems.push({ name: entry.name, reason: 'METADATA without a name or version' });
      continue;
    }
    // PEP 503 normalisation: the name pip and PyPI compare by.
    const name = rawName.toLowerCase().replace(/[-_.]+/g, '-');
    if (PYTHON_TOOLING.has(name)) continue;
    const summary = headers.get('summary');
    distributions.push({
      name,
      version,
      dir,
      ecosystem: 'python',
      dev: false,
      ...(summary && summary !== 'UNKNOWN' ? { description: summary } : {}),
    });
  }
  return { distributions, problems };
}

/**
 * A Python core-metadata file (`METADATA`, `PKG-INFO`): its headers (lower-case
 * names, first value wins) and its long description, from the body after the
 * headers or, in older files, the `Description:` header.
 */
export function parseMetadata(text: string): { headers: Map<string, string>; description: string } {
  const normalised = text.replace(/\r\n?/g, '\n');
  const blank = normalised.indexOf('\n\n');
  const head = blank === -1 ? normalised : normalised.slice(0, blank);
  const body = blank === -1 ? '' : normalised.slice(blank + 2);
  const headers = new Map<string, string>();
  let descriptionHeader = '';
  let current: string | undefined;
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && current !== undefined) {
      // Continuation lines; the old Description header indents them with 8 spaces or `|`.
      if (current === 'description') descriptionHeader += `\n${line.replace(/^(?: {8}|\t|\s*\|)/, '')}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (current === 'description') descriptionHeader = value;
    else if (!headers.has(current)) headers.set(current, value);
  }
  return { headers, description: (body.trim() !== '' ? body : descriptionHeader).trim() };
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
