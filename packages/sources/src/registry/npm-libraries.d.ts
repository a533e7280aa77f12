// The parts of npm's own libraries this package calls. They ship JavaScript only, and the
// DefinitelyTyped packages lag their majors; these declarations cover what is used, no more.

declare module '@npmcli/config' {
  interface ConfigOptions {
    definitions: unknown;
    shorthands: unknown;
    flatten: unknown;
    nerfDarts?: readonly string[];
    npmPath: string;
    env?: Record<string, string | undefined>;
    argv?: readonly string[];
    cwd?: string;
    warn?: boolean;
  }
  export default class Config {
    constructor(options: ConfigOptions);
    load(): Promise<void>;
    readonly flat: Record<string, unknown>;
    /** Each layer (`default`, `env`, `cli`, `project`, `user`, `global`): where it was read from and what it says. */
    readonly data: ReadonlyMap<string, { readonly source?: string; readonly raw?: Record<string, unknown> }>;
    get(key: string, where?: string): unknown;
    delete(key: string, where?: string): void;
  }
}

// CommonJS modules whose exports Node's ESM loader cannot name: import their default export.

declare module '@npmcli/config/lib/definitions/index.js' {
  const exports: {
    readonly definitions: unknown;
    readonly shorthands: unknown;
    readonly flatten: unknown;
    readonly nerfDarts: readonly string[];
  };
  export default exports;
}

declare module 'pacote' {
  interface Manifest {
    readonly name: string;
    readonly version: string;
    readonly _resolved: string;
    readonly _integrity: string;
    readonly [field: string]: unknown;
  }
  interface Packument {
    readonly name: string;
    readonly versions: Readonly<Record<string, Record<string, unknown>>>;
    readonly 'dist-tags': Readonly<Record<string, string>>;
  }
  const pacote: {
    manifest(spec: string, options: Record<string, unknown>): Promise<Manifest>;
    packument(spec: string, options: Record<string, unknown>): Promise<Packument>;
    extract(
      spec: string,
      dest: string,
      options: Record<string, unknown>,
    ): Promise<{ resolved: string; integrity: string; from: string }>;
    tarball: {
      /** The tarball as a stream, checked against `options.integrity` as it is read (the handler's promise rejects on a mismatch). */
      stream<T>(
        spec: string,
        handler: (stream: NodeJS.ReadableStream) => Promise<T>,
        options: Record<string, unknown>,
      ): Promise<T>;
    };
  };
  export default pacote;
}

declare module 'libnpmpublish' {
  const libnpmpublish: {
    publish(manifest: Record<string, unknown>, tarball: Buffer, options: Record<string, unknown>): Promise<unknown>;
  };
  export default libnpmpublish;
}

declare module 'npm-package-arg' {
  interface Result {
    readonly type: 'git' | 'tag' | 'version' | 'range' | 'file' | 'directory' | 'remote' | 'alias';
    readonly name: string | null;
    readonly scope: string | null;
    readonly rawSpec: string;
    readonly fetchSpec: string | null;
  }
  function npa(spec: string): Result;
  export default npa;
}
