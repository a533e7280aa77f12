import type { ServerOptions as NodeServerOptions, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpAnswer } from './api.js';

/** What one client may cost the HTTP server. Every limit has a default; tests and operators may tighten them. */
export interface HttpLimits {
  /** Time to receive a request's headers. @default 10 s */
  readonly headersTimeoutMs?: number;
  /** Time to receive the whole request, body included: a body sent a byte at a time is cut off (408). @default 30 s */
  readonly requestTimeoutMs?: number;
  /**
   * Requests answered at once, counted from when one passes the token check; one beyond it is answered 503 and its
   * connection closed. @default 128
   */
  readonly maxConnections?: number;
  /** JSON-RPC calls in one batch (a JSON array body); more are refused (400). @default 16 */
  readonly maxBatch?: number;
  /** Arrays and objects nested in a request body; deeper is refused (400) before it is parsed. @default 64 */
  readonly maxJsonDepth?: number;
  /** Largest answer of /mcp and /api, in bytes; a larger one is replaced by an error saying how to ask for less. @default 4 MiB */
  readonly maxResponseBytes?: number;
}

export type ResolvedLimits = Required<HttpLimits>;

export function resolveLimits(limits: HttpLimits = {}): ResolvedLimits {
  return {
    headersTimeoutMs: limits.headersTimeoutMs ?? 10_000,
    requestTimeoutMs: limits.requestTimeoutMs ?? 30_000,
    maxConnections: limits.maxConnections ?? 128,
    maxBatch: limits.maxBatch ?? 16,
    maxJsonDepth: limits.maxJsonDepth ?? 64,
    maxResponseBytes: limits.maxResponseBytes ?? 4 * 1024 * 1024,
  };
}

/**
 * Node's own timeouts, passed to http.createServer. Node looks for overdue
 * requests every `connectionsCheckingInterval` (30 s by default); it is kept
 * well under the timeouts so a slow body is cut off close to its limit.
 */
export function serverOptions(limits: ResolvedLimits): NodeServerOptions {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    // Node requires headersTimeout ≤ requestTimeout.
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))),
    // An idle keep-alive connection holds one of maxConnections: let it go soon.
    keepAliveTimeout: 5000,
  };
}

/**
 * Counts the requests being answered: a request takes a slot once its headers have arrived and passed the Host,
 * Origin and token checks, and gives it back when its answer is sent or its connection closes. Connections that
 * have not sent a whole request's headers hold none (Node cuts them off at `headersTimeoutMs`), so 128 slow or
 * unauthenticated clients cannot keep those with the token out. `take` says whether a slot was free.
 */
export function requestSlots(limits: ResolvedLimits): { take(res: ServerResponse): boolean } {
  let busy = 0;
  return {
    take(res) {
      if (busy >= limits.maxConnections) return false;
      busy += 1;
      res.once('close', () => {
        busy -= 1;
      });
      return true;
    },
  };
}

/**
 * Answers what Node refuses before a request reaches the handler (a timeout,
 * headers too large, a malformed request) with a JSON-RPC error saying why;
 * Node's own answer is an empty 408 or 400.
 */
export function answerClientErrors(server: Server, limits: ResolvedLimits): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || answered) {
      socket.destroy();
      return;
    }
    const [status, text, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            `Request timeout: the request (headers within ${limits.headersTimeoutMs} ms, all of it within ${limits.requestTimeoutMs} ms) did not arrive in time`,
          ]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'Request headers too large']
          : [400, 'Bad Request', `Bad request: ${error.message}`];
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Why a JSON-RPC body is refused before it reaches MCP, or undefined. */
export function batchRefusal(body: unknown, limits: ResolvedLimits): string | undefined {
  if (Array.isArray(body) && body.length > limits.maxBatch) {
    return `Batch too large: ${body.length} calls; at most ${limits.maxBatch} per request (send the rest in other requests)`;
  }
  return undefined;
}

/** What to answer instead of a body over the limit. */
export type TooLarge = (bytes: number, limit: number) => { status: number; body: unknown };

/**
 * The answer, or `tooLarge`'s error in its place when its body passes `maxResponseBytes`. Both /mcp (JSON answers
 * only: nothing streams) and /api make whole answers before anything is sent, so this is a look at their size.
 */
export function boundAnswer(answer: HttpAnswer, limits: ResolvedLimits, tooLarge: TooLarge): HttpAnswer {
  const body = answer.body;
  const size = body === undefined ? 0 : Buffer.byteLength(body);
  if (size <= limits.maxResponseBytes) return answer;
  const refusal = tooLarge(size, limits.maxResponseBytes);
  return {
    status: refusal.status,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(refusal.body),
  };
}
