import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';
import { isAbandonedLock } from './partial-files.js';

/** How long an install waits for another one of the same library before giving up: far longer than a rename. */
const WAIT_MS = 30_000;
const RETRY_MS = 10;

/**
 * Runs `work` holding the store's lock on a library name, whatever its case: `.<name in lower case>.lock`, made
 * with O_EXCL and holding the holder's pid. Installing checks that no other spelling of the name is installed
 * and then renames the package in; two installs of `casetest` and `CaseTest` at the same moment (in two
 * processes or one) would otherwise both pass the check before either renamed. A lock whose process is gone
 * (killed) is taken over.
 */
export async function withNameLock<T>(dir: string, name: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, `.${name.toLowerCase().replace('/', '+')}.lock`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreError('io', `cannot lock ${name} in ${dir}: ${(error as Error).message}`, { cause: error });
      }
    }
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
    // A lock just made holds no pid yet (0): its maker runs, unless it has held none for long (killed in between).
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
