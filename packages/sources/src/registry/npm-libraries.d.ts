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
  }
}

declare module '@npmcli/config/lib/definitions/index.js' {
  export const definitions: unknown;
  export const shorthands: unknown;
  export const flatten: unknown;
  export const nerfDarts: readonly string[];
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
  export function manifest(spec: string, options: Record<string, unknown>): Promise<Manifest>;
  export function packument(spec: string, options: Record<string, unknown>): Promise<Packument>;
  export function extract(
    spec: string,
    dest: string,
    options: Record<string, unknown>,
  ): Promise<{ resolved: string; integrity: string; from: string }>;
}

declare module 'libnpmpublish' {
  export function publish(
    manifest: Record<string, unknown>,
    tarball: Buffer,
    options: Record<string, unknown>,
  ): Promise<unknown>;
}

declare module 'npm-registry-fetch' {
  function fetch(path: string, options: Record<string, unknown>): Promise<unknown>;
  namespace fetch {
    function json(path: string, options: Record<string, unknown>): Promise<Record<string, unknown>>;
    function pickRegistry(spec: string, options: Record<string, unknown>): string;
  }
  export default fetch;
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
