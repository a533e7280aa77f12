// What the HTTP layer asks of whatever answers MCP and API requests: localHandler (request-handler.ts) on this
// thread, or WorkerPool (worker-pool.ts) on worker threads. Apart from both, so neither imports the other for it.
import type { HttpAnswer } from './api.js';
import type { ServerOptions } from './create-server.js';

/**
 * What answers the requests that reach MCP or the JSON API once the HTTP layer has let them through (Host,
 * Origin, token, size and limits are the HTTP layer's): on this thread, or on worker threads.
 */
export interface RequestHandler {
  /** The worker threads answering; 0 when this thread does. */
  readonly workers: number;
  /** Answers a JSON-RPC POST to /mcp: `message` is its parsed body, `headers` the ones MCP reads. */
  mcp(message: unknown, headers: Readonly<Record<string, string>>): Promise<HttpAnswer>;
  /** Answers a request under /api/. */
  api(method: string, url: string): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** What a request handler serves: ServerOptions without a shared store or a watcher (each handler opens its own). */
export type HandlerOptions = Omit<ServerOptions, 'store' | 'watch' | 'builds'>;
