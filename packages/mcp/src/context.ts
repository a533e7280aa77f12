import {
  isScoped as isScopedSearch,
  type SearchModels,
  type SentSections,
  servedLatest as searchServedLatest,
  servedPackages as searchServedPackages,
} from '@docs/search';
import type { InstalledPackage, PackageStore } from '@docs/store';

/** What the tools work on. */
export interface DocsToolContext {
  /** The store the tools read; re-read on every call, so packages added or removed while running are seen. */
  readonly store: PackageStore;
  /**
   * Serve only these libraries (`name`: any installed version, the highest by
   * default; `name@version` or a range: the version it resolves to).
   * @default every installed library
   */
  readonly libraries?: readonly string[];
  /** Where searches get a query embedder and a re-ranker; none → lexical. @default none */
  readonly models?: SearchModels;
  /**
   * The version of a library the project being worked on installs, when there is one: get_docs answers a bare
   * name from that version when it is served, and says so when it is not. @default none (the highest version)
   */
  readonly projectVersion?: (name: string) => Promise<string | undefined>;
  /**
   * projectVersion for many names at once (the installed ones among them, by name): search_all asks for every
   * library installed in more than one version, and one walk up the project's folders answers them all.
   * @default projectVersion asked for each name
   */
  readonly projectVersions?: (names: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /**
   * Declare each tool's output schema and send its structured form (`structuredContent`) beside the text, for
   * programs that read the answers' fields over MCP. Off by default: Claude Code, Codex and OpenCode give the model
   * a result's structured form in place of its text whenever it has one, and the text is the answer written for
   * the model (a search's sections are in it, not in the structured form); the four output schemas also cost more
   * than the rest of tools/list together. The HTTP API answers with the structured form either way. @default false
   */
  readonly structuredContent?: boolean;
  /**
   * The memory of the session a tool call belongs to (`session`: its MCP session id, when the transport has one):
   * get_docs and search_all list the sections it was sent in full before instead of sending them again, and add the
   * ones they send (see SessionMemory). Undefined, or undefined for a session: every call is answered in full, as
   * the CLI's are. Never one memory for calls of different sessions: each would be told another's sections were
   * sent. @default none
   */
  readonly memory?: (session: string | undefined) => SentSections | undefined;
  /**
   * The builds of the libraries the project installs, when the server follows its project (`docs serve`): get_docs
   * asked for a bare name whose installed version the store lacks waits a bounded time for its build, and says when
   * it is still being built. @default none: such a library is answered as the store holds it
   */
  readonly builds?: LibraryBuilds;
  /** Told of every failure a tool turned into an error result, for the server's log. */
  readonly onError?: (error: unknown, tool: string) => void;
}

/** Where a library's build stands, as LibraryBuilds.awaitBuild answers. */
export type LibraryBuildState =
  /** Built now: the store holds it. */
  | { readonly state: 'built' }
  /** Still being built (here or by another docs); asking again after about this many seconds should find it. */
  | { readonly state: 'building'; readonly retryAfterSeconds: number }
  /** No build of it is under way or planned (not a dependency of the project, built already, or its build failed). */
  | { readonly state: 'none' };

/** The builds of the libraries a project installs (a server following its project). */
export interface LibraryBuilds {
  /**
   * Called at the start of every tool call: where the project cannot be watched, a few stats notice an install
   * (nothing where it is watched).
   */
  check(): void;
  /**
   * Waits, a bounded time, for the build of `name@version` when it is planned or under way (and puts it first);
   * answers at once when it is not.
   */
  awaitBuild(name: string, version: string): Promise<LibraryBuildState>;
  /** The libraries (`name@version`) planned or being built now: search_all names them, since it waits for none. */
  building(): readonly string[];
}

/** The installed packages this server serves (see servedPackages in @docs/search). */
export function servedPackages(context: DocsToolContext): Promise<InstalledPackage[]> {
  return searchServedPackages(context.store, context.libraries);
}

/** The highest served version of each served library. */
export function servedLatest(context: DocsToolContext): Promise<InstalledPackage[]> {
  return searchServedLatest(context.store, context.libraries);
}

export function isScoped(context: DocsToolContext): boolean {
  return isScopedSearch(context.libraries);
}

/** Why a library could not be used, in the shape the tools' output schemas share. */
export interface Unresolved {
  readonly status: 'no-packages' | 'unknown-library' | 'unknown-version';
  readonly message: string;
  readonly installed: readonly string[];
  readonly suggestion?: string;
}

/**
 * An answer's library error, when it is one: the search resolved the library (within the server's scope) and
 * wrote the message; the tools only choose how to show it.
 */
export function unresolvedOf(answer: {
  readonly status: string;
  readonly message: string;
  readonly installed?: readonly string[];
  readonly suggestion?: string;
}): Unresolved | undefined {
  const { status } = answer;
  if (status !== 'no-packages' && status !== 'unknown-library' && status !== 'unknown-version') return undefined;
  return {
    status,
    message: answer.message,
    installed: answer.installed ?? [],
    ...(answer.suggestion ? { suggestion: answer.suggestion } : {}),
  };
}
