import { Worker } from 'node:worker_threads';
import type { ModelSpecs } from '@docs/search';
import type { HttpAnswer } from './api.js';
import type { HandlerOptions, RequestHandler } from './handler-contract.js';

/** What a worker is started with: plain data, as a thread receives it. */
export interface WorkerSetup extends Omit<HandlerOptions, 'models' | 'log'> {
  /** The models to open in the worker, from the specs the main thread's were opened from. */
  readonly models?: ModelSpecs;
}

export type WorkerRequest =
  | { readonly kind: 'mcp'; readonly id: number; readonly message: unknown; readonly headers: Record<string, string> }
  | { readonly kind: 'api'; readonly id: number; readonly method: string; readonly url: string }
  | { readonly kind: 'close' };

export type WorkerReply =
  | { readonly ready: true }
  | { readonly log: string }
  | { readonly id: number; readonly answer: HttpAnswer }
  | { readonly id: number; readonly error: string };

interface Waiting {
  resolve(answer: HttpAnswer): void;
  reject(error: Error): void;
}

/** One worker thread and the requests it has not answered yet. */
interface Slot {
  worker: Worker;
  readonly waiting: Map<number, Waiting>;
}

/**
 * Worker threads answering MCP and API requests (request-worker.ts), so `docs serve --http` searches on every
 * core: one Node thread answering 20 clients queues each request behind the others. A request goes to the worker
 * with the fewest requests in flight, except that every MCP request of one session (its `Mcp-Session-Id`) goes to
 * the same worker, which holds what that session was sent (see localHandler). A worker that fails fails only the
 * requests it held and is replaced; its sessions are then answered in full again.
 */
export class WorkerPool implements RequestHandler {
  readonly #script: string;
  readonly #setup: WorkerSetup;
  readonly #log: ((line: string) => void) | undefined;
  readonly #slots: Slot[] = [];
  #nextId = 0;
  #closing: Promise<void> | undefined;

  private constructor(script: string, setup: WorkerSetup, log: ((line: string) => void) | undefined) {
    this.#script = script;
    this.#setup = setup;
    this.#log = log;
  }

  /** Starts `size` workers and waits until each is ready, so a worker that cannot start fails the server's start. */
  static async start(
    script: string,
    size: number,
    setup: WorkerSetup,
    log?: (line: string) => void,
  ): Promise<WorkerPool> {
    const pool = new WorkerPool(script, setup, log);
    const starting = Array.from({ length: size }, () => pool.#spawn());
    try {
      await Promise.all(starting);
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** The workers running now (one that failed is counted again once its replacement has started). */
  get workers(): number {
    return this.#slots.length;
  }

  mcp(message: unknown, headers: Readonly<Record<string, string>>): Promise<HttpAnswer> {
    const session = headers['mcp-session-id'];
    return this.#send((id) => ({ kind: 'mcp', id, message, headers: { ...headers } }), session || undefined);
  }

  api(method: string, url: string): Promise<HttpAnswer> {
    return this.#send((id) => ({ kind: 'api', id, method, url }));
  }

  /** Asks each worker to close its store, then ends it (at once if it has not within 2 s). */
  close(): Promise<void> {
    this.#closing ??= Promise.all(
      this.#slots.map(async ({ worker }) => {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ kind: 'close' } satisfies WorkerRequest);
        const late = setTimeout(() => void worker.terminate(), 2000);
        await exited;
        clearTimeout(late);
      }),
    ).then(() => undefined);
    return this.#closing;
  }

  /** Sends a request to the worker of `session`, or without one to the least busy worker. */
  #send(request: (id: number) => WorkerRequest, session?: string): Promise<HttpAnswer> {
    if (this.#closing) return Promise.reject(new Error('the server is closing'));
    const id = this.#nextId++;
    const count = this.#slots.length;
    let slot = this.#slots[session === undefined ? id % count : hashOf(session) % count];
    if (!slot) return Promise.reject(new Error('no request worker is running (each failed to start again)'));
    // The least busy worker, ties taken in turn: a client asking one question at a time warms every worker's readers.
    for (let i = 1; i < count && session === undefined; i++) {
      const other = this.#slots[(id + i) % count] as Slot;
      if (other.waiting.size < slot.waiting.size) slot = other;
    }
    const chosen = slot;
    return new Promise((resolve, reject) => {
      chosen.waiting.set(id, { resolve, reject });
      chosen.worker.postMessage(request(id));
    });
  }

  /** Starts a worker into a new slot; settles when it is ready, or rejects if it fails before. */
  #spawn(): Promise<void> {
    const slot: Slot = { worker: startWorker(this.#script, this.#setup), waiting: new Map() };
    this.#slots.push(slot);
    return new Promise((ready, failed) => {
      let started = false;
      slot.worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          started = true;
          ready();
        } else if ('log' in reply) {
          this.#log?.(reply.log);
        } else {
          const waiting = slot.waiting.get(reply.id);
          slot.waiting.delete(reply.id);
          if ('answer' in reply) waiting?.resolve(reply.answer);
          else waiting?.reject(new Error(reply.error));
        }
      });
      const lost = (error: Error) => {
        for (const waiting of slot.waiting.values()) waiting.reject(error);
        slot.waiting.clear();
        const index = this.#slots.indexOf(slot);
        if (index >= 0) this.#slots.splice(index, 1);
        if (!started) return failed(error);
        if (this.#closing) return;
        this.#log?.(`a request worker stopped (${error.message}); starting another`);
        this.#spawn().catch((again: unknown) =>
          this.#log?.(`a request worker could not start again: ${String(again)}`),
        );
      };
      slot.worker.on('error', lost);
      slot.worker.on('exit', (code) => {
        if (this.#slots.includes(slot)) lost(new Error(`the request worker exited with code ${code}`));
      });
    });
  }
}

/** A string's FNV-1a hash, a whole number in [0, 2^32): the same session id always picks the same worker. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** `--input-type`, alone or with its value: it stops a worker started from a file (it applies to `node -e` only). */
const isInputType = (flag: string) => flag === '--input-type' || flag.startsWith('--input-type=');

/**
 * A worker with the Node flags of the process (`processFlags`, which are `process.execArgv`; a test gives others). Left
 * to itself a worker takes them as the process parsed them, V8 flags such as `--max-old-space-size` or `--expose-gc`
 * included; a list given instead is parsed again, and a worker refuses any V8 or process-wide flag in it (`node
 * --max-old-space-size=4096 docs serve --http` failed to start). So a list is given only when a flag must go:
 * `--input-type` (from `node -e`) would stop the worker's file loading. If that list still holds a flag a worker
 * refuses, the worker starts with none: V8 and process-wide flags already hold for every thread of the process.
 */
export function startWorker(
  script: string,
  workerData: unknown,
  processFlags: readonly string[] = process.execArgv,
): Worker {
  if (!processFlags.some(isInputType)) return new Worker(script, { workerData });
  const kept: string[] = [];
  for (let i = 0; i < processFlags.length; i++) {
    const flag = processFlags[i] as string;
    if (!isInputType(flag)) kept.push(flag);
    else if (flag === '--input-type') i++; // and its value
  }
  try {
    return new Worker(script, { workerData, execArgv: kept });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(script, { workerData, execArgv: [] });
  }
}
