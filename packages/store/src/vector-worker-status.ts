import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tryBuildLock } from './name-lock.js';
import { isRunning, partialName } from './partial-files.js';

/**
 * What the store's background vector worker (`docs embed --worker`, started by `docs add` and `docs sync` when an
 * embedder is configured) is doing, for a search to say why a library still answers lexically. Package files are
 * named by their base name in the store folder.
 */
export interface VectorWork {
  /** The worker's process id. */
  readonly pid: number;
  /** Whether that process still runs (read, not stored). */
  readonly running: boolean;
  /** The id of the embedder making the vectors. */
  readonly embedder: string;
  /** The package being embedded now, and how far it has got. */
  readonly current?: { readonly file: string; readonly done: number; readonly total: number } | undefined;
  /** Packages waiting their turn, in order. */
  readonly waiting: readonly string[];
  /** Packages whose vectors could not be made, and why. */
  readonly failed: readonly { readonly file: string; readonly error: string }[];
}

/** The status file: a dot file, so no listing of packages sees it. */
const STATUS_FILE = '.vectors-worker.json';

/** The worker lock's name: no library is called `@vectors` (a scope needs a name after it), so it meets no build lock. */
const WORKER_LOCK = '@vectors';

/**
 * Takes the store's vector worker lock when no live process holds it: one worker per store, so two `docs add` in a
 * row never run two workers over the same packages' work files. Resolves with its release, or undefined when another
 * worker runs. Never waits; a lock whose process is gone is taken over.
 */
export function tryVectorWorkerLock(dir: string): Promise<(() => Promise<void>) | undefined> {
  return tryBuildLock(dir, WORKER_LOCK);
}

/** Writes the worker's status in one rename, so a reader sees the last status or the one before, never half of one. */
export async function writeVectorWork(dir: string, work: Omit<VectorWork, 'running'>): Promise<void> {
  const file = path.join(dir, STATUS_FILE);
  const partial = path.join(dir, partialName(STATUS_FILE));
  await writeFile(partial, JSON.stringify(work));
  await rename(partial, file);
}

/** Removes the status: the worker ended with nothing to tell. */
export async function clearVectorWork(dir: string): Promise<void> {
  await rm(path.join(dir, STATUS_FILE), { force: true });
}

/**
 * The last status the store's vector worker wrote, or undefined when there is none (no worker ever ran, or it ended
 * with every vector made). A file that does not parse as one (written by hand, another version) counts as none: it
 * only ever adds a note to an answer.
 */
export async function readVectorWork(dir: string): Promise<VectorWork | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, STATUS_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return parseWork(value);
}

function parseWork(value: unknown): VectorWork | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Number.isSafeInteger(v.pid) || typeof v.embedder !== 'string') return undefined;
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  const c = v.current as Record<string, unknown> | undefined;
  const current =
    c && typeof c.file === 'string' && Number.isSafeInteger(c.done) && Number.isSafeInteger(c.total)
      ? { file: c.file, done: c.done as number, total: c.total as number }
      : undefined;
  const failed = (Array.isArray(v.failed) ? v.failed : []).flatMap((f: unknown) => {
    const entry = f as Record<string, unknown> | null;
    return entry && typeof entry.file === 'string' && typeof entry.error === 'string'
      ? [{ file: entry.file, error: entry.error }]
      : [];
  });
  const pid = v.pid as number;
  return { pid, running: isRunning(pid), embedder: v.embedder, current, waiting: strings(v.waiting), failed };
}

/**
 * What the status says of one package file (by its path or base name): being embedded (with the share done),
 * waiting, failed (with why), or nothing. A worker that is gone (killed) is neither embedding nor about to.
 */
export function vectorWorkOf(
  work: VectorWork | undefined,
  file: string,
):
  | { readonly state: 'embedding'; readonly embedder: string; readonly done: number; readonly total: number }
  | { readonly state: 'waiting'; readonly embedder: string }
  | { readonly state: 'failed'; readonly embedder: string; readonly error: string }
  | undefined {
  if (!work) return undefined;
  const name = path.basename(file);
  const failed = work.failed.find((f) => f.file === name);
  if (failed) return { state: 'failed', embedder: work.embedder, error: failed.error };
  if (!work.running) return undefined;
  if (work.current?.file === name) {
    return { state: 'embedding', embedder: work.embedder, done: work.current.done, total: work.current.total };
  }
  return work.waiting.includes(name) ? { state: 'waiting', embedder: work.embedder } : undefined;
}
