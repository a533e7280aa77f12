import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isApiPath, sendApiError, writeAnswer } from './api.js';
import type { ServerOptions } from './create-server.js';
import { ServerError } from './errors.js';
import { allowedHostnames, isLoopback, refusal, urlHost } from './http-guard.js';
import {
  answerClientErrors,
  batchRefusal,
  boundAnswer,
  type HttpLimits,
  requestSlots,
  resolveLimits,
  serverOptions,
} from './http-limits.js';
import { nestsDeeperThan } from './json-depth.js';
import { mcpHeaders, requestHandler } from './request-handler.js';
import { type RunningServer, runningServer } from './running.js';
import { isWebPath, serveWeb } from './web.js';

/** The port `docs serve --http` listens on when none is given. */
export const DEFAULT_HTTP_PORT = 7800;

/** Options of startHttpServer. */
export interface HttpServerOptions extends Omit<ServerOptions, 'store' | 'watch'> {
  /** 0 picks a free port. @default 7800 */
  readonly port?: number;
  /** Address to bind. Anything but a loopback address requires `token`. @default '127.0.0.1' */
  readonly host?: string;
  /** Bearer token every request must carry. @default none (loopback only) */
  readonly token?: string;
  /** More host names the Host and Origin headers may carry (a reverse proxy's name). @default none */
  readonly allowedHosts?: readonly string[];
  /** Largest request body accepted, in bytes. @default 1 MiB */
  readonly maxBodyBytes?: number;
  /** Timeouts, connections, batch size and answer size (see HttpLimits). @default each limit's default */
  readonly limits?: HttpLimits;
  /**
   * Worker threads that answer MCP and API requests, each over a store of its own, so searches run on every core;
   * 0 answers them on the main thread. @default the machine's parallelism, at most 4 (0 on one core)
   */
  readonly workers?: number;
}

/** A running HTTP server. */
export interface RunningHttpServer extends RunningServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7800/mcp`. */
  readonly url: string;
  /** The web page, e.g. `http://127.0.0.1:7800/`; the JSON API is under its `api/`. */
  readonly pageUrl: string;
  /** The worker threads answering MCP and API requests; 0 when the main thread does. */
  readonly workers: number;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`, each POST answered on its own (only what each session was sent outlives
 * a POST, keyed by its session id; see localHandler), the JSON API under `/api/` (api.ts) and
 * the web page at `/` (web.ts). MCP and API requests are answered on worker threads (`workers`), each with a
 * store of its own; this thread does the HTTP. Before a request reaches MCP or the API its Host
 * and Origin are checked (403, against DNS rebinding), then its bearer token
 * when one is set (401), then its size (413). The limits of HttpLimits bound
 * what one client may cost: slow requests are cut off (408), connections beyond
 * the limit answered 503, large batches 400, answers too large replaced by an error.
 *
 * @example
 * const running = await startHttpServer({ port: 0, token: 'secret' });
 * console.error(`MCP at ${running.url}`);
 */
export async function startHttpServer(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token === '' ? undefined : options.token;
  if (!isLoopback(host) && token === undefined) {
    throw new ServerError(
      'token-required',
      `serving on ${host} lets other machines connect: set a token (--token or DOCS_TOKEN) that clients send as a bearer token`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const allowed = allowedHostnames(host, options.allowedHosts);
  const log = options.log;
  const limits = resolveLimits(options.limits);
  const handler = await requestHandler({
    ...(options.home ? { home: options.home } : {}),
    ...(options.verifiedRecord ? { verifiedRecord: options.verifiedRecord } : {}),
    ...(options.libraries ? { libraries: options.libraries } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    // Waited for by get_docs only where requests are answered on this thread (workers: 0).
    ...(options.builds ? { builds: options.builds } : {}),
    ...(log ? { log } : {}),
  });

  const slots = requestSlots(limits);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // Checked before the request takes a slot, so clients without the token cannot hold the slots of those with
    // it. The page and its assets hold no documentation: a browser loads them without the token, then asks for it.
    const refused = refusal(req, allowed, isWebPath(path) ? undefined : token);
    if (refused) {
      // Closed after the answer: a refused client keeps nothing open here, not even an idle connection.
      const headers: Record<string, string> = {
        Connection: 'close',
        ...(refused.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}),
      };
      if (isApiPath(path)) {
        const code = refused.status === 401 ? 'unauthorized' : 'forbidden';
        return sendApiError(res, refused.status, { code, message: refused.message }, headers);
      }
      return reply(res, refused.status, refused.message, headers);
    }
    if (!slots.take(res)) {
      const message = `Server busy: more than ${limits.maxConnections} requests are being answered; retry shortly`;
      const headers = { Connection: 'close', 'Retry-After': '1' };
      if (isApiPath(path)) return sendApiError(res, 503, { code: 'busy', message }, headers);
      return reply(res, 503, message, headers);
    }
    if (isWebPath(path)) return serveWeb(req, res, path);
    if (isApiPath(path)) {
      const answer = await handler.api(req.method ?? 'GET', req.url ?? '/');
      return writeAnswer(
        res,
        boundAnswer(answer, limits, (bytes, limit) => ({
          status: 500,
          body: { error: { code: 'too-large', message: tooLargeMessage(bytes, limit) } },
        })),
      );
    }
    if (path !== '/mcp') return reply(res, 404, 'Not found: MCP is at /mcp, the JSON API under /api/, the page at /');
    if (req.method !== 'POST') {
      // No stream to open (GET), and nothing to end (DELETE): a session is only a memory, dropped when unused.
      return reply(res, 405, 'Method not allowed: POST JSON-RPC to /mcp (this server opens no event stream)', {
        Allow: 'POST',
      });
    }
    const body = await readJson(req, maxBodyBytes, limits.maxJsonDepth);
    if (!body.ok) return reply(res, body.status, body.message, body.status === 413 ? { Connection: 'close' } : {});
    const batch = batchRefusal(body.value, limits);
    if (batch) return reply(res, 400, batch, {}, -32600);
    const answer = await handler.mcp(body.value, mcpHeaders(req.headers));
    writeAnswer(
      res,
      boundAnswer(answer, limits, (bytes, limit) => ({
        status: 500,
        body: { jsonrpc: '2.0', error: { code: -32000, message: tooLargeMessage(bytes, limit) }, id: null },
      })),
    );
  };

  const http = createHttpServer(serverOptions(limits), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log?.(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) reply(res, 500, 'Internal server error');
      else res.end();
    });
  });
  answerClientErrors(http, limits);
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code === 'EADDRINUSE' ? 'address-in-use' : 'cannot-listen';
      const why = error.code === 'EADDRINUSE' ? 'is in use' : `cannot be used (${error.message})`;
      reject(new ServerError(code, `port ${options.port ?? DEFAULT_HTTP_PORT} on ${host} ${why}`, { cause: error }));
    });
    http.listen(options.port ?? DEFAULT_HTTP_PORT, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '::1' : host;
  const running = runningServer(async () => {
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await handler.close();
  });
  const origin = `http://${urlHost(reachable)}:${port}`;
  return { ...running, url: `${origin}/mcp`, pageUrl: `${origin}/`, workers: handler.workers };
}

function tooLargeMessage(bytes: number, limit: number): string {
  return `Response too large: ${bytes} bytes, over the limit of ${limit}. Ask for less: fewer results (limit), a smaller token budget (tokens), format "index", a part of a page (read_doc tokens), or fewer calls per batch.`;
}

/** An error as the SDK's transport answers one: a JSON-RPC error without an id. */
function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = status === 400 ? -32700 : -32000,
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

type Body = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/**
 * Reads a JSON body of at most `limit` bytes, refusing a larger one before or while it arrives, and one nested
 * deeper than `maxDepth`.
 */
async function readJson(req: IncomingMessage, limit: number, maxDepth: number): Promise<Body> {
  const tooLarge: Body = { ok: false, status: 413, message: `Payload too large: the limit is ${limit} bytes` };
  if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return tooLarge;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (nestsDeeperThan(text, maxDepth)) {
    return { ok: false, status: 400, message: `Parse error: the body nests deeper than ${maxDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the body is not JSON' };
  }
}
