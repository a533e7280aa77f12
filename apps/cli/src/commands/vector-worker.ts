import path from 'node:path';
import type { Embedder } from '@docs/embed';
import {
  clearVectorWork,
  formatPackageId,
  type InstalledPackage,
  type PackageStore,
  tryVectorWorkerLock,
  type VectorWork,
  writeVectorWork,
} from '@docs/store';
import { packagesWithoutVectors } from '../background-vectors.js';
import { openStore } from '../context.js';
import type { GlobalOptions } from '../options.js';

/** Attempts at one package file before the worker leaves it (a package replaced mid-way is tried again once). */
const ATTEMPTS = 2;

/** The status is written at most this often while a package is embedded: a search reads it, a crash loses nothing. */
const STATUS_EVERY_MS = 1000;

/**
 * `docs embed --worker --embed <spec>`: the store's background vector worker, started detached by `docs add` and
 * `docs sync` (background-vectors.ts). Holding the store's worker lock (one worker per store), it embeds, one after
 * the other, every package that has no vectors (the highest version of each library) with `embedPackage`, the path of
 * `docs embed`: each batch is committed to the package's work file, and the package is replaced whole once all its
 * vectors are made, so a kill loses at most a batch and the next worker carries on. It writes what it does to the
 * store's `.vectors-worker.json` for searches to say, and ends when no package is left; before ending it looks once
 * more, for a package installed while it let go of the lock, whose `docs add` found it running and started none.
 */
export async function vectorWorker(spec: string, globals: GlobalOptions): Promise<void> {
  const store = openStore(globals);
  const state: WorkerState = { embedder: undefined, attempts: new Map(), failed: [] };
  try {
    for (;;) {
      const release = await tryVectorWorkerLock(store.dir);
      // Another worker runs: it looks for new packages before it ends.
      if (!release) return;
      try {
        await embedWhatIsMissing(store, spec, state);
      } finally {
        await release();
      }
      if ((await packagesWithoutVectors(store, given(state))).length === 0) return;
    }
  } finally {
    await state.embedder?.close();
    await store.close();
  }
}

interface WorkerState {
  embedder: Embedder | undefined;
  /** Package file name → attempts made. */
  readonly attempts: Map<string, number>;
  readonly failed: { file: string; error: string }[];
}

/** Package files the worker will not try again. */
function given(state: WorkerState): Set<string> {
  return new Set(state.failed.map((f) => f.file));
}

async function embedWhatIsMissing(store: PackageStore, spec: string, state: WorkerState): Promise<void> {
  const status = (fields: Pick<VectorWork, 'current' | 'waiting'>) =>
    writeVectorWork(store.dir, {
      pid: process.pid,
      embedder: state.embedder?.id ?? spec,
      failed: state.failed,
      ...fields,
    });
  for (;;) {
    const todo = await packagesWithoutVectors(store, given(state));
    const [pkg, ...rest] = todo;
    if (!pkg) break;
    const file = path.basename(pkg.file);
    const waiting = rest.map((p) => path.basename(p.file));
    await status({ current: { file, done: 0, total: 0 }, waiting });
    if (!state.embedder) {
      try {
        const { openEmbedder } = await import('@docs/embed');
        state.embedder = await openEmbedder(spec);
      } catch (error) {
        // No model, no vectors for any of them: each says why, and `docs embed` is how to try again.
        const reason = (error as Error).message ?? String(error);
        for (const p of todo) state.failed.push({ file: path.basename(p.file), error: reason });
        log(`cannot open the embedder ${spec}: ${reason}`);
        break;
      }
    }
    await embedOne(store, pkg, state.embedder, state, (done, total) =>
      status({ current: { file, done, total }, waiting }),
    );
  }
  if (state.failed.length === 0) await clearVectorWork(store.dir);
  else await status({ current: undefined, waiting: [] });
}

async function embedOne(
  store: PackageStore,
  pkg: InstalledPackage,
  embedder: Embedder,
  state: WorkerState,
  progress: (done: number, total: number) => Promise<void>,
): Promise<void> {
  const { embedPackage } = await import('@docs/ingest');
  const file = path.basename(pkg.file);
  const label = formatPackageId(pkg);
  let written = 0;
  let writing: Promise<void> = Promise.resolve();
  try {
    const summary = await embedPackage(store, pkg, embedder, {
      onProgress: (p) => {
        const now = Date.now();
        if (now - written < STATUS_EVERY_MS && p.done !== p.total) return;
        written = now;
        // One write at a time, in order: the file always holds the latest that finished.
        writing = writing.then(() => progress(p.done, p.total)).catch(() => {});
      },
    });
    await writing;
    log(
      `${label}: ${summary.total} sections with ${summary.embedder} in ${(summary.elapsedMs / 1000).toFixed(1)} s` +
        (summary.resumed > 0 ? `, carrying on from ${summary.resumed}` : ''),
    );
  } catch (error) {
    await writing;
    const reason = (error as Error).message ?? String(error);
    const attempts = (state.attempts.get(file) ?? 0) + 1;
    state.attempts.set(file, attempts);
    log(`${label} failed (attempt ${attempts} of ${ATTEMPTS}): ${reason}`);
    if (attempts >= ATTEMPTS) state.failed.push({ file, error: reason });
  }
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} docs embed --worker (pid ${process.pid}): ${line}\n`);
}
