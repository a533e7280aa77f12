import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer, type ServerOptions } from './create-server.js';
import { type RunningServer, runningServer } from './running.js';

/** Options of serveStdio. */
export interface StdioOptions extends ServerOptions {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** Carries nothing but JSON-RPC. @default process.stdout */
  readonly stdout?: Writable;
}

/**
 * Serves MCP over stdin/stdout until closed or until the client closes stdin.
 * Nothing but JSON-RPC is written to stdout.
 *
 * @example
 * const running = await serveStdio({ home: '/path/to/store' });
 * closeOnSignals(running);
 * await running.closed;
 */
export async function serveStdio(options: StdioOptions = {}): Promise<RunningServer> {
  const stdin = options.stdin ?? process.stdin;
  const docs = await createServer({ watch: true, ...options });
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const running = runningServer(() => docs.close());
  docs.server.server.onclose = () => void running.close();
  // The client ending the session closes stdin; nothing else would stop the server.
  stdin.once('end', () => void running.close());
  await docs.server.connect(transport);
  return running;
}
