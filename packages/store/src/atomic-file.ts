import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

// The one way docs replaces a small file another process may read meanwhile (an agent host's configuration, which
// Claude Code rewrites on its own; the record of approved project configs; a project store's verified packages): a
// complete copy is renamed over it, so no reader ever sees half of one, and an interrupted write leaves the old file.

/**
 * Writes `text` to `file` through a temporary file beside it and a rename. A symlinked file (dotfiles kept in a
 * repository) is written where the link points, so the link stays; an existing file keeps its permissions (a
 * ~/.claude.json only its owner can read stays so). The folders above it are made.
 *
 * @example
 * await writeFileAtomic(path.join(home, 'verified-packages.json'), `${JSON.stringify(record, null, 2)}\n`);
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

async function realTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}
