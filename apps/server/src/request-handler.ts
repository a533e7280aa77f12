import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SessionMemories } from '@docs/mcp';
import type { ModelSpecs, SearchModels } from '@docs/search';
import { answerApi } from './api.js';
import {
  docsServer,
  openServerStore,
  recentProjectVersions,
  type ServerOptions,
  type SharedParts,
} from './create-server.js';
import type { HandlerOptions, RequestHandler } from './handler-contract.js';
import { McpExchange } from './mcp-exchange.js';
import { ServerPool } from './server-pool.js';
import { WorkerPool } from './worker-pool.js';

/** The request headers MCP's Streamable HTTP transport reads; the others are the HTTP layer's. */
const MCP_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;

/** The headers of a request that MCP's transport reads, as a worker thread can receive them. */
export function mcpHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of MCP_HEADERS) {
    const value = headers[name];
    if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return picked;
}

/**
 * Answers requests on this thread, over a store of its own. MCP requests are answered each on its own, the usual one
 * on a server that stays connected (see McpExchange), any other with a transport of its own and a server from a
 * pool (see ServerPool); each gets its whole JSON answer as data, so the same
 * code runs on a worker thread and its answer crosses to the main thread as a string.
 *
 * The one thing kept between requests is what each session was sent: an initialize answer hands out a session id
 * (`Mcp-Session-Id`), the client sends it with every request after, and the tools look up that session's memory
 * (SessionMemories) whichever server answers, so a section is not sent twice in one session. A request without a
 * session id is answered in full, as before.
 */
export async function localHandler(options: HandlerOptions & Pick<ServerOptions, 'builds'>): Promise<RequestHandler> {
  const store = openServerStore(options);
  const log = options.log;
  // The API answers a bare name from the project's version as the tools do: its routes are the tools.
  const projectVersions = options.project === undefined ? undefined : recentProjectVersions(options.project);
  const serverOptions = {
    store,
    ...(options.libraries ? { libraries: options.libraries } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.builds ? { builds: options.builds } : {}),
    ...(log ? { log } : {}),
  };
  // Never one memory for two sessions: a request without a session id has none.
  const memories = new SessionMemories();
  const shared: SharedParts = {
    ...(projectVersions ? { projectVersions } : {}),
    memory: (session) => (session === undefined ? undefined : memories.of(session)),
  };
  const pool = new ServerPool(serverOptions, shared);
  // Loaded here, not at the top, so `docs serve` over stdio does not pay for the HTTP transport. The web-standard
  // transport, not the Node one: the body is parsed already and the answer is wanted whole, so converting the
  // Node request and response to web ones (what the Node transport does) would only cost time.
  const { WebStandardStreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
  );
  const api = {
    store,
    ...(options.libraries ? { libraries: options.libraries } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...projectVersions,
    ...(log
      ? {
          onError: (error: unknown, tool: string) =>
            log(`${tool}: ${error instanceof Error ? error.message : String(error)}`),
        }
      : {}),
  };
  // The usual request goes to one server that stays connected (see McpExchange); the others to the SDK's transport.
  const exchange = new McpExchange();
  const connected = await docsServer(serverOptions, shared);
  await connected.server.connect(exchange);
  const handler: RequestHandler = {
    workers: 0,
    async mcp(message, headers) {
      const request = exchange.take(message, headers);
      if (request) {
        // A tool call re-reads the libraries itself; anything else (tools/list) shows them as they are now.
        if (request.method !== 'tools/call') await connected.refresh();
        return exchange.answer(request, headers);
      }
      const docs = await pool.acquire();
      // JSON answers, as nothing streams. A transport per request, so no transport state outlives it; the one for an
      // initialize request hands out the session id the client then sends (the sessions' memories are keyed by it).
      const transport = new WebStandardStreamableHTTPServerTransport({
        enableJsonResponse: true,
        ...(isInitialize(message) ? { sessionIdGenerator: randomUUID } : {}),
      });
      try {
        await docs.server.connect(transport);
        const request = new Request('http://localhost/mcp', { method: 'POST', headers });
        const response = await transport.handleRequest(request, { parsedBody: message });
        const body = await response.text();
        return { status: response.status, headers: Object.fromEntries(response.headers), ...(body ? { body } : {}) };
      } finally {
        await transport.close();
        pool.release(docs);
      }
    },
    api: (method, url) => answerApi(method, url, api),
    async close() {
      await connected.close();
      await pool.close();
      await store.close();
    },
  };
  const installed = await store.list().catch(() => []);
  await warmUp(handler, installed[0]?.name);
  return handler;
}

/** What {@link warmUp} asks: a few common words, so a search opens the libraries and runs every stage. */
const WARM_UP_TOPICS = ['install', 'configuration options', 'error handling example'];

/**
 * Answers a few rounds of requests before the handler is handed out (and so before the port opens): the first
 * requests after start otherwise pay for what every later one finds ready (the libraries' connections and
 * statements, the token counter, code not yet compiled), and the first run of 20 clients had twice the p95 of the
 * next. Rounds go on while they take under `budgetMs` (at least one, at most `rounds`), so a store of a thousand
 * libraries does not hold the start for long. Requests without a session, so nothing of them is remembered; whatever
 * they answer, or fail with, is dropped.
 */
async function warmUp(
  handler: RequestHandler,
  library: string | undefined,
  { rounds = 5, budgetMs = 400 } = {},
): Promise<void> {
  const started = performance.now();
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const call = (id: number, name: string, args: Record<string, string>) =>
    handler
      .mcp({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, headers)
      .catch(() => undefined);
  for (let round = 0; round < rounds && (round === 0 || performance.now() - started < budgetMs); round++) {
    for (const [i, topic] of WARM_UP_TOPICS.entries()) {
      await call(i + 1, 'search_all', { topic });
      if (library !== undefined) await call(i + 1, 'get_docs', { library, topic });
      await handler.api('GET', `/api/search?${new URLSearchParams({ q: topic })}`).catch(() => undefined);
    }
  }
}

/** True for a single initialize request (a batch may not hold one: the SDK's transport refuses it). */
function isInitialize(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'initialize';
}

/** Options of requestHandler. */
export interface RequestHandlerOptions extends HandlerOptions {
  /** Worker threads answering requests; 0 answers them on this thread. @default the machine's parallelism, at most 4 (0 on one core) */
  readonly workers?: number;
  /**
   * The builds of what the project installs (ServerOptions.builds): get_docs waits for them where requests are
   * answered on this thread; a worker thread, which cannot call into this one, answers without waiting.
   */
  readonly builds?: ServerOptions['builds'];
}

/** The worker threads used when none are asked for: one per core up to 4; none on a single core, where they only add a hop. */
export function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(cores, 4);
}

/**
 * Answers requests on worker threads, so searches use every core: each worker has its own store (and so its own
 * readers, which see packages added and removed as any reader does) and its own servers. On this thread instead
 * when no workers are asked for, when the models given cannot be opened again in a worker (only ones from
 * openModels carry the specs to do so), or when running from TypeScript sources (tests), where there is no
 * compiled worker to start.
 */
export async function requestHandler(options: RequestHandlerOptions): Promise<RequestHandler> {
  const { workers = defaultWorkers(), builds, ...handlerOptions } = options;
  const script = fileURLToPath(new URL('./request-worker.js', import.meta.url));
  const specs = options.models === undefined ? undefined : modelSpecsOf(options.models);
  if (workers < 1 || (options.models !== undefined && specs === undefined) || !existsSync(script)) {
    return localHandler({ ...handlerOptions, ...(builds ? { builds } : {}) });
  }
  const { models: _models, log, ...plain } = handlerOptions;
  return WorkerPool.start(script, workers, { ...plain, ...(specs ? { models: specs } : {}) }, log);
}

/** The specs a worker can open the same models from, when `models` came from openModels. */
function modelSpecsOf(models: SearchModels): ModelSpecs | undefined {
  const specs = (models as { specs?: ModelSpecs }).specs;
  return specs !== undefined && typeof specs === 'object' ? specs : undefined;
}
