import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';

// A file being built or installed is named `.<anything>.<pid>-<random>.partial`, and SQLite may add
// `-journal`, `-wal` or `-shm` to it. The pid says whether its writer still runs.
const PARTIAL = /^\..*?\.(\d+)-[0-9a-f]{12}\.partial(?:-journal|-wal|-shm)?$/;
// Partial names of docs versions that did not record the pid: only their age tells.
const UNTAGGED_PARTIAL = /^\..*\.partial(?:-journal|-wal|-shm)?$/;
const UNTAGGED_STALE_MS = 24 * 60 * 60 * 1000;

/** SQLite's side files of a database; a package file in the store has none. */
const SIDE_SUFFIXES = ['-journal', '-wal', '-shm'] as const;

/** `<pid>-<random>`: unique to this write, and naming the process that makes it. */
export function partialTag(): string {
  // Asked for here, not imported: a search, which writes nothing, then never loads node:crypto (~2.5 ms at start).
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * `.<file>.<pid>-<random>.partial` for a file being written as `file`. Only the first 100 characters of `file`
 * are kept: they say what is being built, and a package file name of the longest allowed length with the tag
 * (and SQLite's `-journal`) would not fit in a file name.
 */
export function partialName(file: string): string {
  return `.${file.slice(0, 100)}.${partialTag()}.partial`;
}

/** Whether process `pid` runs (as any user). */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A name lock (name-lock.ts) is `.<name>.lock` holding its holder's pid; one moved aside to be taken over ends in
// `.<pid>.stale`.
const NAME_LOCK = /^\..+\.lock$/;
const STALE_LOCK = /^\..+\.lock\.(\d+)\.stale$/;
/**
 * A name lock still without a pid this long after it was made was left by a process killed between making it and
 * writing its pid (microseconds apart): no live maker leaves one that long.
 */
const EMPTY_LOCK_STALE_MS = 10_000;

/**
 * Whether a name lock holding `pid` (0: its maker has not written its pid yet) was abandoned: its holder is gone, or
 * it has held no pid for {@link EMPTY_LOCK_STALE_MS} since `modifiedMs` (undefined: unknown, so not abandoned).
 */
export function isAbandonedLock(pid: number, modifiedMs: () => number | undefined): boolean {
  if (!Number.isInteger(pid) || pid < 0) return false;
  if (pid > 0) return !isRunning(pid);
  const modified = modifiedMs();
  return modified !== undefined && Date.now() - modified > EMPTY_LOCK_STALE_MS;
}

/** Whether a directory entry is a name lock or one moved aside: the sweep looks at them as at partial files. */
export function isLockFile(entry: string): boolean {
  return NAME_LOCK.test(entry) || STALE_LOCK.test(entry);
}

/** True for a partial file (or its side file) or a name lock whose writer is gone. */
export function isLeftover(
  entry: string,
  mtimeMs: () => number | undefined,
  holder: () => number | undefined = () => undefined,
): boolean {
  const stale = STALE_LOCK.exec(entry);
  if (stale) return !isRunning(Number(stale[1]));
  if (NAME_LOCK.test(entry)) {
    const pid = holder();
    return pid !== undefined && isAbandonedLock(pid, mtimeMs);
  }
  const tagged = PARTIAL.exec(entry);
  if (tagged) return !isRunning(Number(tagged[1]));
  if (!UNTAGGED_PARTIAL.test(entry)) return false;
  const modified = mtimeMs();
  return modified !== undefined && Date.now() - modified > UNTAGGED_STALE_MS;
}

/**
 * Removes the partial files of builds and installs whose process is gone
 * (killed, crashed), with their SQLite side files, and their name locks. Best effort: a store that
 * cannot be written (read-only media) keeps them, and nothing fails for it.
 * Synchronous: a directory listing costs microseconds and this runs before a
 * build starts and after installs and removals, never per search.
 */
export function removeLeftoversSync(dir: string): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.startsWith('.')) continue;
    const file = path.join(dir, entry);
    const mtime = () => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    };
    const holder = () => {
      try {
        const pid = Number(readFileSync(file, 'utf8'));
        return Number.isInteger(pid) ? pid : undefined;
      } catch {
        return undefined;
      }
    };
    if (!isLeftover(entry, mtime, holder)) continue;
    try {
      rmSync(file, { force: true });
      removed += 1;
    } catch {
      // Read-only or busy: the next operation tries again.
    }
  }
  return removed;
}

/** Removes `file`'s SQLite side files, if any. */
export async function removeSideFiles(file: string): Promise<void> {
  await Promise.all(SIDE_SUFFIXES.map((suffix) => rm(`${file}${suffix}`, { force: true })));
}

/** Removes `file` and its SQLite side files. */
export async function removeWithSideFiles(file: string): Promise<void> {
  await rm(file, { force: true });
  await removeSideFiles(file);
}

/**
 * Refuses a package file whose `-wal` holds changes not yet in the file: they
 * would be lost by copying the file alone, and a program may still be writing it.
 */
export async function assertNoPendingWal(file: string): Promise<void> {
  const wal = await stat(`${file}-wal`).catch(() => undefined);
  if (wal && wal.size > 0) {
    throw new StoreError(
      'invalid-package',
      `${file} has changes not yet written into it (${path.basename(file)}-wal beside it): close the program writing it, or run sqlite3 ${JSON.stringify(file)} "PRAGMA wal_checkpoint(TRUNCATE)", then add it again`,
    );
  }
}
