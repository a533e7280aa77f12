/** The server's name in a host's configuration. */
export const SERVER_NAME = 'docs';

/** One stdio server as the hosts' JSON files hold it. */
export interface ServerEntry {
  readonly type?: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** What starts this docs: the Node running it and its bin, both absolute. */
export interface Launch {
  readonly node: string;
  readonly bin: string;
  /** The store to serve, when the user chose one (--home, $DOCS_HOME): a host started from a desktop has no shell. */
  readonly home?: string | undefined;
}

/**
 * The entry that starts `docs serve`: this Node and this docs's bin by absolute path, never a name to look up
 * (`npx docs` once ran the unrelated npm package "docs"), nor the PATH a desktop host may not have.
 *
 * @example
 * serverEntry({ node: '/usr/bin/node', bin: '/opt/docs/dist/bin.cjs' }, { typed: true });
 * // { type: 'stdio', command: '/usr/bin/node', args: ['/opt/docs/dist/bin.cjs', 'serve'] }
 */
export function serverEntry(launch: Launch, options: { readonly typed: boolean }): ServerEntry {
  return {
    ...(options.typed ? { type: 'stdio' as const } : {}),
    command: launch.node,
    args: [launch.bin, 'serve'],
    ...(launch.home ? { env: { DOCS_HOME: launch.home } } : {}),
  };
}

/**
 * Whether a server entry already in a file is one docs wrote or would have (`docs serve`, by its bin, `docs` or
 * `@docs/cli`): such an entry is replaced or removed; any other server of that name is the user's and is left alone.
 */
export function isDocsServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== 'string' || !Array.isArray(args) || !args.includes('serve')) return false;
  return [command, ...args].some(
    (part) => typeof part === 'string' && /(^|[\\/])(docs(\.cmd|\.exe)?|bin\.c?js)$|^@docs\/cli(@|$)/.test(part),
  );
}
