import { link, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';
import { isAbandonedLock, partialName } from './partial-files.js';

/** How long an install waits for another one of the same library before giving up: far longer than a rename. */
const WAIT_MS = 30_000;
const RETRY_MS = 10;

/**
 * Runs `work` holding the store's lock on a library name, whatever its case: `.<name in lower case>.lock`, made
 * holding the holder's pid from the moment it exists. Installing checks that no other spelling of the name is installed
 * and then renames the package in; two installs of `casetest` and `CaseTest` at the same moment (in two
 * processes or one) would otherwise both pass the check before either renamed. A lock whose process is gone
 * (killed) is taken over.
 */
export async function withNameLock<T>(dir: string, name: string, work: () => Promise<T>): Promise<T> {
  const lock = lockPath(dir, name);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (await tryLock(lock, name, dir)) break;
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
    // A lock holding no pid (0) was made by O_EXCL (no hard links, or an older docs) and not written yet: its maker
    // runs, unless it has held none for long (killed in between).
    const modified = holder === 0 ? (await stat(lock).catch(() => undefined))?.mtimeMs : undefined;
    if (isAbandonedLock(holder, () => modified)) {
      await takeOver(lock, holder);
      continue;
    }
    if (Date.now() > deadline) {
      throw new StoreError(
        'io',
        `another docs (pid ${holder || 'unknown'}) has been installing ${name} for ${WAIT_MS / 1000} s; try again, or remove ${lock} if no docs runs`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The lock file of `name` in `dir`, whatever the name's case. */
function lockPath(dir: string, name: string): string {
  return path.join(dir, `.${name.toLowerCase().replace('/', '+')}.lock`);
}

/**
 * The build lock of a library: held by whoever builds a package of it for the store (a server following its project),
 * so two builders of one store never build the same library at once. `@` cannot be in a library name, so it never
 * meets the name lock of an install. Abandoned (its holder gone) it is taken over, and swept like the name locks.
 */
function buildLockName(name: string): string {
  return `${name}@build`;
}

/**
 * Takes the build lock of library `name` in store `dir` when no live process holds it: resolves with its release, or
 * undefined when another process builds the library now. Never waits.
 *
 * @example
 * const release = await tryBuildLock(store.dir, 'dayjs');
 * if (release) try { await build(); } finally { await release(); }
 */
export async function tryBuildLock(dir: string, name: string): Promise<(() => Promise<void>) | undefined> {
  const key = buildLockName(name);
  const lock = lockPath(dir, key);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await tryLock(lock, key, dir)) return () => rm(lock, { force: true });
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
    const modified = holder === 0 ? (await stat(lock).catch(() => undefined))?.mtimeMs : undefined;
    if (!isAbandonedLock(holder, () => modified)) return undefined;
    await takeOver(lock, holder);
  }
  return undefined;
}

/** Whether a live process holds the build lock of library `name` in store `dir` (see tryBuildLock): one stat, one read. */
export async function isBeingBuilt(dir: string, name: string): Promise<boolean> {
  const lock = lockPath(dir, buildLockName(name));
  const holder = Number(await readFile(lock, 'utf8').catch(() => 'none'));
  if (Number.isNaN(holder)) return false;
  const modified = holder === 0 ? (await stat(lock).catch(() => undefined))?.mtimeMs : undefined;
  return !isAbandonedLock(holder, () => modified);
}

/**
 * Makes `lock` holding this process's pid, or returns false when another holds it. The pid is written to a partial
 * file first and the lock made by a hard link to it, which fails if the lock exists: a lock made empty and then
 * written could be killed between the two, and stand empty until its age says it is abandoned (seen in CI: a
 * `docs add` killed there left a lock the next `docs list` had to keep). A partial file left by a kill is swept by
 * its dead pid. Where the file system has no hard links, the lock is made with O_EXCL and then written.
 */
async function tryLock(lock: string, name: string, dir: string): Promise<boolean> {
  const failed = (error: unknown) =>
    new StoreError('io', `cannot lock ${name} in ${dir}: ${(error as Error).message}`, { cause: error });
  const written = path.join(dir, partialName(path.basename(lock)));
  try {
    await writeFile(written, String(process.pid), { flag: 'wx' });
  } catch (error) {
    throw failed(error);
  }
  try {
    await link(written, lock);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw failed(error);
  } finally {
    await rm(written, { force: true });
  }
  try {
    const handle = await open(lock, 'wx');
    try {
      await handle.writeFile(String(process.pid));
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw failed(error);
  }
}

/**
 * Moves aside the lock of a dead process. Renamed, not removed, so of two waiters taking it over at once only one
 * moves it; one that finds it moved a live lock instead (taken in between) puts it back unless another is there.
 */
async function takeOver(lock: string, deadHolder: number): Promise<void> {
  const aside = `${lock}.${process.pid}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  const holder = Number(await readFile(aside, 'utf8').catch(() => ''));
  if (holder !== deadHolder) await link(aside, lock).catch(() => undefined);
  await rm(aside, { force: true });
}
