import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { cleanReadme } from './readme.js';
import { findDocFiles } from './walk.js';

// The parts of an installed package's own documentation that every ecosystem stages alike: its README and its docs
// folder. Each is one part of a staging that fails alone (see `alone`).

const README = /^readme(?:\.(?:md|markdown|mdx|rst|txt|adoc))?$/i;
const DOCS_FOLDERS = ['docs', 'doc', 'documentation'];

/**
 * What staging one dependency wrote: the files, whether an API page came from its joined types or stubs (`@types/…`,
 * `types-…`), and what fell short.
 */
export interface Staged {
  readonly files: readonly string[];
  readonly fromTypes: boolean;
  readonly warnings: readonly string[];
}

/** What a part staged: the files written into the staged folder (relative paths), and the markdown read. */
export interface StagedPart {
  readonly files: readonly string[];
  /** The markdown texts read, for what reads the docs' prose (which entry points they import, what examples do). */
  readonly texts: readonly string[];
}

/**
 * Runs one part of staging; when it throws, `leftOut` and the reason become a warning, and staging goes on: the
 * package is built from the parts that worked, and the warnings say what was left out.
 */
export async function alone(leftOut: string, warnings: string[], stage: () => Promise<void>): Promise<void> {
  try {
    await stage();
  } catch (error) {
    warnings.push(`${leftOut}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The README at the top of `packageDir` staged into `dir`: a markdown README cleaned of its front page's badges and
 * HTML (readme.ts), MDX, reStructuredText and others copied as they are, one without an extension as `README.md`.
 */
export async function stageReadme(packageDir: string, dir: string): Promise<StagedPart> {
  const entries = await readdir(packageDir, { withFileTypes: true });
  const readme = entries.find((e) => e.isFile() && README.test(e.name));
  if (!readme) return { files: [], texts: [] };
  const target = path.extname(readme.name) === '' ? 'README.md' : readme.name;
  const source = path.join(packageDir, readme.name);
  const text = await readFile(source, 'utf8');
  if (/\.(?:md|markdown)$/i.test(target)) await writeFile(path.join(dir, target), cleanReadme(text));
  else await copyFile(source, path.join(dir, target));
  return { files: [target], texts: [text] };
}

/**
 * The first of `docs/`, `doc/` and `documentation/` in `packageDir` that exists, its doc files copied into the same
 * folder of `dir`; the text of its markdown files is kept up to `maxTextBytes` in all.
 */
export async function stageDocsFolder(packageDir: string, dir: string, maxTextBytes = 0): Promise<StagedPart> {
  const files: string[] = [];
  const texts: string[] = [];
  let textBytes = 0;
  for (const folder of DOCS_FOLDERS) {
    const source = path.join(packageDir, folder);
    if (!(await stat(source).catch(() => undefined))?.isDirectory()) continue;
    for (const file of await findDocFiles(source)) {
      const target = path.join(dir, folder, ...file.relativePath.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file.absolutePath, target);
      files.push(`${folder}/${file.relativePath}`);
      if (textBytes < maxTextBytes && /\.(?:md|mdx|markdown)$/i.test(file.relativePath)) {
        const text = await readFile(file.absolutePath, 'utf8');
        textBytes += text.length;
        texts.push(text);
      }
    }
    break;
  }
  return { files, texts };
}

/**
 * API pages written into the staged folder: each folder made once, the files written 32 at a time (a package's
 * thousand pages one after another spent seconds waiting on the file system, not writing).
 */
export async function writePages(
  dir: string,
  pages: readonly { readonly file: string; readonly markdown: string }[],
): Promise<void> {
  const targets = pages.map((page) => ({ file: path.join(dir, ...page.file.split('/')), markdown: page.markdown }));
  for (const folder of new Set(targets.map((t) => path.dirname(t.file)))) await mkdir(folder, { recursive: true });
  const limit = pLimit(32);
  await Promise.all(targets.map((t) => limit(() => writeFile(t.file, t.markdown))));
}

/**
 * A page's file name, `<folder>/<stem>.md`, unique among `taken` even where names differ only in case (a file
 * system may not tell `Command.md` from `command.md`): `api/Command.md`, then `api/command-2.md`.
 */
export function uniquePageFile(taken: Set<string>, folder: string, stem: string): string {
  const safe = stem.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_') || 'index';
  let file = `${folder}/${safe}.md`;
  for (let n = 2; taken.has(file.toLowerCase()); n++) file = `${folder}/${safe}-${n}.md`;
  taken.add(file.toLowerCase());
  return file;
}
