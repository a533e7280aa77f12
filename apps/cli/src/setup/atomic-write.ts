import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, realpath, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

// A host reads its configuration while it runs (Claude Code rewrites ~/.claude.json on its own): a file is replaced
// whole, by renaming a complete copy over it, so no reader ever sees half of one.

/**
 * Writes `text` to `file` through a temporary file beside it and a rename. A symlinked file (dotfiles kept in a
 * repository) is written where the link points, so the link stays; an existing file keeps its permissions (a
 * ~/.claude.json only its owner can read stays so).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = await realTarget(file);
  await mkdir(path.dirname(target), { recursive: true });
  const mode = (await stat(target).catch(() => undefined))?.mode;
  const temp = `${target}.docs-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', mode === undefined ? 0o644 : mode & 0o777);
    try {
      await handle.writeFile(text);
      if (mode !== undefined) await handle.chmod(mode & 0o777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Deletes `file` (where a symlink points, as it was written), then each folder above it left empty, up to `root`
 * (excluded): the folders a setup made (.cursor/rules, .vscode) go with its last file.
 */
export async function removeFile(file: string, root: string): Promise<void> {
  const target = await realTarget(file);
  await rm(target, { force: true });
  const stop = path.resolve(root);
  for (let dir = path.dirname(path.resolve(file)); isInside(dir, stop); dir = path.dirname(dir)) {
    if ((await readdir(dir).catch(() => ['?'])).length > 0) return;
    await rmdir(dir).catch(() => undefined);
  }
}

async function realTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
