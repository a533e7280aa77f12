import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstalledDependency } from './dependencies.js';
import { parseMetadata } from './dependencies.js';
import { declarationsToMarkdown, documentedDeclarations } from './dts.js';
import { cleanReadme } from './readme.js';
import type { ResolvedSource } from './source.js';
import { tempDir } from './temp-dir.js';
import { findDocFiles } from './walk.js';

/** Options for {@link stageDependencyDocs}. */
export interface StageOptions {
  /** Also document the package's API from the JSDoc comments in its `.d.ts` files. @default true */
  readonly types?: boolean;
  /** Declaration files followed from the types entry (through `export … from`). @default 200 */
  readonly maxTypeFiles?: number;
  /** Bytes of declaration files read. @default 8 MiB */
  readonly maxTypeBytes?: number;
}

/** A staged dependency, or why it has nothing to build. */
export type StageResult =
  | { readonly ok: true; readonly value: ResolvedSource }
  | { readonly ok: false; readonly error: string };

const README = /^readme(?:\.(?:md|markdown|mdx|rst|txt|adoc))?$/i;
const PACKAGE_DOCS_FOLDERS = ['docs', 'doc', 'documentation'];

/**
 * Gathers what an installed dependency ships as documentation into a
 * temporary folder: its README, its docs folder (`docs/`, `doc/` or
 * `documentation/`), and an `api.md` written from the JSDoc comments of its
 * type declarations; for a Python distribution, the long description in its
 * METADATA. A dependency with none of these is a result with the reason, not
 * an error. Call `dispose()` on the staged source when done.
 *
 * @example
 * const staged = await stageDependencyDocs(dependency);
 * if (staged.ok) try { await buildPackage({ root: staged.value.root, ... }) } finally { await staged.value.dispose() }
 */
export async function stageDependencyDocs(
  dependency: InstalledDependency,
  options: StageOptions = {},
): Promise<StageResult> {
  const { dir, dispose } = await tempDir('dep');
  try {
    const staged =
      dependency.ecosystem === 'python'
        ? await stagePython(dependency, dir)
        : await stageNpm(dependency, dir, {
            types: options.types ?? true,
            maxFiles: options.maxTypeFiles ?? 200,
            maxBytes: options.maxTypeBytes ?? 8 * 1024 * 1024,
          });
    if (staged.length === 0) {
      await dispose();
      return {
        ok: false,
        error:
          dependency.ecosystem === 'python'
            ? 'no long description in its METADATA'
            : 'no README, docs folder or documented type declarations',
      };
    }
    return {
      ok: true,
      value: {
        kind: 'dependency',
        root: dir,
        name: dependency.name,
        version: dependency.version,
        ...(dependency.description ? { description: dependency.description } : {}),
        source: `${dependency.ecosystem === 'npm' ? 'npm' : 'pypi'}:${dependency.name}@${dependency.version}`,
        warnings: [],
        skipped: [],
        dispose,
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function stageNpm(
  dependency: InstalledDependency,
  dir: string,
  types: { types: boolean; maxFiles: number; maxBytes: number },
): Promise<string[]> {
  const staged: string[] = [];
  const entries = await readdir(dependency.dir, { withFileTypes: true });
  const readme = entries.find((e) => e.isFile() && README.test(e.name));
  if (readme) {
    const target = path.extname(readme.name) === '' ? 'README.md' : readme.name;
    const source = path.join(dependency.dir, readme.name);
    // A markdown README is cleaned of its front page's badges and HTML (readme.ts); MDX, rst and others are copied.
    if (/\.(?:md|markdown)$/i.test(target))
      await writeFile(path.join(dir, target), cleanReadme(await readFile(source, 'utf8')));
    else await copyFile(source, path.join(dir, target));
    staged.push(target);
  }
  for (const folder of PACKAGE_DOCS_FOLDERS) {
    const source = path.join(dependency.dir, folder);
    if (!(await stat(source).catch(() => undefined))?.isDirectory()) continue;
    for (const file of await findDocFiles(source)) {
      const target = path.join(dir, folder, ...file.relativePath.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file.absolutePath, target);
      staged.push(`${folder}/${file.relativePath}`);
    }
    break;
  }
  if (types.types) {
    const api = await typeDocs(dependency, types.maxFiles, types.maxBytes);
    if (api !== undefined) {
      await writeFile(path.join(dir, 'api.md'), api);
      staged.push('api.md');
    }
  }
  return staged;
}

async function stagePython(dependency: InstalledDependency, dir: string): Promise<string[]> {
  const metadata = await readFile(path.join(dependency.dir, 'METADATA'), 'utf8').catch(() => '');
  const { headers, description } = parseMetadata(metadata);
  if (description === '' || description === 'UNKNOWN') return [];
  // Core metadata: without a content type the description is reStructuredText.
  const type = headers.get('description-content-type')?.toLowerCase() ?? 'text/x-rst';
  const file = type.includes('markdown') ? 'README.md' : type.includes('plain') ? 'README.txt' : 'README.rst';
  await writeFile(path.join(dir, file), description);
  return [file];
}

/** The package's documented API as markdown, from its types entry and the files it re-exports; undefined when none is documented. */
async function typeDocs(
  dependency: InstalledDependency,
  maxFiles: number,
  maxBytes: number,
): Promise<string | undefined> {
  const manifest = JSON.parse(await readFile(path.join(dependency.dir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const entries = typesEntries(manifest);
  const candidates = entries.length > 0 ? entries : ['index.d.ts'];
  const queue: string[] = [];
  for (const candidate of candidates) {
    const file = path.resolve(dependency.dir, candidate);
    if (insidePackage(dependency.dir, file) && (await isFile(file))) queue.push(file);
  }
  const seen = new Set<string>(queue);
  const declarations = [];
  let bytes = 0;
  for (let i = 0; i < queue.length && i < maxFiles; i++) {
    const file = queue[i] as string;
    const size = (await stat(file)).size;
    if (bytes + size > maxBytes) break;
    bytes += size;
    const source = await readFile(file, 'utf8');
    declarations.push(...documentedDeclarations(source));
    for (const match of source.matchAll(
      /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["'](\.{1,2}\/[^"']+)["']/g,
    )) {
      const target = await declarationFile(path.dirname(file), match[1] as string);
      if (target && !seen.has(target) && insidePackage(dependency.dir, target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  if (declarations.length === 0) return undefined;
  return declarationsToMarkdown(`${dependency.name} API`, declarations);
}

/**
 * The type entry points of a package.json: `types`/`typings`, the `types`
 * condition of its `"."` export, then those of its other exports (`./client`,
 * `./server`), which are public API too.
 */
function typesEntries(manifest: Record<string, unknown>): string[] {
  const entries: string[] = [];
  for (const field of ['types', 'typings']) {
    if (typeof manifest[field] === 'string') entries.push(manifest[field]);
  }
  const exports = manifest.exports;
  if (typeof exports === 'object' && exports !== null && !Array.isArray(exports)) {
    const map = exports as Record<string, unknown>;
    const subpaths = Object.keys(map).some((key) => key.startsWith('.')) ? Object.entries(map) : [['.', map] as const];
    for (const [subpath, target] of subpaths) {
      if (subpath.includes('*') || subpath === './package.json') continue;
      const found = findTypesCondition(target, 0);
      if (found) entries.push(found);
    }
  }
  return [...new Set(entries)];
}

function findTypesCondition(value: unknown, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null || depth > 4) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.types === 'string') return record.types;
  for (const key of ['import', 'default', 'require', 'node']) {
    const found = findTypesCondition(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The declaration file an `export … from './x.js'` means: x.d.ts, x.d.mts, x.d.cts or x/index.d.ts. */
async function declarationFile(from: string, specifier: string): Promise<string | undefined> {
  const base = path.resolve(from, specifier);
  const stem = base.replace(/\.(?:[cm]?js|d\.[cm]?ts|[cm]?ts)$/, '');
  const flavour = /\.cjs$/.test(base)
    ? ['.d.cts', '.d.ts']
    : /\.mjs$/.test(base)
      ? ['.d.mts', '.d.ts']
      : ['.d.ts', '.d.mts', '.d.cts'];
  for (const candidate of [...flavour.map((ext) => `${stem}${ext}`), path.join(base, 'index.d.ts')]) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

function insidePackage(dir: string, file: string): boolean {
  return file.startsWith(`${dir}${path.sep}`);
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() === true;
}
