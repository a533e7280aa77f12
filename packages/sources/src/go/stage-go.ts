import type { InstalledDependency } from '../dependencies.js';
import { alone, stageDocsFolder, stageReadme, writePages } from '../staged-parts.js';
import { goApiPages } from './api-pages.js';
import { readGoApi } from './doc-helper.js';
import { goOnPath } from './go-command.js';

/** Bounds on what is read of one module for its API pages. */
export interface GoStageOptions {
  /** Write API pages from the module's Go source. @default true */
  readonly api: boolean;
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/**
 * Stages a Go module's documentation into `dir`: its README, its docs folder (`docs/`, `doc/` or `documentation/`,
 * the markdown and other doc files in it) and API pages of its packages (`api-pages.ts`) read from its source by the
 * Go toolchain's go/doc (`doc-helper.ts`). Where go is not on PATH the API pages are left out with a warning.
 */
export async function stageGo(
  dependency: InstalledDependency,
  dir: string,
  options: GoStageOptions,
): Promise<{ files: string[]; warnings: string[] }> {
  const files: string[] = [];
  const warnings: string[] = [];
  // Each part fails alone, as the npm staging's do: the module is built from the parts that worked, and the warnings
  // say what was left out.
  await alone('its README was left out', warnings, async () => {
    files.push(...(await stageReadme(dependency.dir, dir)).files);
  });
  await alone('its docs folder was left out', warnings, async () => {
    files.push(...(await stageDocsFolder(dependency.dir, dir)).files);
  });
  if (!options.api) return { files, warnings };
  if (!(await goOnPath())) {
    warnings.push('no API pages: go is not on PATH (its go/doc reads the doc comments)');
    return { files, warnings };
  }
  await alone('its API pages were left out', warnings, async () => {
    const modulePath = dependency.goModule ?? dependency.name;
    const api = await readGoApi(dependency.dir, modulePath, options);
    if (!api.ok) throw new Error(api.error);
    warnings.push(...api.warnings);
    const pages = goApiPages(modulePath, api.packages);
    await writePages(dir, pages);
    files.push(...pages.map((p) => p.file));
  });
  return { files, warnings };
}
