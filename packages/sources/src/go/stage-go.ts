import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { InstalledDependency } from '../dependencies.js';
import { cleanReadme } from '../readme.js';
import { findDocFiles } from '../walk.js';
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

const README = /^readme(?:\.(?:md|markdown|rst|txt|adoc))?$/i;
const DOCS_FOLDERS = ['docs', 'doc', 'documentation'];

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
    const entries = await readdir(dependency.dir, { withFileTypes: true });
    const readme = entries.find((e) => e.isFile() && README.test(e.name));
    if (!readme) return;
    const target = path.extname(readme.name) === '' ? 'README.md' : readme.name;
    const source = path.join(dependency.dir, readme.name);
    if (/\.(?:md|markdown)$/i.test(target)) {
      await writeFile(path.join(dir, target), cleanReadme(await readFile(source, 'utf8')));
    } else {
      await copyFile(source, path.join(dir, target));
    }
    files.push(target);
  });
  await alone('its docs folder was left out', warnings, async () => {
    for (const folder of DOCS_FOLDERS) {
      const source = path.join(dependency.dir, folder);
      if (!(await stat(source).catch(() => undefined))?.isDirectory()) continue;
      for (const file of await findDocFiles(source)) {
        const target = path.join(dir, folder, ...file.relativePath.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(file.absolutePath, target);
        files.push(`${folder}/${file.relativePath}`);
      }
      break;
    }
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
    for (const folder of new Set(pages.map((p) => path.dirname(path.join(dir, ...p.file.split('/')))))) {
      await mkdir(folder, { recursive: true });
    }
    const limit = pLimit(32);
    await Promise.all(pages.map((p) => limit(() => writeFile(path.join(dir, ...p.file.split('/')), p.markdown))));
    files.push(...pages.map((p) => p.file));
  });
  return { files, warnings };
}

/** Runs one part of staging; when it throws, `leftOut` and the reason become a warning, and staging goes on. */
async function alone(leftOut: string, warnings: string[], stage: () => Promise<void>): Promise<void> {
  try {
    await stage();
  } catch (error) {
    warnings.push(`${leftOut}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
