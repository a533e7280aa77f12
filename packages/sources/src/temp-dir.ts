import { readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isRunning } from '@docs/store';

// `docs-<purpose>-<pid>-<random>`: the pid says whether the process that made it still runs. A process killed
// (kill -9 of docs sync or docs install) leaves its folder behind; the next one to make a temp folder removes it.
const OURS = /^docs-[a-z]+-(\d+)-[A-Za-z0-9]{6}$/;
/** A folder younger than this is left alone whatever its pid says: a pid may be reused, and clocks step. */
const STALE_MS = 60_000;
let swept = false;

/**
 * Removes the temp folders of docs processes that are gone (killed, crashed) and were last changed more than
 * `olderThanMs` ago; returns how many. Best effort: one that cannot be removed stays for the next time.
 */
export function removeStaleTempDirs(dir = tmpdir(), olderThanMs = STALE_MS): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const pid = Number(OURS.exec(entry)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    const folder = path.join(dir, entry);
    try {
      const info = statSync(folder);
      if (!info.isDirectory() || Date.now() - info.mtimeMs < olderThanMs) continue;
      rmSync(folder, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Removed meanwhile, or not ours to remove.
    }
  }
  return removed;
}

/** A fresh directory under the system temp directory, named `docs-<purpose>-<pid>-…`. */
export function makeTempDir(purpose: string): Promise<string> {
  // Once per process: the first temp folder of a run sweeps what killed runs left.
  if (!swept) {
    swept = true;
    removeStaleTempDirs();
  }
  return mkdtemp(path.join(tmpdir(), `docs-${purpose}-${process.pid}-`));
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
