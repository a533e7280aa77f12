import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocFile } from '@docs/sources';
import { type FileOptions, type ProcessedFile, processFile } from './process-file.js';
import type { FileTask } from './process-worker.js';

// A build starts worker threads only when each would parse enough to repay its start: a worker builds its own
// tokenizer tables and loads the parser (~0.35 s of CPU and ~50–70 MB each), while one thread parses ~1.5 MB of
// documentation a second. So a process starts one worker per 2 MiB of source it is to parse or has parsed (a sync of
// many libraries), up to the cores, and none (this thread) below two: the 12 corpus libraries (0.2–1.4 MB), each
// `docs add` in a process of its own, took 21.3 s of CPU and peaked at 274 MB with two workers each, 15.4 s / 222 MB
// with one, 14.5 s / 194 MB on one thread (docs/benchmarks.md). Once a pool runs, every later build of the process
// uses it: its start is paid.
const MIN_FILES_FOR_WORKERS = 40;
const BYTES_PER_WORKER = 2 * 1024 * 1024;
// A file worker's young generation, at most: half of V8's own ceiling here (3 × 16 MB semi-spaces), which it grows
// towards for throughput, while a worker's garbage is one file's tokens and sections, short-lived. Measured on the 12
// corpus libraries, each `docs add` interleaved three times: the largest build's peak RSS 303 → 280 MB, the pooled
// builds 12–29 MB less each, CPU 92.7 → 93.5 s in all (noise); 8 MB cost about a tenth more CPU (docs/benchmarks.md).
const WORKER_YOUNG_GENERATION_MB = 24;

/** Answers waited for, per task id. */
interface Pending {
  readonly resolve: (result: ProcessedFile) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Worker threads shared by every build of the process: each loads the parser
 * and the tokenizer once (a few hundred milliseconds), not once per build.
 * A task goes to a worker when it is free, not to a worker chosen in advance:
 * one big file then holds up one thread, not every task queued behind it.
 * An idle pool never keeps the process alive.
 */
class FilePool {
  readonly size: number;
  readonly #workers: Worker[];
  readonly #idle: Worker[] = [];
  readonly #queue: FileTask[] = [];
  readonly #waiting = new Map<number, Pending>();
  #nextId = 0;

  constructor(script: string, size: number) {
    this.size = size;
    this.#workers = Array.from({ length: size }, () => {
      // Workers inherit the parent's Node flags; --input-type (from `node -e`) would stop a file worker starting.
      const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
      const worker = new Worker(script, {
        execArgv,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      worker.on('message', (message: { id: number; result?: ProcessedFile; error?: string }) => {
        const entry = this.#waiting.get(message.id);
        this.#waiting.delete(message.id);
        this.#dispatch(worker);
        this.#refWhileBusy();
        if (message.error !== undefined || !message.result) entry?.reject(new Error(message.error ?? 'no result'));
        else entry?.resolve(message.result);
      });
      worker.on('error', (error) => {
        for (const entry of this.#waiting.values()) entry.reject(error);
        this.#waiting.clear();
        this.#queue.length = 0;
        this.#refWhileBusy();
        if (pool === this) pool = undefined;
      });
      this.#idle.push(worker);
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

  /** Gives `worker` (just free) the next queued task, or marks it idle. */
  #dispatch(worker: Worker): void {
    const task = this.#queue.shift();
    if (task) worker.postMessage(task);
    else this.#idle.push(worker);
  }

  run(file: DocFile, options: FileOptions): Promise<ProcessedFile> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      if (this.#waiting.size === 1) this.#refWhileBusy();
      const task: FileTask = { id, absolutePath: file.absolutePath, relativePath: file.relativePath, options };
      const worker = this.#idle.pop();
      if (worker) worker.postMessage(task);
      else this.#queue.push(task);
    });
  }
}

let pool: FilePool | undefined;
/** Source bytes this process has parsed on its calling thread: a process that builds many libraries (`docs sync`)
 * starts its pool once they add up, as one large build would. */
let parsedHere = 0;

/**
 * Processes files and yields the results in file order, so a build is the
 * same whatever finishes first. Files go to the process's worker pool when
 * one runs, or when `workers` asks for one, or when the build is large enough
 * to start one (`poolSize`); else (and with `workers: 0`, or no compiled
 * worker next to this module, running from TypeScript sources) they are
 * processed on this thread.
 */
export async function* processFiles(
  files: readonly DocFile[],
  options: FileOptions & { readonly workers?: number; readonly signal?: AbortSignal },
): AsyncGenerator<{ file: DocFile; result: ProcessedFile }> {
  const { workers, signal, ...fileOptions } = options;
  const script = fileURLToPath(new URL('./process-worker.js', import.meta.url));
  const sizes = workers === 0 || files.length < MIN_FILES_FOR_WORKERS ? [] : fileSizes(files);
  const size = workers ?? poolSize(sizes, parsedHere);
  // An explicit size is honoured (a pool of another size is started); otherwise a running pool is used as it is.
  const poolReady = pool !== undefined && (workers === undefined || pool.size === workers);
  if ((size < 1 && !poolReady) || workers === 0 || !existsSync(script)) {
    let turn = performance.now();
    for (const file of files) {
      // Parsing here runs without a pause: the event loop gets a turn every 50 ms, so a Ctrl-C (the signal's abort)
      // and a progress line are seen mid-build, as they are while workers parse.
      if (performance.now() - turn > 50) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
      signal?.throwIfAborted();
      const result = await processFile(file.absolutePath, file.relativePath, fileOptions);
      parsedHere += result.bytes;
      yield { file, result };
    }
    return;
  }
  if (!poolReady) pool = new FilePool(script, size);
  const shared = pool as FilePool;
  const order = dispatchOrder(sizes.length === files.length ? sizes : fileSizes(files), shared.size);
  // A few files ahead per worker keeps every thread busy while order is kept.
  const ahead = shared.size * 4;
  const inFlight = new Map<number, Promise<ProcessedFile>>();
  let dispatched = 0;
  try {
    for (let next = 0; next < files.length; next++) {
      signal?.throwIfAborted();
      // Up to `ahead` files past the one awaited, plus the big ones sent early (which run first, see dispatchOrder).
      while (dispatched < order.length && ((order[dispatched] as number) < next + ahead || inFlight.size < ahead)) {
        const index = order[dispatched++] as number;
        inFlight.set(index, shared.run(files[index] as DocFile, fileOptions));
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

/**
 * The workers a build starts when the process has none: one per `BYTES_PER_WORKER` of its source and of what the
 * process parsed before on its own thread (`parsedBefore`), at most one per core, and none (the calling thread
 * parses) below two, or with fewer than `MIN_FILES_FOR_WORKERS` files (`sizes` is then empty).
 */
function poolSize(sizes: readonly number[], parsedBefore: number): number {
  if (sizes.length === 0) return 0;
  const bytes = sizes.reduce((sum, size) => sum + size, parsedBefore);
  const size = Math.min(availableParallelism(), Math.floor(bytes / BYTES_PER_WORKER));
  return size < 2 ? 0 : size;
}

/**
 * The order files are sent to the workers in: file order, except that a file
 * large enough to be the last one running goes first. Sent in file order, a
 * file holding a large share of the build (a 700 KB changelog among 150
 * pages) starts late and runs alone at the end while the other threads idle;
 * sent first, the other threads work through the rest meanwhile. Its answer
 * waits for its turn, so only these few are held out of order.
 */
function dispatchOrder(sizes: readonly number[], workers: number): number[] {
  const total = sizes.reduce((sum, bytes) => sum + bytes, 0);
  // A file that is more than its share of one thread's work in a quarter of the build.
  const large = total / (workers * 4);
  const big = sizes.map((_, i) => i).filter((i) => (sizes[i] as number) > large);
  big.sort((a, b) => (sizes[b] as number) - (sizes[a] as number));
  const early = new Set(big);
  return [...big, ...sizes.map((_, i) => i).filter((i) => !early.has(i))];
}

/** Each file's size in bytes; 0 for one that cannot be read (its worker reports it). */
function fileSizes(files: readonly DocFile[]): number[] {
  return files.map((file) => {
    try {
      return statSync(file.absolutePath).size;
    } catch {
      return 0;
    }
  });
}
