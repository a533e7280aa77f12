import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstalledDependency } from '../dependencies.js';
import { cleanReadme } from '../readme.js';
import { writePages } from '../staged-parts.js';
import { pythonApi } from './api/index.js';
import { parseMetadata } from './environment.js';

/** Options for {@link stagePythonDocs}. */
export interface PythonStageOptions {
  /** Write API pages from the distribution's modules. */
  readonly api: boolean;
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** What staging a Python distribution wrote into the folder. */
export interface PythonStaged {
  readonly files: readonly string[];
  /** Whether an API page was read from the joined stub distribution (`types-…`). */
  readonly fromTypes: boolean;
  readonly warnings: readonly string[];
}

/**
 * Stages an installed Python distribution's docs into `dir`: the long description of its METADATA (its README) and
 * API pages read from its modules and stubs (api/). An API that cannot be read is a warning: the README is still
 * built.
 */
export async function stagePythonDocs(
  dependency: InstalledDependency,
  dir: string,
  options: PythonStageOptions,
): Promise<PythonStaged> {
  const files: string[] = [];
  const warnings: string[] = [];
  // Each part fails alone (as npm staging's do): a README that cannot be written still leaves the API pages.
  try {
    const metadata = await readFile(path.join(dependency.dir, 'METADATA'), 'utf8').catch(() => '');
    const { headers, description } = parseMetadata(metadata);
    if (description !== '' && description !== 'UNKNOWN') {
      // Core metadata: without a content type the description is reStructuredText.
      const type = headers.get('description-content-type')?.toLowerCase() ?? 'text/x-rst';
      const file = type.includes('markdown') ? 'README.md' : type.includes('plain') ? 'README.txt' : 'README.rst';
      // A markdown long description is most often the project's README, with its badges and HTML front page.
      await writeFile(path.join(dir, file), file === 'README.md' ? cleanReadme(description) : description);
      files.push(file);
    }
  } catch (error) {
    warnings.push(`README left out: ${(error as Error).message}`);
  }
  let fromTypes = false;
  if (options.api) {
    try {
      const api = await pythonApi(dependency, dependency.types, options);
      await writePages(dir, api.pages);
      files.push(...api.pages.map((page) => page.file));
      fromTypes = api.fromStubs;
      warnings.push(...api.warnings);
    } catch (error) {
      // One failing part never loses the library: the README is built, and the warning says what is missing.
      warnings.push(`no API pages: ${(error as Error).message}`);
    }
  }
  return { files, fromTypes, warnings };
}
