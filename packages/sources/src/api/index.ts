import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type TypeScript from 'typescript';
import { resolvePackageFolder } from '../dependencies.js';
import { apiSections } from './declarations.js';
import { type PackageFolder, resolveEntryPoints } from './entry-points.js';
import { isShownEntryPoint } from './entry-roles.js';
import { type ApiPage, apiPages } from './markdown.js';
import { docsMentions } from './mentions.js';
import { ImplementationComments, SOURCE_LIMITS } from './source-comments.js';

export type { PackageFolder } from './entry-points.js';
export type { ApiPage } from './markdown.js';

/** Bounds on the declaration files read for one package's API. */
export interface ApiLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** A package's API pages, and what kept them from being whole. */
export interface ApiDocs {
  readonly pages: readonly ApiPage[];
  /** Whether any page was read from the `@types/…` package. */
  readonly fromTypes: boolean;
  readonly warnings: readonly string[];
}

/**
 * The API of an installed npm package as markdown pages, one per public entry
 * point, read with the TypeScript compiler: its module resolution finds each
 * entry point's declaration file (in `types`, the `@types/…` package, where the
 * package ships none), and its checker follows what each one exports. The
 * program reads declaration files of the package, of its types package and of
 * the packages either depends on (where `vitest` re-exports `@vitest/expect`,
 * or `@types/express` extends `@types/express-serve-static-core`), nothing
 * else and nothing outside them, within `limits`. `docs` are the package's
 * README and docs folder's markdown: an entry point they never import has its
 * pages apart, under `api/other-entry-points/` (see `isShownEntryPoint`), and
 * their paragraphs naming an API are quoted in its section (see `docsMentions`).
 */
export async function packageApi(
  runtime: PackageFolder,
  types: PackageFolder | undefined,
  limits: ApiLimits,
  docs: readonly string[] = [],
): Promise<ApiDocs> {
  if (types === undefined) return await readApi(runtime, undefined, limits, docs);
  try {
    return await readApi(runtime, types, limits, docs);
  } catch (error) {
    // The @types join fails alone: the package's own declarations still make its pages, where it has any.
    const own = await readApi(runtime, undefined, limits, docs);
    const reason = error instanceof Error ? error.message : String(error);
    return { ...own, warnings: [`the API from ${types.name} was left out: ${reason}`, ...own.warnings] };
  }
}

async function readApi(
  runtime: PackageFolder,
  types: PackageFolder | undefined,
  limits: ApiLimits,
  docs: readonly string[],
): Promise<ApiDocs> {
  const ts = (await import('typescript')).default;
  const manifest = await readManifest(runtime.dir);
  const typesManifest = types ? await readManifest(types.dir) : undefined;
  const entries = resolveEntryPoints(
    ts,
    runtime,
    manifest,
    types && typesManifest ? { folder: types, manifest: typesManifest } : undefined,
    docs.join('\n'),
  );
  if (entries.length === 0) return { pages: [], fromTypes: false, warnings: [] };
  const readable = await readableFolders([
    { folder: runtime, manifest },
    ...(types && typesManifest ? [{ folder: types, manifest: typesManifest }] : []),
  ]);
  const warnings: string[] = [];
  const options = programOptions(ts);
  const program = ts.createProgram({
    rootNames: entries.map((entry) => entry.file),
    options,
    host: boundedHost(ts, options, readable, limits, (warning) => warnings.push(warning)),
  });
  // The package's own declarations, and its types package's: a namespace made of another package's module is that
  // package's API.
  const own = [runtime.dir, ...(types ? [types.dir] : [])].map((dir) => `${dir}${path.sep}`);
  const isOwnFile = (file: string) => {
    const real = ts.sys.realpath?.(file) ?? file;
    return own.some((dir) => real.startsWith(dir));
  };
  const warn = (warning: string) => warnings.push(warning);
  // Comments the declaration files lost (an overloaded function's), from the sources the package ships beside them.
  const implementations = new ImplementationComments(ts, isOwnFile, SOURCE_LIMITS, warn);
  const declared = apiSections(ts, program, entries, warn, isOwnFile, implementations);
  // The docs' paragraphs that name an API lend it their words.
  const mentions = docsMentions(ts, docs, declared);
  const sections = declared.map((section, i) => {
    const lent = mentions.get(i);
    return lent === undefined ? section : { ...section, mentions: lent };
  });
  const docsText = docs.join('\n');
  const pages = apiPages(runtime.name, sections, (importPath) => isShownEntryPoint(importPath, runtime.name, docsText));
  const typed = new Set(entries.filter((entry) => entry.fromTypes).map((entry) => entry.importPath));
  return { pages, fromTypes: pages.some((page) => typed.has(page.importPath)), warnings: [...new Set(warnings)] };
}

function programOptions(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return {
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ESNext,
    // Declarations only: no default library (its types add nothing to a package's API and cost a second per package),
    // no @types packages but those a declaration names.
    noLib: true,
    types: [],
    noEmit: true,
    skipLibCheck: true,
    allowJs: false,
  };
}

/** The folders whose declaration files the program may read: the packages themselves and their dependencies. */
async function readableFolders(
  packages: readonly { folder: PackageFolder; manifest: Record<string, unknown> }[],
): Promise<string[]> {
  const folders = new Set<string>();
  for (const { folder, manifest } of packages) {
    folders.add(folder.dir);
    const dependencies = manifest.dependencies;
    if (typeof dependencies !== 'object' || dependencies === null) continue;
    for (const name of Object.keys(dependencies)) {
      const found = await resolvePackageFolder(folder.dir, name).catch(() => undefined);
      if (found !== undefined) folders.add(found);
    }
  }
  return [...folders].map((dir) => `${dir}${path.sep}`);
}

/**
 * A compiler host that reads only declaration files inside `folders` (real
 * paths, so a symlink cannot lead out), and stops reading past the limits:
 * a package's declarations are untrusted input, and a `/// <reference path>`
 * must not make docs read the rest of the disk.
 */
function boundedHost(
  ts: typeof TypeScript,
  options: TypeScript.CompilerOptions,
  folders: readonly string[],
  limits: ApiLimits,
  warn: (warning: string) => void,
): TypeScript.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const realpathOf = (file: string) => host.realpath?.(file) ?? file;
  let files = 0;
  let bytes = 0;
  const inside = (file: string) => {
    const real = realpathOf(file);
    return folders.some((folder) => real.startsWith(folder));
  };
  const readable = (file: string) => /\.d\.[cm]?ts$/.test(file) && inside(file);
  // Module resolution reads the manifests of the packages it passes through; only those of readable folders.
  const manifest = (file: string) => path.basename(file) === 'package.json' && inside(file);
  return {
    ...host,
    fileExists: (file) => (readable(file) || manifest(file)) && host.fileExists(file),
    readFile: (file) => (readable(file) || manifest(file) ? host.readFile(file) : undefined),
    getSourceFile: (file, language) => {
      if (!readable(file)) return undefined;
      const text = host.readFile(file);
      if (text === undefined) return undefined;
      if (files + 1 > limits.maxFiles || bytes + text.length > limits.maxBytes) {
        warn(`the API page stops at ${limits.maxFiles} declaration files or ${limits.maxBytes} bytes`);
        return undefined;
      }
      files += 1;
      bytes += text.length;
      return ts.createSourceFile(file, text, language, true);
    },
    writeFile: () => undefined,
  };
}

async function readManifest(dir: string): Promise<Record<string, unknown>> {
  const text = await readFile(path.join(await realpath(dir), 'package.json'), 'utf8');
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
