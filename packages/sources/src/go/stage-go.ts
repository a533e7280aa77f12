import { copyFile, lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { InstalledDependency } from '../dependencies.js';
import { cleanReadme } from '../readme.js';
import { findDocFiles } from '../walk.js';
import { goApiPages } from './api-pages.js';
import { readGoApi } from './doc-helper.js';
import { goOnPath } from './go-command.js';
import { readmeDocLinks } from './readme-links.js';

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
/** Pages a README links to that are staged beside it, at most. */
const MAX_LINKED_PAGES = 50;
// A project's housekeeping pages, which a README links to and a question about the API never wants.
const HOUSEKEEPING =
  /(?:^|\/)(?:contributing|code_of_conduct|conduct|security|license|licence|authors|maintainers|changelog|history|changes)(?:\.[a-z]+)?$/i;

/**
 * Stages a Go module's documentation into `dir`: its README, its docs folder (`docs/`, `doc/` or `documentation/`,
 * the markdown and other doc files in it), the module's own doc pages its README links to (a guide kept elsewhere,
 * such as cobra's `site/content/user_guide.md`; not its changelog or contributing guide) and API pages of its packages (`api-pages.ts`) read from its source by the
 * Go toolchain's go/doc (`doc-helper.ts`). Where go is not on PATH the API pages are left out with a warning.
 */
export async function stageGo(
  dependency: InstalledDependency,
  dir: string,
  options: GoStageOptions,
): Promise<{ files: string[]; warnings: string[] }> {
  const files: string[] = [];
  const warnings: string[] = [];
  const entries = await readdir(dependency.dir, { withFileTypes: true });
  const readme = entries.find((e) => e.isFile() && README.test(e.name));
  let linked: string[] = [];
  if (readme) {
    const target = path.extname(readme.name) === '' ? 'README.md' : readme.name;
    const source = path.join(dependency.dir, readme.name);
    if (/\.(?:md|markdown)$/i.test(target)) {
      const text = await readFile(source, 'utf8');
      await writeFile(path.join(dir, target), cleanReadme(text));
      linked = readmeDocLinks(text);
    } else {
      await copyFile(source, path.join(dir, target));
    }
    files.push(target);
  }
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
  // The module's own pages the README names (cobra's user guide in site/content/), unless already staged.
  const staged = new Set(files.map((f) => f.toLowerCase()));
  const moduleRoot = await realpath(dependency.dir);
  for (const page of linked.slice(0, MAX_LINKED_PAGES)) {
    if (staged.has(page.toLowerCase()) || page.toLowerCase().startsWith('api/') || HOUSEKEEPING.test(page)) continue;
    const source = path.join(dependency.dir, ...page.split('/'));
    // A regular file inside the module only: the link is the module's text, not a path to follow anywhere.
    if (!(await lstat(source).catch(() => undefined))?.isFile()) continue;
    const real = await realpath(source);
    if (path.relative(moduleRoot, real).startsWith('..') || path.isAbsolute(path.relative(moduleRoot, real))) continue;
    const target = path.join(dir, ...page.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(source, target);
    files.push(page);
    staged.add(page.toLowerCase());
  }
  if (!options.api) return { files, warnings };
  if (!(await goOnPath())) {
    warnings.push('no API pages: go is not on PATH (its go/doc reads the doc comments)');
    return { files, warnings };
  }
  const modulePath = dependency.goModule ?? dependency.name;
  const api = await readGoApi(dependency.dir, modulePath, options);
  if (!api.ok) {
    warnings.push(api.error);
    return { files, warnings };
  }
  warnings.push(...api.warnings);
  const pages = goApiPages(modulePath, api.packages);
  for (const folder of new Set(pages.map((p) => path.dirname(path.join(dir, ...p.file.split('/')))))) {
    await mkdir(folder, { recursive: true });
  }
  const limit = pLimit(32);
  await Promise.all(pages.map((p) => limit(() => writeFile(path.join(dir, ...p.file.split('/')), p.markdown))));
  files.push(...pages.map((p) => p.file));
  return { files, warnings };
}
