import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DOC_EXTENSIONS } from './doc-formats.js';

/** A documentation file found by {@link findDocFiles}. */
export interface DocFile {
  /** Absolute path on disk. */
  readonly absolutePath: string;
  /** Path relative to the walked root, with `/` separators on every platform. */
  readonly relativePath: string;
}

/** A file that was found but not used (not fetched, not staged, not indexed), and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

// Dependencies and VCS metadata are never documentation; hidden entries are
// caught by the dot rule, node_modules needs its own. `_build` is Sphinx's
// output: the rendered copy of the .rst sources next to it.
const SKIPPED_DIRECTORIES = new Set(['node_modules', '_build']);

// .txt files that are data or legal text, not documentation.
const NOT_DOCUMENTATION =
  /^(?:requirements.*|constraints.*|cmakelists|robots|license|licence|copying|notice|third[-_]party[-_]notices?|dependency_links|top_level|sources|entry_points|installed-files|record)\.txt$/i;

/**
 * All documentation files under `root`, sorted by `relativePath` (code-unit
 * order, so builds are deterministic across platforms and locales).
 *
 * Skips `node_modules`, `.git` and every hidden (dot) folder or file below the
 * root. Symlinked files are followed, symlinked directories are not (they can
 * form cycles or pull in unrelated trees).
 *
 * @throws {Error} If `root` does not exist or is not a directory.
 */
export async function findDocFiles(root: string): Promise<DocFile[]> {
  const absoluteRoot = path.resolve(root);
  let rootStats: Awaited<ReturnType<typeof stat>>;
  try {
    rootStats = await stat(absoluteRoot);
  } catch (error) {
    if (isNodeError(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) {
      throw new Error(`Documentation folder does not exist: ${absoluteRoot}`, { cause: error });
    }
    throw error;
  }
  if (!rootStats.isDirectory()) {
    throw new Error(`Documentation folder is not a directory: ${absoluteRoot}`);
  }

  const files: DocFile[] = [];
  await walkDirectory(absoluteRoot, '', files);
  files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  return files;
}

async function walkDirectory(directory: string, relativeDirectory: string, files: DocFile[]): Promise<void> {
  const entries: Dirent[] = await readdir(directory, { withFileTypes: true });
  const subdirectories: Promise<void>[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('.')) continue;
    const absolutePath = path.join(directory, name);
    const relativePath = relativeDirectory === '' ? name : `${relativeDirectory}/${name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(name)) subdirectories.push(walkDirectory(absolutePath, relativePath, files));
    } else if (isDocFileName(name)) {
      if (entry.isFile() || (entry.isSymbolicLink() && (await isFileTarget(absolutePath)))) {
        files.push({ absolutePath, relativePath });
      }
    }
  }
  await Promise.all(subdirectories);
}

function isDocFileName(name: string): boolean {
  const extension = path.extname(name).toLowerCase();
  return DOC_EXTENSIONS.includes(extension) && !NOT_DOCUMENTATION.test(name);
}

async function isFileTarget(absolutePath: string): Promise<boolean> {
  try {
    return (await stat(absolutePath)).isFile();
  } catch {
    // A dangling link is not a document; skipping it beats failing the build.
    return false;
  }
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
