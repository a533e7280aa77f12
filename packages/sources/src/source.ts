import type { SkippedFile } from './walk.js';

/** The kinds of place documentation can come from. */
export type SourceKind = 'folder' | 'git' | 'website' | 'dependency';

/**
 * A source resolved to a local folder of documentation files, ready for
 * `buildPackage`, with what it says about the library. Call `dispose()` when
 * done (in a `finally`): it removes any temporary folder (a clone, fetched
 * pages) and is safe to call more than once.
 */
export interface ResolvedSource {
  readonly kind: SourceKind;
  /** The folder to build from. */
  readonly root: string;
  /** The library name, when the source says (a package.json, a repository or host name). */
  readonly name?: string;
  /** The library version, when the source says (a package.json, a tag, a commit, a date). */
  readonly version?: string;
  readonly description?: string;
  /** Where the docs came from, recorded in the package: a folder, a URL, a repository URL and commit. */
  readonly source: string;
  /** The commit a repository was built at. */
  readonly commit?: string;
  /** Things the user should know that did not stop the build. */
  readonly warnings: readonly string[];
  /** Documents found but not fetched or staged, and why. */
  readonly skipped: readonly SkippedFile[];
  dispose(): Promise<void>;
}

/** How far resolving a source has got; reported as it goes. */
export interface SourceProgress {
  readonly phase: 'clone' | 'fetch' | 'stage';
  /** Documents found so far. */
  readonly documents: number;
  /** Documents known to be coming, when known. */
  readonly total?: number;
  /** Bytes received or copied so far. */
  readonly bytes: number;
  readonly elapsedMs: number;
  /** What is being worked on: a URL, a repository. */
  readonly current?: string;
}
