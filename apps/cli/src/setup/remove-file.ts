import { readdir, realpath, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';

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
