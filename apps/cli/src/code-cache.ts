import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/** What the bundle's CommonJS wrapper is called with, beyond Node's own five. */
type BundleWrapper = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
  load: (specifier: string) => Promise<unknown>,
) => void;

/** A script loaded with V8's code cache, and how to keep what this run compiled for the next one. */
export interface CachedScript<T> {
  readonly exports: T;
  /** Whether V8 took code from the cache (else it compiled the bundle, and `save()` writes the cache). */
  readonly cached: boolean;
  /** Writes the compiled code to the cache when it had none for this file (or V8 refused it); never throws. */
  save(): void;
}

/**
 * Runs a CommonJS bundle (esbuild's `format: 'cjs'`) through `vm.Script` with V8's code cache, so a process that
 * starts again skips compiling it: Node 20 has no compile cache of its own (`module.enableCompileCache` came in
 * 22.1), and what a short command spends compiling its modules is most of what it adds to Node's start.
 *
 * The cache is one file per bundle file (its path, size and change time), Node version and `key`, in `cacheDir`;
 * `save()` after the command has run keeps the functions it compiled on the way, not only the top level, so each
 * `key` (the command) gets the code it runs. V8 checks the rest (its version, flags, the source's length) and
 * refuses a cache that does not fit, which is then written anew. A cache that cannot be read or written is only a
 * slower start: the command runs the same.
 *
 * A `vm.Script` has no `import()` of its own without an experimental flag, so the bundle's dynamic imports are
 * given as `load`, an `import()` of the caller's (the bundle sits beside it, so specifiers resolve the same).
 */
export function runCachedScript<T>(
  file: string,
  options: {
    readonly cacheDir: string;
    readonly key: string;
    readonly require: NodeJS.Require;
    readonly load: (specifier: string) => Promise<unknown>;
  },
): CachedScript<T> {
  const source = readFileSync(file, 'utf8');
  const stats = statSync(file);
  // The same bundle file unchanged: V8 itself only compares the source's length.
  const prefix = `${path.basename(file)}-${options.key}-${hashOf(file)}-`;
  const cacheFile = path.join(
    options.cacheDir,
    `${prefix}${process.version}-${stats.size}-${Math.trunc(stats.mtimeMs)}.bin`,
  );
  const cachedData = readIfThere(cacheFile);
  // On the wrapper's line, so the bundle's own line numbers stay right in stack traces.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __docsImport) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} };
  (script.runInThisContext() as BundleWrapper)(
    module.exports,
    options.require,
    module,
    file,
    path.dirname(file),
    options.load,
  );
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports as T,
    cached,
    save() {
      if (cached) return;
      try {
        mkdirSync(options.cacheDir, { recursive: true });
        // Caches of this bundle file's earlier versions (or an earlier Node) are of no more use; so are those of
        // bundles elsewhere (an older npx install, a removed clone) not written for a month. One still in use is
        // then written again by its next run.
        const monthAgo = Date.now() - 30 * 24 * 60 * 60 * 1000;
        for (const old of readdirSync(options.cacheDir)) {
          if (old === path.basename(cacheFile)) continue;
          const oldFile = path.join(options.cacheDir, old);
          const written = statSync(oldFile, { throwIfNoEntry: false })?.mtimeMs;
          if (old.startsWith(prefix) || (written !== undefined && written < monthAgo)) rmSync(oldFile, { force: true });
        }
        // Written whole under another name and renamed, so a process starting meanwhile reads all of it or none.
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // A read-only or full disk: the next start compiles again, as it would with no cache.
      }
    },
  };
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** FNV-1a of a string, as 8 hex digits: a short, stable name for the bundle's path (no crypto to load at start). */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
