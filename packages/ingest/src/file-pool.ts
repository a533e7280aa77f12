import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocFile } from '@docs/sources';
import { type FileOptions, type ProcessedFile, processFile } from './process-file.js';
import type { FileTask } from './process-worker.js';

// Below this many files a build is over before workers would have started.
const MIN_FILES_FOR_WORKERS = 40;

/**
 * Worker threads shared by every build of the process: each loads the parser
 * and the tokenizer once (a few hundred milliseconds), not once per build.
 * An idle pool never keeps the process alive.
 */
class FilePool {
  readonly size: number;
  readonly #workers: Worker[];
  readonly #waiting = new Map<number, { resolve: (r: ProcessedFile) => void; reject: (e: Error) => void }>();
  #nextId = 0;

  constructor(script: string, size: number) {
    this.size = size;
    this.#workers = Array.from({ length: size }, () => {
      // Workers inherit the parent's Node flags; --input-type (from `node -e`) would stop a file worker starting.
      const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
      const worker = new Worker(script, { execArgv });
      worker.on('message', (message: { id: number; result?: ProcessedFile; error?: string }) => {
        const entry = this.#waiting.get(message.id);
        this.#waiting.delete(message.id);
        this.#refWhileBusy();
        if (message.error !== undefined || !message.result) entry?.reject(new Error(message.error ?? 'no result'));
        else entry?.resolve(message.result);
      });
      worker.on('error', (error) => {
        for (const entry of this.#waiting.values()) entry.reject(error);
        this.#waiting.clear();
        this.#refWhileBusy();
        if (pool === this) pool = undefined;
      });
      return worker;
    });
    this.#refWhileBusy();
  }

  /**
   * Workers hold the process open only while answers are awaited: an idle
   * pool must not keep a finished command running, and a busy one must keep
   * the event loop alive until its answers arrive.
   */
  #refWhileBusy(): void {
    const busy = this.#waiting.size > 0;
    for (const worker of this.#workers) {
      if (busy) worker.ref();
      else worker.unref();
    }
  }

  run(file: DocFile, options: FileOptions): Promise<ProcessedFile> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      if (this.#waiting.size === 1) this.#refWhileBusy();
      const task: FileTask = { id, absolutePath: file.absolutePath, relativePath: file.relativePath, options };
      (this.#workers[id % this.size] as Worker).postMessage(task);
    });
  }
}

let pool: FilePool | undefined;

/**
 * Processes files and yields the results in file order, so a build is the
 * same whatever finishes first. Files go to the shared worker pool, except
 * with `workers: 0`, few files, or no compiled worker next to this module
 * (running from TypeScript sources): then they are processed on this thread.
 */
export async function* processFiles(
  files: readonly DocFile[],
  options: FileOptions & { readonly workers?: number; readonly signal?: AbortSignal },
): AsyncGenerator<{ file: DocFile; result: ProcessedFile }> {
  const { workers, signal, ...fileOptions } = options;
  const size = workers ?? Math.max(1, availableParallelism());
  const script = fileURLToPath(new URL('./process-worker.js', import.meta.url));
  if (size < 1 || files.length < MIN_FILES_FOR_WORKERS || !existsSync(script)) {
    for (const file of files) {
      signal?.throwIfAborted();
      yield { file, result: await processFile(file.absolutePath, file.relativePath, fileOptions) };
    }
    return;
  }
  if (pool?.size !== size) pool = new FilePool(script, size);
  const shared = pool;
  // A few files ahead per worker keeps every thread busy while order is kept.
  const ahead = size * 4;
  const inFlight = new Map<number, Promise<ProcessedFile>>();
  try {
    for (let next = 0; next < files.length; next++) {
      signal?.throwIfAborted();
      for (let i = next; i < Math.min(files.length, next + ahead); i++) {
        if (!inFlight.has(i)) inFlight.set(i, shared.run(files[i] as DocFile, fileOptions));
      }
      const result = await (inFlight.get(next) as Promise<ProcessedFile>);
      inFlight.delete(next);
      yield { file: files[next] as DocFile, result };
    }
  } finally {
    // An interrupted build drops the answers still in flight; the pool stays for the next build.
    for (const pending of inFlight.values()) pending.catch(() => {});
  }
}
