import { type DocExample, docExamples } from '../api/doc-examples.js';
import type { InstalledDependency } from '../dependencies.js';
import { alone, stageDocsFolder, stageReadme, writePages } from '../staged-parts.js';
import { goApiPages } from './api-pages.js';
import { readGoApi } from './doc-helper.js';
import { goExampleInputs, goMentions, isGoFence } from './example-mentions.js';
import { goOnPath } from './go-command.js';

// The docs' markdown read for the examples whose calls lend words to API sections, and bounds on those examples.
const MAX_DOCS_TEXT = 8 * 1024 * 1024;
const EXAMPLE_LIMITS = { maxExamples: 1000, maxCodeChars: 2 * 1024 * 1024 };

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
 * Go toolchain's go/doc (`doc-helper.ts`), each lent the words the README and docs say around the examples that
 * call it (`example-mentions.ts`). Where go is not on PATH the API pages are left out with a warning.
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
  const texts: string[] = [];
  await alone('its README was left out', warnings, async () => {
    const readme = await stageReadme(dependency.dir, dir);
    files.push(...readme.files);
    texts.push(...readme.texts);
  });
  await alone('its docs folder was left out', warnings, async () => {
    const folder = await stageDocsFolder(dependency.dir, dir, MAX_DOCS_TEXT);
    files.push(...folder.files);
    texts.push(...folder.texts);
  });
  if (!options.api) return { files, warnings };
  if (!(await goOnPath())) {
    warnings.push('no API pages: go is not on PATH (its go/doc reads the doc comments)');
    return { files, warnings };
  }
  await alone('its API pages were left out', warnings, async () => {
    const modulePath = dependency.goModule ?? dependency.name;
    // A README that is not markdown (rst, txt) is read as text: its code blocks are not found, and nothing is lent.
    let examples: DocExample[] = [];
    await alone('its examples lend no words', warnings, async () => {
      examples = docExamples(texts, isGoFence, EXAMPLE_LIMITS);
    });
    const api = await readGoApi(dependency.dir, modulePath, options, goExampleInputs(examples));
    if (!api.ok) throw new Error(api.error);
    warnings.push(...api.warnings);
    const pages = goApiPages(modulePath, api.packages, goMentions(api.packages, examples, api.examples));
    await writePages(dir, pages);
    files.push(...pages.map((p) => p.file));
  });
  return { files, warnings };
}
