// This file is the public API of @docs/server.
export type { LibraryBuildState, LibraryBuilds } from '@docs/mcp';
export type { DocsServer, ServerOptions } from './create-server.js';
export { createServer } from './create-server.js';
export type { ServerErrorCode } from './errors.js';
export { ServerError } from './errors.js';
export type { HttpServerOptions, RunningHttpServer } from './http.js';
export { DEFAULT_HTTP_PORT, startHttpServer } from './http.js';
export type { HttpLimits } from './http-limits.js';
export type { RunningServer } from './running.js';
export { closeOnSignals } from './running.js';
export type { StdioOptions } from './stdio.js';
export { serveStdio } from './stdio.js';
