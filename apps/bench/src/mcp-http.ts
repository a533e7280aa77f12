import { type Agent, request } from 'node:http';
import { PackageStore } from '@docs/store';
import { churn, closedLoop, type LoadResult, startServe, warmUpPerClient } from './http-api.js';

// MCP over Streamable HTTP under load: `docs serve --http` in a process of its own, parallel keep-alive
// clients each POSTing JSON-RPC tools/call requests (get_docs for a question with a library, search_all
// otherwise), steady and then while a package is added and removed from this process.

interface Question {
  readonly query: string;
  readonly library: string | null;
}

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-06-18',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function callOf(question: Question, id: number): string {
  const params =
    question.library === null
      ? { name: 'search_all', arguments: { topic: question.query } }
      : { name: 'get_docs', arguments: { library: question.library, topic: question.query } };
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

/** Why an answer is not a tool's successful result, or undefined when it is one. */
function problem(answer: { status: number; body: string }): string | undefined {
  if (answer.status !== 200) return `${answer.status} ${answer.body.slice(0, 200)}`;
  const parsed = JSON.parse(answer.body) as { result?: { isError?: boolean }; error?: { message: string } };
  if (parsed.error) return `JSON-RPC error: ${parsed.error.message}`;
  if (!parsed.result) return 'no result';
  if (parsed.result.isError) return `tool error: ${answer.body.slice(0, 200)}`;
  return undefined;
}

/**
 * Sends `clients × perClient` tools/call requests to `mcpUrl`, `clients` at a
 * time (each client one after another over its keep-alive connection).
 */
export function loadMcp(
  mcpUrl: string,
  questions: readonly Question[],
  clients: number,
  perClient: number,
): Promise<LoadResult> {
  const url = new URL(mcpUrl);
  const questionOf = (n: number) => questions[n % questions.length] as Question;
  return closedLoop(clients, perClient, {
    send: (agent, n) => post(agent, url, callOf(questionOf(n), n + 1)),
    check: problem,
    label: (n) => questionOf(n).query,
  });
}

/**
 * The MCP-over-HTTP rows of the benchmark: steady load, then the same while
 * `churnFile` (a package not among the questions' libraries) is installed and
 * removed over and over as `churnSpec`.
 */
export async function benchMcpHttp(
  bin: string,
  home: string,
  questions: readonly Question[],
  load: { clients: number; perClient: number; churnFile: string; churnSpec: string },
): Promise<{ results: Record<string, unknown>; rows: [string, string][] }> {
  const serve = await startServe(bin, home);
  try {
    const mcpUrl = `${serve.origin}/mcp`;
    // Warm-up: every question once, so the measured runs start with the packages open.
    for (const q of questions) await loadMcp(mcpUrl, [q], 1, 1);
    await loadMcp(mcpUrl, questions, load.clients, warmUpPerClient(load.perClient));
    const steady = await loadMcp(mcpUrl, questions, load.clients, load.perClient);
    const running = loadMcp(mcpUrl, questions, load.clients, load.perClient);
    const writer = new PackageStore(home);
    const [changing, cycles] = await Promise.all([
      running,
      churn(writer, load.churnFile, load.churnSpec, running),
    ]).finally(() => writer.close());
    for (const sample of [...steady.errorSamples, ...changing.errorSamples]) process.stderr.write(`${sample}\n`);
    const row = (r: LoadResult) =>
      `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, ${r.perSecond.toFixed(0)} req/s, ${r.errors} errors`;
    return {
      results: {
        clients: load.clients,
        perClient: load.perClient,
        workers: serve.workers,
        steady,
        whileChanging: { ...changing, cycles },
      },
      rows: [
        [
          `MCP over HTTP tools/call, ${load.clients} clients × ${load.perClient}, ${threads(serve.workers)}`,
          row(steady),
        ],
        [`  while a package is added and removed (${cycles}×)`, row(changing)],
      ],
    };
  } finally {
    await serve.stop();
  }
}

/** How a server answers, for a row's label. */
export function threads(workers: number): string {
  return workers > 0 ? `${workers} worker thread${workers === 1 ? '' : 's'}` : 'main thread';
}
