// This file is the public API of @docs/server/stdio: MCP over stdio alone. It leaves out the HTTP server, the JSON
// API and the page (and what they import), so a process that serves stdio loads only what it runs.
export type { LibraryBuildState, LibraryBuilds } from '@docs/mcp';
export type { ServerOptions } from './create-server.js';
export type { RunningServer } from './running.js';
export { closeOnSignals } from './running.js';
export type { StdioOptions } from './stdio.js';
export { serveStdio } from './stdio.js';
