/** A running registry and a project whose .npmrc points the scope at it with a token. */
export interface TestRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly token: string;
  /** Where verdaccio keeps tarballs: `<storage>/@acme/docs-x/docs-x-1.0.0.tgz`. */
  readonly storage: string;
  /** A folder with a package.json and an .npmrc for the scope (the token included): the cwd to pass. */
  readonly project: string;
  /** An environment with no npm settings but a cache, user config and HOME of the registry's own. */
  readonly env: NodeJS.ProcessEnv;
  /** The .npmrc lines: the scope's registry and its token. */
  readonly npmrcText: string;
  /** Writes the project's .npmrc with another token (or none). */
  npmrc(token: string | undefined): Promise<void>;
  close(): Promise<void>;
}

/** Starts verdaccio on 127.0.0.1 (port 0: a free one) with a temp storage and one user. */
export function startRegistry(scope?: string, port?: number): Promise<TestRegistry>;
