import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh directory under the system temp directory, named `docs-<purpose>-…`. */
export function makeTempDir(purpose: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `docs-${purpose}-`));
}

/** Removes a temp directory and everything in it; never throws (cleanup must not hide the real error). */
export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
}

/**
 * A fresh temp directory and the one way to remove it: `dispose` may be
 * called from every exit path (success, failure, abort) and removes it once.
 */
export async function tempDir(purpose: string): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await makeTempDir(purpose);
  let disposed = false;
  return {
    dir,
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await removeTempDir(dir);
    },
  };
}
