import { packageApi } from './api/index.js';
import type { InstalledDependency } from './dependencies.js';
import { stageGo } from './go/stage-go.js';
import { stagePythonDocs } from './python/stage.js';
import { stageCrate } from './rust/stage-crate.js';
import type { ResolvedSource } from './source.js';
import { alone, type Staged, stageDocsFolder, stageReadme, writePages } from './staged-parts.js';
import { tempDir } from './temp-dir.js';

/** Options for {@link stageDependencyDocs}. */
export interface StageOptions {
  /** Also document the package's API from the JSDoc comments in its `.d.ts` files. @default true */
  readonly types?: boolean;
  /**
   * Declaration files read for the API pages (the package's, its types package's and their dependencies'); for a Go
   * module, its `.go` files. @default 1000, a Go module 2000
   */
  readonly maxTypeFiles?: number;
  /** Bytes of declaration files read (a Go module's `.go` files). @default 16 MiB, a Go module 32 MiB */
  readonly maxTypeBytes?: number;
  /** Go: seconds the API reader may take over one module. @default 120 */
  readonly goTimeoutSeconds?: number;
  /** A Python distribution: the parser's time for its modules, after which its API pages are left out. @default 60 s */
  readonly pythonTimeoutMs?: number;
}

/** A staged dependency, or why it has nothing to build. */
export type StageResult =
  | { readonly ok: true; readonly value: ResolvedSource }
  | { readonly ok: false; readonly error: string };

/** Why a dependency of each ecosystem staged nothing, when no part of it failed. */
const NOTHING_STAGED: Record<InstalledDependency['ecosystem'], string> = {
  npm: 'no README, docs folder or type declarations',
  python: 'no long description in its METADATA, and no public Python API',
  go: 'no README, docs folder or exported Go API',
  rust: 'no README, examples or public API in its source',
};

// The docs folder's markdown read to tell which entry points its examples import: a bound on the bytes held.
const MAX_DOCS_TEXT = 8 * 1024 * 1024;

/**
 * Gathers what an installed dependency ships as documentation into a
 * temporary folder: its README, its docs folder (`docs/`, `doc/` or
 * `documentation/`), and API pages read from its type declarations with the
 * TypeScript compiler, one per entry point (`api.md` for the root,
 * `api/v4.md` for `zod/v4`), from its `@types/…` package where it ships none
 * (`dependency.types`); for a Python distribution, the long description in
 * its METADATA and API pages read from its modules and stubs (`python/`). A dependency with none of these is a result with the reason, not
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
    const staged = await stageByEcosystem(dependency, dir, options);
    if (staged.files.length === 0) {
      await dispose();
      // Nothing staged because every part failed says why, not that the package has no docs.
      return {
        ok: false,
        error: staged.warnings.length > 0 ? staged.warnings.join('; ') : NOTHING_STAGED[dependency.ecosystem],
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
        source: provenance(dependency, staged.fromTypes),
        warnings: staged.warnings,
        skipped: [],
        dispose,
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Stages a dependency by its own ecosystem's rules. */
async function stageByEcosystem(dependency: InstalledDependency, dir: string, options: StageOptions): Promise<Staged> {
  switch (dependency.ecosystem) {
    case 'npm':
      return stageNpm(dependency, dir, {
        types: options.types ?? true,
        maxFiles: options.maxTypeFiles ?? 1000,
        maxBytes: options.maxTypeBytes ?? 16 * 1024 * 1024,
      });
    case 'python':
      return stagePythonDocs(dependency, dir, {
        api: options.types ?? true,
        maxFiles: options.maxTypeFiles ?? 1000,
        maxBytes: options.maxTypeBytes ?? 16 * 1024 * 1024,
        timeoutMs: options.pythonTimeoutMs ?? 60_000,
      });
    case 'go':
      return {
        ...(await stageGo(dependency, dir, {
          api: options.types ?? true,
          maxFiles: options.maxTypeFiles ?? 2000,
          maxBytes: options.maxTypeBytes ?? 32 * 1024 * 1024,
          timeoutMs: (options.goTimeoutSeconds ?? 120) * 1000,
        })),
        fromTypes: false,
      };
    case 'rust':
      return { ...(await stageCrate(dependency, dir, { api: options.types ?? true })), fromTypes: false };
  }
}

/** Where the staged docs come from: `npm:express@5.1.0, types from npm:@types/express@5.0.3`. */
function provenance(dependency: InstalledDependency, fromTypes: boolean): string {
  if (dependency.ecosystem === 'go')
    return `go:${dependency.goSource ?? `${dependency.goModule}@v${dependency.version}`}`;
  const prefix = { npm: 'npm', python: 'pypi', rust: 'crates' }[dependency.ecosystem];
  const own = `${prefix}:${dependency.name}@${dependency.version}`;
  return dependency.types && fromTypes
    ? `${own}, types from ${dependency.ecosystem === 'npm' ? 'npm' : 'pypi'}:${dependency.types.name}@${dependency.types.version}`
    : own;
}

async function stageNpm(
  dependency: InstalledDependency,
  dir: string,
  types: { types: boolean; maxFiles: number; maxBytes: number },
): Promise<Staged> {
  const staged: string[] = [];
  const warnings: string[] = [];
  // What the package's own docs say: which of its entry points they show a user importing, what their examples do.
  const docsText: string[] = [];
  // Each part fails alone: the package is built from the parts that worked, and the warnings say what was left out.
  await alone('its README was left out', warnings, async () => {
    const readme = await stageReadme(dependency.dir, dir);
    staged.push(...readme.files);
    docsText.push(...readme.texts);
  });
  await alone('its docs folder was left out', warnings, async () => {
    const folder = await stageDocsFolder(dependency.dir, dir, MAX_DOCS_TEXT);
    staged.push(...folder.files);
    docsText.push(...folder.texts);
  });
  let fromTypes = false;
  if (types.types) {
    await alone('its API pages were left out', warnings, async () => {
      const limits = { maxFiles: types.maxFiles, maxBytes: types.maxBytes };
      const api = await packageApi(dependency, dependency.types, limits, docsText);
      await writePages(dir, api.pages);
      staged.push(...api.pages.map((page) => page.file));
      fromTypes = api.fromTypes;
      warnings.push(...api.warnings);
    });
  }
  return { files: staged, fromTypes, warnings };
}
