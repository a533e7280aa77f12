// Serving a team: replicas of `docs serve --http` over one store, behind a round-robin client.
// Measures throughput (requests per second, several requests in flight) and latency for one
// replica and for two, on 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { quantile } from './quantile.js';

interface Question {
  readonly query: string;
  readonly library: string | null;
}

/** One configuration's figures. */
export interface ReplicaRun {
  readonly replicas: number;
  readonly requests: number;
  readonly concurrency: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p95: number;
}

/** Starts `docs serve --http 0` on the store and resolves with the process and its MCP URL. */
function startReplica(bin: string, home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '0', '--home', home], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const url = /ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`docs serve exited with ${code}: ${stderr}`)));
  });
}

/** One MCP tool call as a JSON-RPC POST (the server is stateless); throws unless it is answered. */
async function call(url: string, question: Question): Promise<void> {
  const params = question.library
    ? { name: 'get_docs', arguments: { library: question.library, topic: question.query } }
    : { name: 'search_all', arguments: { topic: question.query } };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const body = (await response.json()) as { result?: { isError?: boolean } };
  if (!response.ok || !body.result || body.result.isError) throw new Error(`${url} failed: HTTP ${response.status}`);
}

/**
 * Runs every question `rounds` times against `replicas` servers, `concurrency`
 * requests in flight, each request sent to the next replica in turn.
 */
async function measure(
  bin: string,
  home: string,
  questions: readonly Question[],
  replicas: number,
  options: { rounds: number; concurrency: number },
): Promise<ReplicaRun> {
  const servers = await Promise.all(Array.from({ length: replicas }, () => startReplica(bin, home)));
  try {
    const urls = servers.map((s) => s.url);
    // Warm-up: every replica opens its packages and fills its page cache.
    for (const url of urls) for (const q of questions) await call(url, q);
    const work = Array.from({ length: options.rounds }, () => questions).flat();
    const samples: number[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      for (let i = next++; i < work.length; i = next++) {
        const sent = performance.now();
        await call(urls[i % urls.length] as string, work[i] as Question);
        samples.push(performance.now() - sent);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    samples.sort((a, b) => a - b);
    return {
      replicas,
      requests: work.length,
      concurrency: options.concurrency,
      requestsPerSecond: work.length / seconds,
      p50: quantile(samples, 0.5),
      p95: quantile(samples, 0.95),
    };
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
  }
}

/** One replica, then two, over the same store and questions. */
export async function benchReplicas(
  bin: string,
  home: string,
  questions: readonly Question[],
  options: { rounds: number; concurrency?: number },
): Promise<{ results: ReplicaRun[]; rows: Array<[string, string]> }> {
  const concurrency = options.concurrency ?? 8;
  const results: ReplicaRun[] = [];
  for (const replicas of [1, 2]) {
    results.push(await measure(bin, home, questions, replicas, { rounds: options.rounds, concurrency }));
  }
  const rows = results.map((r): [string, string] => [
    `docs serve --http, ${r.replicas} replica${r.replicas > 1 ? 's' : ''} (${r.concurrency} in flight)`,
    `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`,
  ]);
  return { results, rows };
}
