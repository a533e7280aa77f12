import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { PackageStore } from '@docs/store';
import { quantile } from './quantile.js';

// The JSON API under load: `docs serve --http` in a process of its own, and parallel
// keep-alive clients on 127.0.0.1 each sending its share of /api/search requests.

/** What a load run measured. */
export interface LoadResult {
  readonly requests: number;
  /** Answers other than 200 with a JSON body, and requests that failed outright. */
  readonly errors: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** The first few errors, to say what went wrong. */
  readonly errorSamples: readonly string[];
}

/** A running `docs serve --http`. */
export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The worker threads answering requests, as its ready line says (0: the main thread). */
  readonly workers: number;
  stop(): Promise<void>;
}

/** Starts `docs serve --http 0` over a store and waits for the address it prints. */
export function startServe(bin: string, home: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '0', '--home', home], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const ready = /ready at (http:\/\/[^/\s]+)\/mcp/.exec(stderr);
      const workers = Number(/\((\d+) worker threads?\)/.exec(stderr)?.[1] ?? 0);
      if (ready?.[1]) resolve({ origin: ready[1], workers, stop: () => stop(child) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`docs serve --http exited ${code} before it was ready: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function get(agent: Agent, origin: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends `clients × perClient` GET requests, `clients` at a time (each client
 * one after another over its keep-alive connection), cycling through `paths`.
 */
export function load(
  origin: string,
  paths: readonly string[],
  clients: number,
  perClient: number,
): Promise<LoadResult> {
  const pathOf = (n: number) => paths[n % paths.length] as string;
  return closedLoop(clients, perClient, {
    send: (agent, n) => get(agent, origin, pathOf(n)),
    check: (answer) => {
      JSON.parse(answer.body);
      return answer.status === 200 ? undefined : `${answer.status} ${answer.body.slice(0, 200)}`;
    },
    label: pathOf,
  });
}

/**
 * How many requests each client sends before a measured run: a sixth of the run, with every client at once. Asking
 * every question once, one at a time, opens the packages but reaches one worker thread only; the others then
 * compile their hot code and fill their caches inside the measured run (its first seconds had twice the p95 of the
 * rest). The runs measure a server that has been answering a while.
 */
export function warmUpPerClient(perClient: number): number {
  return Math.max(1, Math.ceil(perClient / 6));
}

/**
 * The load driver both HTTP benches share: `clients` keep-alive clients, each sending `perClient` requests one
 * after another. A request's time is its exchange alone (`send`); `check` then says what is wrong with its answer,
 * if anything (a throw counts as wrong too), and `label` names request `n` in the error samples.
 */
export async function closedLoop<Answer>(
  clients: number,
  perClient: number,
  request: {
    send: (agent: Agent, n: number) => Promise<Answer>;
    check: (answer: Answer) => string | undefined;
    label: (n: number) => string;
  },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const samples: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient; i++) {
        const n = client * perClient + i;
        const t0 = performance.now();
        try {
          const answer = await request.send(agent, n);
          samples.push(performance.now() - t0);
          const wrong = request.check(answer);
          if (wrong) throw new Error(wrong);
        } catch (error) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`${request.label(n)}: ${(error as Error).message}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = samples.sort((a, b) => a - b);
  const requests = clients * perClient;
  return {
    requests,
    errors,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted.at(-1) ?? Number.NaN,
    seconds,
    perSecond: requests / seconds,
    errorSamples,
  };
}

/**
 * Installs and removes a package over and over (as `docs add` and `docs
 * remove` would, from another process than the server's) until `done`
 * settles; returns how many times it did both.
 */
export async function churn(store: PackageStore, file: string, spec: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
  let cycles = 0;
  while (!finished) {
    await store.install(file);
    await pause();
    await store.remove(spec);
    await pause();
    cycles++;
  }
  return cycles;
}
