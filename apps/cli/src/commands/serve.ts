import type { HttpLimits, RunningHttpServer, ServerOptions } from '@docs/server';
import { resolveErrorMessage } from '@docs/store';
import { openStore, verifiedPackagesRecord } from '../context.js';
import { UsageError } from '../errors.js';
import { startFollowing } from '../follow/start.js';
import { modelSpecs } from '../models.js';
import type { GlobalOptions } from '../options.js';

/** Options of `docs serve`, as commander parses them. */
export interface ServeOptions {
  /** Present for HTTP: `true` for the default port, else the port given. */
  readonly http?: string | true;
  readonly host?: string;
  readonly token?: string;
  /** Host names a reverse proxy puts in the Host header, accepted besides the bound address. */
  readonly allowedHost?: string[];
  readonly libs?: string[];
  /** With --http: worker threads answering requests. */
  readonly workers?: number;
  /** With --http: the limits of one client, in seconds and MiB (see HttpLimits). */
  readonly headersTimeout?: number;
  readonly requestTimeout?: number;
  readonly maxConnections?: number;
  readonly maxBatch?: number;
  readonly maxResponse?: number;
  readonly embed?: string;
  readonly rerank?: string;
  /** The project whose installed versions a bare name means; the working directory by default. */
  readonly project?: string;
  /**
   * false with --no-follow: leave the store as it is when the project's installs change. Else stdio follows the
   * project, and HTTP the one --project names (see follow/follower.ts).
   */
  readonly follow?: boolean;
}

/**
 * `docs serve`: the MCP server, over stdio (nothing but JSON-RPC on stdout;
 * this writes to stderr) or over Streamable HTTP with --http. Runs until
 * SIGINT/SIGTERM, or until a stdio client closes stdin.
 */
export async function serve(options: ServeOptions, globals: GlobalOptions): Promise<void> {
  if (options.http === undefined && (options.host !== undefined || options.token !== undefined)) {
    throw new UsageError('--host and --token apply to HTTP: add --http [port]');
  }
  const httpOnly = {
    '--workers': options.workers,
    '--headers-timeout': options.headersTimeout,
    '--request-timeout': options.requestTimeout,
    '--max-connections': options.maxConnections,
    '--max-batch': options.maxBatch,
    '--max-response': options.maxResponse,
  };
  const given = Object.entries(httpOnly).find(([, value]) => value !== undefined)?.[0];
  if (options.http === undefined && given !== undefined) {
    throw new UsageError(`${given} applies to HTTP: add --http [port]`);
  }
  if (options.http === undefined && options.allowedHost !== undefined) {
    throw new UsageError('--allowed-host applies to HTTP: add --http [port]');
  }
  const port = options.http === undefined || options.http === true ? undefined : portNumber(options.http);
  const log = (line: string) => process.stderr.write(`docs: ${line}\n`);
  const { openModels } = await import('@docs/search');
  // Shared by every request, opened on first use: a model loads once per server.
  const models = openModels(modelSpecs(options));
  const common = {
    log,
    models,
    ...(globals.home ? { home: globals.home } : {}),
    // A store the project names came with it: the server validates its packages before serving them.
    ...(globals.homeFromProject ? { verifiedRecord: verifiedPackagesRecord() } : {}),
    ...(options.libs && options.libs.length > 0 ? { libraries: options.libs } : {}),
    project: options.project ?? process.cwd(),
  };
  const scope = common.libraries ? ` (only ${common.libraries.join(', ')})` : '';
  if (common.libraries) await warnAboutMissing(common.libraries, globals, log);
  // A shared HTTP server builds for a project only when told which (--project); a stdio server is one project's.
  const follows = options.follow !== false && (options.http === undefined || options.project !== undefined);
  const follower = follows
    ? startFollowing(common.project, globals, {
        log,
        onEvent: (event) =>
          event.kind === 'built' &&
          log(`built ${event.library} in ${event.seconds.toFixed(1)} s: the project installs it`),
      })
    : undefined;
  try {
    await serveUntilClosed(options, port, { ...common, ...(follower ? { builds: follower } : {}) }, scope, log);
  } finally {
    await follower?.close();
    await models.close();
  }
}

/** Serves over stdio or HTTP (the options say which) until the server is closed. */
async function serveUntilClosed(
  options: ServeOptions,
  port: number | undefined,
  common: ServerOptions & { readonly project: string },
  scope: string,
  log: (line: string) => void,
): Promise<void> {
  if (options.http === undefined) {
    // The stdio part alone: a host starts this process with each session, and waits for it.
    const stdio = await import('@docs/server/stdio');
    const running = await stdio.serveStdio(common);
    log(`MCP server ready on stdio${scope}`);
    stdio.closeOnSignals(running);
    await running.closed;
    return;
  }

  const server = await import('@docs/server');
  const token = options.token ?? process.env.DOCS_TOKEN;
  let http: RunningHttpServer;
  try {
    http = await server.startHttpServer({
      ...common,
      ...(port === undefined ? {} : { port }),
      ...(options.host ? { host: options.host } : {}),
      ...(token ? { token } : {}),
      ...(options.allowedHost ? { allowedHosts: options.allowedHost } : {}),
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      limits: httpLimits(options),
    });
  } catch (error) {
    if (error instanceof server.ServerError) throw new UsageError(error.message);
    throw error;
  }
  const threads = http.workers > 0 ? ` (${http.workers} worker thread${http.workers === 1 ? '' : 's'})` : '';
  log(`MCP server ready at ${http.url}${token ? ' (bearer token required)' : ''}${scope}${threads}`);
  log(`Web page at ${http.pageUrl}, JSON API at ${http.pageUrl}api/`);
  server.closeOnSignals(http);
  await http.closed;
}

/** The HTTP limits the flags set; each one not given keeps its default. */
function httpLimits(options: ServeOptions): HttpLimits {
  return {
    ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout * 1000 }),
    ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout * 1000 }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    ...(options.maxResponse === undefined ? {} : { maxResponseBytes: options.maxResponse * 1024 * 1024 }),
  };
}

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535)
    throw new UsageError(`--http takes a port from 0 to 65535, got "${value}"`);
  return port;
}

/**
 * Says which of the libraries to serve are not installed (a typo, or one to add
 * later): the server still starts, and serves each one once it is installed.
 */
async function warnAboutMissing(
  libraries: readonly string[],
  globals: GlobalOptions,
  log: (line: string) => void,
): Promise<void> {
  const store = openStore(globals);
  try {
    for (const spec of libraries) {
      const found = await store.resolve(spec);
      if (!found.ok) log(`--libs ${spec}: ${resolveErrorMessage(found.error)}; serving it once it is installed`);
    }
  } finally {
    await store.close();
  }
}
