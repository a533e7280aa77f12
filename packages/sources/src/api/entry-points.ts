import { readdirSync } from 'node:fs';
import path from 'node:path';
import type TypeScript from 'typescript';

/** A package folder: a runtime package, or the `@types/…` package that types it. */
export interface PackageFolder {
  readonly name: string;
  /** The installed folder, symlinks resolved. */
  readonly dir: string;
}

/** A public import path of a package and the declaration file TypeScript reads for it. */
export interface EntryPoint {
  /** What a user writes in `import … from`: `zod`, `zod/v4`, `hono/logger`. */
  readonly importPath: string;
  /** The declaration file (`.d.ts`, `.d.mts`, `.d.cts`), symlinks resolved. */
  readonly file: string;
  /** Read from the `@types/…` package, the package itself having no declarations for it. */
  readonly fromTypes: boolean;
}

/**
 * The public subpaths of a package.json, `.` first: the keys of its exports
 * map (a map of conditions alone is `.`), or without one, `.` and the names its
 * `typesVersions` maps. Patterns (`./locale/*`) and `./package.json` are not
 * entry points one can document as a whole, so they are left out.
 *
 * @example
 * publicSubpaths({ exports: { '.': './index.js', './v4': './v4/index.js', './package.json': './package.json' } });
 * // → ['.', './v4']
 */
export function publicSubpaths(manifest: Record<string, unknown>): string[] {
  const exports = manifest.exports;
  const subpaths = new Set<string>(['.']);
  if (typeof exports === 'object' && exports !== null && !Array.isArray(exports)) {
    for (const key of Object.keys(exports)) if (key.startsWith('./')) subpaths.add(key);
  } else if (exports === undefined) {
    const versions = manifest.typesVersions;
    const mapped = typeof versions === 'object' && versions !== null ? Object.values(versions)[0] : undefined;
    if (typeof mapped === 'object' && mapped !== null) {
      for (const key of Object.keys(mapped)) if (key !== '' && key !== '*') subpaths.add(`./${key}`);
    }
  }
  return [...subpaths].filter((subpath) => !subpath.includes('*') && !/\.json$/.test(subpath));
}

/**
 * Each public subpath of `runtime` resolved to its declaration file the way
 * TypeScript resolves an import of it (its own module resolution: the exports
 * map's conditions in TypeScript's order, `types`/`typings`, `typesVersions`,
 * the `.d.ts` beside `main`), as an ES module import first and a `require`
 * second. A subpath the runtime package has no declarations for is looked up
 * in `types`, the `@types/…` package that types it, as TypeScript would.
 * Subpaths that resolve to no declaration file are left out.
 */
export function resolveEntryPoints(
  ts: typeof TypeScript,
  runtime: PackageFolder,
  manifest: Record<string, unknown>,
  types: { readonly folder: PackageFolder; readonly manifest: Record<string, unknown> } | undefined,
  docsText = '',
): EntryPoint[] {
  const found: EntryPoint[] = [];
  const seen = new Set<string>();
  const add = (importPath: string, file: string | undefined, fromTypes: boolean) => {
    if (file === undefined || seen.has(file)) return;
    seen.add(file);
    found.push({ importPath, file, fromTypes });
  };
  const typesSubpaths = types ? publicSubpaths(types.manifest) : [];
  // One cache for every subpath: without it each resolution reads and parses the package.json again (date-fns's
  // 740 subpaths made that over a second).
  const options = resolution(ts);
  const cache = ts.createModuleResolutionCache(runtime.dir, (file) => file, options);
  const resolver = { ts, options, cache };
  const subpaths = [...publicSubpaths(manifest), ...siblingSubpaths(runtime, manifest, docsText)];
  for (const subpath of [...new Set(subpaths)]) {
    const importPath = subpath === '.' ? runtime.name : `${runtime.name}/${subpath.slice(2)}`;
    const own = resolveDeclaration(resolver, runtime, subpath);
    if (own !== undefined || !types) add(importPath, own, false);
    else if (subpath === '.' || typesSubpaths.includes(subpath)) {
      add(importPath, resolveDeclaration(resolver, types.folder, subpath), true);
    }
  }
  return found;
}

// A folder of modules past this many declaration files (a locale per file) is a catalogue, not an API.
const MAX_SIBLINGS = 100;

/**
 * The subpaths beside those a package's README or docs import from a folder
 * of it, when it has no exports map (so any file is importable): dayjs's
 * README imports `dayjs/plugin/advancedFormat`, and each of the other
 * declaration files in `plugin/` is imported the same way
 * (`dayjs/plugin/relativeTime`). A folder with more than `MAX_SIBLINGS`
 * declaration files is left out.
 *
 * @example
 * siblingSubpaths(dayjs, manifest, "import advancedFormat from 'dayjs/plugin/advancedFormat'");
 * // → ['./plugin/advancedFormat', './plugin/arraySupport', …, './plugin/relativeTime', …]
 */
export function siblingSubpaths(runtime: PackageFolder, manifest: Record<string, unknown>, docsText: string): string[] {
  if (manifest.exports !== undefined || docsText === '') return [];
  const folders = new Set<string>();
  const escaped = runtime.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // A module specifier is a string in code: quoted, or in backticks as prose names one (as `isShownEntryPoint` reads).
  for (const found of docsText.matchAll(new RegExp(`(['"\`])${escaped}/([\\w@.-]+(?:/[\\w@.-]+)*)\\1`, 'g'))) {
    const folder = path.posix.dirname(found[2] ?? '');
    if (folder !== '.' && !folder.split('/').includes('..')) folders.add(folder);
  }
  const subpaths: string[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(path.join(runtime.dir, ...folder.split('/')));
    } catch {
      continue;
    }
    const modules = names.filter((name) => /\.d\.ts$/.test(name) && name !== 'index.d.ts').sort();
    if (modules.length > MAX_SIBLINGS) continue;
    subpaths.push(...modules.map((name) => `./${folder}/${name.slice(0, -'.d.ts'.length)}`));
  }
  return subpaths;
}

/** Bundler resolution: the exports map with the `types` and `import` conditions, and the node10 fallbacks (typesVersions, main). */
function resolution(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext };
}

/** The declaration file TypeScript resolves `<package>/<subpath>` to, from the folder holding the package. */
function resolveDeclaration(
  {
    ts,
    options,
    cache,
  }: { ts: typeof TypeScript; options: TypeScript.CompilerOptions; cache: TypeScript.ModuleResolutionCache },
  folder: PackageFolder,
  subpath: string,
): string | undefined {
  // The folder that holds `node_modules/<name>`: resolving the bare name from there finds this very package.
  const nodeModules = path.resolve(folder.dir, ...folder.name.split('/').map(() => '..'));
  if (path.basename(nodeModules) !== 'node_modules') return undefined;
  const containing = path.join(path.dirname(nodeModules), '__docs_entry__.ts');
  const specifier = subpath === '.' ? folder.name : `${folder.name}/${subpath.slice(2)}`;
  for (const mode of [ts.ModuleKind.ESNext, ts.ModuleKind.CommonJS] as const) {
    const resolved = ts.resolveModuleName(
      specifier,
      containing,
      options,
      ts.sys,
      cache,
      undefined,
      mode,
    ).resolvedModule;
    if (resolved?.extension !== undefined && /^\.d\.[cm]?ts$/.test(resolved.extension)) {
      const file = ts.sys.realpath?.(resolved.resolvedFileName) ?? resolved.resolvedFileName;
      if (file.startsWith(`${folder.dir}${path.sep}`)) return file;
    }
  }
  return undefined;
}
