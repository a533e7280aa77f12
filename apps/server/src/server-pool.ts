import { type DocsServer, docsServer, type ServerOptions, type SharedParts } from './create-server.js';

/**
 * MCP servers for stateless HTTP requests, reused. A stateless request still
 * needs a transport of its own (the SDK connects a server to one transport at
 * a time, so two clients' request ids never meet), but the server behind it
 * (its tools, schemas and handlers) can serve request after request: building
 * one per POST cost more than the search it answered. A server serves one
 * request at a time and comes back when its transport has closed; the pool
 * grows to the number of requests in flight and keeps at most `maxIdle`.
 */
export class ServerPool {
  readonly #options: ServerOptions;
  readonly #idle: DocsServer[] = [];
  readonly #maxIdle: number;
  readonly #shared: SharedParts;
  #closed = false;

  /**
   * `shared`: what every server of the pool shares: the versions `options.project` installs, and the memory of each
   * session, which follows a session from server to server (a server is one request's, not one session's).
   */
  constructor(options: ServerOptions, shared: SharedParts, maxIdle = 32) {
    this.#options = options;
    this.#maxIdle = maxIdle;
    this.#shared = shared;
  }

  /** A server connected to no transport, its tools' descriptions naming the libraries installed now. */
  async acquire(): Promise<DocsServer> {
    const idle = this.#idle.pop();
    if (!idle) return docsServer(this.#options, this.#shared);
    await idle.refresh();
    return idle;
  }

  /** Takes back a server whose transport has closed. */
  release(docs: DocsServer): void {
    if (this.#closed || this.#idle.length >= this.#maxIdle || docs.server.isConnected()) {
      void docs.close();
      return;
    }
    this.#idle.push(docs);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((d) => d.close()));
  }
}
