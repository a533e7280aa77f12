import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type picomatch from 'picomatch';
import type { glob } from 'tinyglobby';
import type { parse } from 'yaml';
import { SourceError } from './errors.js';

// Loaded on first use, so importing @docs/sources (as `docs get` does for one lookup) stays cheap.
const load = createRequire(import.meta.url);
const libraries = {
  picomatch: () => load('picomatch') as typeof picomatch,
  glob: () => (load('tinyglobby') as { glob: typeof glob }).glob,
  parseYaml: () => (load('yaml') as { parse: typeof parse }).parse,
};

/** One package of a project: the root, or a workspace package. */
export interface WorkspacePackage {
  /** The `name` in its package.json, when it has one. */
  readonly name?: string;
  /** Its folder. */
  readonly dir: string;
  /** Its folder relative to the project root, with `/` separators; `.` for the root. */
  readonly path: string;
}

/** How a project is laid out: one package, or a workspace root and its packages. */
export interface ProjectLayout {
  /** The file that declares the workspace (`pnpm-workspace.yaml`, `package.json`), when there is one. */
  readonly workspaceFile?: string;
  /** The root first, then the workspace packages in path order. */
  readonly packages: readonly WorkspacePackage[];
}

/**
 * The packages of a project: the root and, at a workspace root, every
 * workspace package — pnpm's `pnpm-workspace.yaml` `packages`, or the
 * `workspaces` of package.json (npm, yarn, bun; an array or `{ packages }`).
 * Globs and `!` exclusions are matched the way the package managers match
 * them; folders without a package.json and anything under `node_modules` are
 * left out.
 *
 * @example
 * const { packages } = await findProjectLayout('.');
 * // → [{ path: '.', dir: '/repo', name: 'repo' }, { path: 'packages/a', dir: '/repo/packages/a', name: '@repo/a' }, …]
 */
export async function findProjectLayout(root: string): Promise<ProjectLayout> {
  const rootDir = path.resolve(root);
  const rootManifest = await readManifest(rootDir);
  const rootPackage: WorkspacePackage = {
    ...(typeof rootManifest?.name === 'string' ? { name: rootManifest.name } : {}),
    dir: rootDir,
    path: '.',
  };
  const declared = await workspacePatterns(rootDir, rootManifest);
  if (declared === undefined) return { packages: [rootPackage] };
  const include = declared.patterns.filter((p) => !p.startsWith('!')).map(cleanPattern);
  const exclude = declared.patterns.filter((p) => p.startsWith('!')).map((p) => cleanPattern(p.slice(1)));
  const folders =
    include.length === 0
      ? []
      : await libraries.glob()(include, {
          cwd: rootDir,
          onlyDirectories: true,
          expandDirectories: false,
          followSymbolicLinks: false,
          ignore: ['**/node_modules/**', ...exclude],
        });
  const packages: WorkspacePackage[] = [];
  for (const folder of [...new Set(folders.map((f) => f.replace(/\/+$/, '')))].sort()) {
    if (folder === '' || folder === '.') continue;
    const dir = path.join(rootDir, ...folder.split('/'));
    const manifest = await readManifest(dir);
    if (manifest === undefined) continue;
    packages.push({ ...(typeof manifest.name === 'string' ? { name: manifest.name } : {}), dir, path: folder });
  }
  return { workspaceFile: declared.file, packages: [rootPackage, ...packages] };
}

/**
 * The packages a `--filter` picks: each pattern is a glob matched against a
 * package's name (`@scope/*`, `app`) or its path (`packages/*`, `./apps/cli`).
 * Throws SourceError('invalid-source') when a pattern picks nothing, naming the
 * packages there are, so a typo is not a silent empty sync.
 */
export function filterPackages(
  packages: readonly WorkspacePackage[],
  patterns: readonly string[],
): readonly WorkspacePackage[] {
  if (patterns.length === 0) return packages;
  const picked = new Set<WorkspacePackage>();
  for (const pattern of patterns) {
    const clean = cleanPattern(pattern);
    const matches = libraries.picomatch()(clean, { dot: true });
    const hits = packages.filter((p) => (p.name !== undefined && matches(p.name)) || matches(p.path));
    if (hits.length === 0) {
      const names = packages.map((p) => p.name ?? p.path).join(', ');
      throw new SourceError('invalid-source', `--filter ${pattern} matches no package; the packages are: ${names}`);
    }
    for (const hit of hits) picked.add(hit);
  }
  return packages.filter((p) => picked.has(p));
}

async function workspacePatterns(
  root: string,
  manifest: Record<string, unknown> | undefined,
): Promise<{ file: string; patterns: string[] } | undefined> {
  const pnpmFile = path.join(root, 'pnpm-workspace.yaml');
  if ((await stat(pnpmFile).catch(() => undefined))?.isFile()) {
    let parsed: unknown;
    try {
      parsed = libraries.parseYaml()(await readFile(pnpmFile, 'utf8'));
    } catch (error) {
      throw new SourceError('invalid-source', `cannot read ${pnpmFile}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const packages = (parsed as { packages?: unknown } | null)?.packages;
    // pnpm-workspace.yaml may only hold settings (catalogs, overrides): then the root is the one package.
    return { file: pnpmFile, patterns: strings(packages) };
  }
  const workspaces = manifest?.workspaces;
  if (workspaces === undefined) return undefined;
  const patterns = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | null)?.packages;
  return { file: path.join(root, 'package.json'), patterns: strings(patterns) };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** `./packages/*` and `packages/*​/` as the plain relative globs the matchers expect. */
function cleanPattern(pattern: string): string {
  return pattern
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '');
}

async function readManifest(dir: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
