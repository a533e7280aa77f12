import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstalledDependency } from '../dependencies.js';
import { cleanReadme } from '../readme.js';
import { alone, type Staged, writePages } from '../staged-parts.js';
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

/**
 * Stages an installed Python distribution's docs into `dir`: the long description of its METADATA (its README) and
 * API pages read from its modules and stubs (api/). An API that cannot be read is a warning: the README is still
 * built.
 */
export async function stagePythonDocs(
  dependency: InstalledDependency,
  dir: string,
  options: PythonStageOptions,
): Promise<Staged> {
  const files: string[] = [];
  const warnings: string[] = [];
  // A markdown README's examples lend their words to the API they call (readme-examples.ts).
  const readmes: string[] = [];
  // Each part fails alone (as npm staging's do): a README that cannot be written still leaves the API pages, and an
  // API that cannot be read leaves the README.
  await alone('README left out', warnings, async () => {
    const metadata = await readFile(path.join(dependency.dir, 'METADATA'), 'utf8').catch(() => '');
    const { headers, description } = parseMetadata(metadata);
    if (description === '' || description === 'UNKNOWN') return;
    // Core metadata: without a content type the description is reStructuredText.
    const type = headers.get('description-content-type')?.toLowerCase() ?? 'text/x-rst';
    const file = type.includes('markdown') ? 'README.md' : type.includes('plain') ? 'README.txt' : 'README.rst';
    if (file === 'README.md') readmes.push(description);
    // A markdown long description is most often the project's README, with its badges and HTML front page.
    await writeFile(path.join(dir, file), file === 'README.md' ? cleanReadme(description) : description);
    files.push(file);
  });
  let fromTypes = false;
  if (options.api) {
    await alone('no API pages', warnings, async () => {
      const api = await pythonApi(dependency, dependency.types, options, readmes);
      await writePages(dir, api.pages);
      files.push(...api.pages.map((page) => page.file));
      fromTypes = api.fromStubs;
      warnings.push(...api.warnings);
    });
  }
  return { files, fromTypes, warnings };
}
