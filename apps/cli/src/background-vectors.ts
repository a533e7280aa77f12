import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { type InstalledPackage, type PackageStore, readVectorWork } from '@docs/store';
import { terminalQuestion } from './config/apply.js';
import { loadConfig } from './config/load.js';
import { thisDocs } from './follow/start.js';
import type { GlobalOptions } from './options.js';

/** Where the worker's output goes: a dot file in the store, beside its status (`.vectors-worker.json`). */
export const WORKER_LOG = '.vectors-worker.log';

/** What `docs add` / `docs sync` did about vectors once their packages were installed. */
export type BackgroundVectors =
  /** A worker was started, or one already running takes the new packages too. */
  | { readonly embedder: string; readonly worker: 'started' | 'running'; readonly pid: number | undefined }
  /** Nothing to do, or not allowed, and why (said only when an embedder is configured). */
  | { readonly embedder: string; readonly skipped: string };

/**
 * The packages a background worker embeds: the highest version of each library (as `docs embed --all` takes them)
 * holding no vectors at all. A package that carries vectors (a shared one, or one embedded by another model) is used
 * as it is; `docs embed` replaces them when asked. `skip` names package files the worker gave up on.
 */
export async function packagesWithoutVectors(
  store: PackageStore,
  skip: ReadonlySet<string> = new Set(),
): Promise<InstalledPackage[]> {
  const seen = new Set<string>();
  const latest = (await store.list()).filter((p) => !seen.has(p.name) && seen.add(p.name));
  const pending: InstalledPackage[] = [];
  for (const pkg of latest) {
    if (skip.has(path.basename(pkg.file))) continue;
    try {
      if ((await store.reader(pkg).embedder()) === undefined) pending.push(pkg);
    } catch {
      // A package that cannot be read is not the worker's to fix: docs list says what is wrong with it.
    }
  }
  return pending;
}

/**
 * After `docs add` or `docs sync` installed packages: when an embedder is configured (`$DOCS_EMBED` or the config's
 * `embedder`) and not opted out (`--no-embed`, or the config's `backgroundVectors: false`), starts the store's vector
 * worker (`docs embed --worker`) as a detached process that outlives this command, unless one runs already (it looks
 * for new packages before it ends). Searches answer lexically until a package's vectors are all made, and say so.
 * Returns undefined when no embedder is configured.
 */
export async function startBackgroundVectors(
  store: PackageStore,
  globals: GlobalOptions,
  optedOut: boolean,
): Promise<BackgroundVectors | undefined> {
  if (optedOut) return undefined;
  const config = await loadConfig({ ...terminalQuestion(), warn: (line) => process.stderr.write(`docs: ${line}\n`) });
  const embedder = await config.get('embedder');
  if (embedder === undefined) return undefined;
  if ((await config.get('backgroundVectors')) === false) {
    return { embedder, skipped: 'backgroundVectors is false in the config: run docs embed --all to add vectors' };
  }
  if (globals.homeFromProject) {
    // As for a server following its project (follow/start.ts): a store that came with the project is not docs' to
    // write to on its own.
    return { embedder, skipped: "the store comes with the project's config: run docs embed --all to add vectors" };
  }
  if ((await packagesWithoutVectors(store)).length === 0) return { embedder, skipped: 'every package has vectors' };
  const running = await readVectorWork(store.dir);
  if (running?.running) return { embedder, worker: 'running', pid: running.pid };
  const docs = thisDocs();
  const log = await open(path.join(store.dir, WORKER_LOG), 'a');
  try {
    const child = spawn(
      docs.command,
      [...docs.args, 'embed', '--worker', '--embed', embedder, '--home', store.dir],
      // Detached with no terminal: it lives on after this command, and Ctrl-C in the shell does not reach it.
      { detached: true, stdio: ['ignore', log.fd, log.fd], windowsHide: true },
    );
    child.unref();
    return { embedder, worker: 'started', pid: child.pid };
  } finally {
    await log.close();
  }
}

/** One line for the text output of add and sync. */
export function describeBackgroundVectors(vectors: BackgroundVectors): string {
  if ('skipped' in vectors)
    return `  vectors: none made in the background with ${vectors.embedder}: ${vectors.skipped}`;
  return (
    `  vectors: being made in the background with ${vectors.embedder}` +
    `${vectors.worker === 'running' ? ' by the worker already running' : ''}` +
    ` (pid ${vectors.pid ?? 'unknown'}); answers are lexical until they are done, and say so`
  );
}
