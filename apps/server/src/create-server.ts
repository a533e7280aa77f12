import { watch } from 'node:fs';
import { createRequire } from 'node:module';
import { type DocsToolContext, type LibraryBuilds, registerDocsTools, SessionMemory } from '@docs/mcp';
import type { SearchModels } from '@docs/search';
import { installedVersion, installedVersions } from '@docs/sources';
import { PackageStore, resolveHome, VerifiedPackages } from '@docs/store';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** How a docs MCP server is configured; every transport takes these. */
export interface ServerOptions {
  /** The store directory. @default $DOCS_HOME, else the user data directory */
  readonly home?: string;
  /** A store to share (between the servers of HTTP requests); left open by close(). @default a store at `home` */
  readonly store?: PackageStore;
  /** Serve only these libraries (`name` or `name@version`). @default every installed library */
  readonly libraries?: readonly string[];
  /** Where searches get a query embedder and a re-ranker (see openModels in @docs/search); left open by close(). @default none: lexical */
  readonly models?: SearchModels;
  /**
   * The project the server works for: get_docs answers a bare library name from the version this project
   * installs (its node_modules, as Node resolves it) when that version is installed. @default none: the highest
   */
  readonly project?: string;
  /**
   * For a store whose packages docs did not install (one a project config names): a file (outside the project)
   * where the packages that passed validation are remembered; every package is validated as an install validates
   * it before it is served, once per file as it is, and one that fails is not served. @default none: trusted
   */
  readonly verifiedRecord?: string;
  /**
   * The builds of what the project installs, when something follows the project and builds it (`docs serve`):
   * get_docs waits a bounded time for a library being built, and says so when it is not done. @default none
   */
  readonly builds?: LibraryBuilds;
  /** Watch the store directory and tell clients when the libraries change, not only at the next call. @default false */
  readonly watch?: boolean;
  /** Where to write a line about failures and state changes; never stdout for stdio. @default none */
  readonly log?: (line: string) => void;
}

/** A docs MCP server, not yet connected to a transport. */
export interface DocsServer {
  readonly server: McpServer;
  /** Re-reads the installed libraries into the tools' descriptions; true when they changed (a connected client is told). */
  refresh(): Promise<boolean>;
  /** Closes the server, the watcher and the store it opened. */
  close(): Promise<void>;
}

const INSTRUCTIONS = [
  'Documentation of the libraries installed on this machine, at their installed versions, searched locally.',
  'Prefer these tools to memory for how an installed library works: search_all when you do not know which library documents something,',
  'get_docs when you do, read_doc to read a whole page a result points to, list_libraries for the names and versions available.',
].join(' ');

let version: string | undefined;

/**
 * The server's version, from its package.json (read once). Found by the package's name, not by a path from this
 * file: the CLI bundles this module for `docs serve` (apps/cli/scripts/bundle.mjs), where a path would be the bundle's.
 */
export function serverVersion(): string {
  version ??= (createRequire(import.meta.url)('@docs/server/package.json') as { version: string }).version;
  return version;
}

/**
 * Creates an MCP server with the docs tools over a store. Each transport is a
 * few lines around it. The server is one session's: get_docs and search_all
 * do not send a section twice in its life (see SessionMemory), so connect a
 * new one for each session.
 *
 * @example
 * const { server, close } = await createServer({ home: '/path/to/store', libraries: ['vitest'] });
 * await server.connect(new StdioServerTransport());
 */
export async function createServer(options: ServerOptions = {}): Promise<DocsServer> {
  const project = options.project;
  const memory = new SessionMemory();
  return docsServer(options, {
    ...(project === undefined ? {} : { projectVersions: recentProjectVersions(project) }),
    memory: () => memory,
  });
}

/**
 * How long a version read from a project's node_modules is taken as current. get_docs asks for the library's
 * version on every call, and reading it is a file opened in each folder up to the root (several when the library
 * is not installed there): under load that was a tenth of a request's time. A second is short beside how often
 * a project's installs change, and the store itself is read afresh on every call as before.
 */
const PROJECT_VERSION_FRESH_MS = 1000;

/** The versions a project installs, as the tools ask for them: one name (get_docs) or many at once (search_all). */
export type ProjectVersions = Required<Pick<DocsToolContext, 'projectVersion' | 'projectVersions'>>;

/**
 * installedVersion and installedVersions for one project, each name's answer kept for a second (see
 * PROJECT_VERSION_FRESH_MS) and shared by both, so the servers of a pool and the API ask the disk once a second.
 */
export function recentProjectVersions(project: string, freshMs = PROJECT_VERSION_FRESH_MS): ProjectVersions {
  const recent = new Map<string, { at: number; version: Promise<string | undefined> }>();
  const fresh = (name: string, now: number) => {
    const kept = recent.get(name);
    return kept && now - kept.at < freshMs ? kept.version : undefined;
  };
  const forget = (now: number) => {
    // Bounded by the names asked about within a second, which are the installed libraries' names at most.
    for (const [old, entry] of recent) if (now - entry.at >= freshMs) recent.delete(old);
  };
  return {
    projectVersion(name) {
      const now = performance.now();
      const kept = fresh(name, now);
      if (kept) return kept;
      forget(now);
      const version = installedVersion(project, name);
      recent.set(name, { at: now, version });
      return version;
    },
    async projectVersions(names) {
      const now = performance.now();
      forget(now);
      const missing = [...new Set(names)].filter((name) => !fresh(name, now));
      if (missing.length > 0) {
        // One walk up the folders for every name not known (the CLI's way), each name then kept as one lookup would be.
        const read = installedVersions(project, missing);
        for (const name of missing) recent.set(name, { at: now, version: read.then((found) => found.get(name)) });
      }
      const versions = new Map<string, string>();
      for (const name of new Set(names)) {
        const version = await fresh(name, now);
        if (version !== undefined) versions.set(name, version);
      }
      return versions;
    },
  };
}

/** The store at `home`, its packages validated first when `verifiedRecord` says they did not come through docs. */
export function openServerStore(options: Pick<ServerOptions, 'home' | 'verifiedRecord' | 'log'>): PackageStore {
  const home = resolveHome({ home: options.home });
  if (options.verifiedRecord === undefined) return new PackageStore(home);
  const log = options.log;
  const verify = new VerifiedPackages(options.verifiedRecord, {
    onRefused: (pkg, reason) => log?.(`not serving ${pkg.file}: ${reason}`),
  });
  return new PackageStore(home, { verify });
}

/** What several servers share (the servers of a ServerPool): the project-version lookups, and the sessions' memories. */
export interface SharedParts {
  readonly projectVersions?: ProjectVersions;
  /** The memory of each session (DocsToolContext.memory). @default none: every call answered in full */
  readonly memory?: DocsToolContext['memory'];
}

/** createServer with parts that several servers share. */
export async function docsServer(options: ServerOptions, shared: SharedParts = {}): Promise<DocsServer> {
  const { projectVersions, memory } = shared;
  const store = options.store ?? openServerStore(options);
  const server = new McpServer(
    { name: 'docs', title: 'docs: local documentation search', version: serverVersion() },
    { instructions: INSTRUCTIONS, capabilities: { tools: { listChanged: true } } },
  );
  const tools = await registerDocsTools(server, {
    store,
    ...(options.libraries && options.libraries.length > 0 ? { libraries: options.libraries } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...projectVersions,
    ...(memory ? { memory } : {}),
    ...(options.builds ? { builds: options.builds } : {}),
    onError: (error, tool) => options.log?.(`${tool}: ${error instanceof Error ? error.message : String(error)}`),
  });
  const watcher = options.watch
    ? watchDirectory(store.dir, () => {
        tools
          .refresh()
          .then((changed) => changed && options.log?.('installed libraries changed; told the client'))
          .catch(() => undefined);
      })
    : undefined;
  return {
    server,
    refresh: () => tools.refresh(),
    async close() {
      watcher?.close();
      await server.close();
      if (!options.store) await store.close();
    },
  };
}

/**
 * Calls `onChange` (debounced) when the directory changes. A directory that
 * does not exist yet is not watched: tool calls still notice changes.
 */
function watchDirectory(dir: string, onChange: () => void): { close(): void } | undefined {
  let timer: NodeJS.Timeout | undefined;
  try {
    const watcher = watch(dir, { persistent: false }, () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, 100);
      timer.unref();
    });
    watcher.on('error', () => watcher.close());
    return {
      close() {
        clearTimeout(timer);
        watcher.close();
      },
    };
  } catch {
    return undefined;
  }
}
