import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { goRequirements } from './go/project-requirements.js';
import { crateKey } from './rust/cargo-files.js';
import { lockedCrateVersions } from './rust/locked-versions.js';

const PACKAGE_NAME = /^(?:@[\w.-]+\/)?[\w.-]+$/;

/**
 * Where a name that no npm package installed here holds may be pinned instead, tried in order: the module the nearest
 * go.work or go.mod requires (`cobra` → `1.8.1`), the crate the nearest Cargo.lock pins (`serde-json` and `serde_json`
 * alike). Each reads its files when first asked.
 */
const OTHER_ECOSYSTEMS: readonly ((projectDir: string) => (name: string) => string | undefined)[] = [
  (projectDir) => {
    const required = goRequirements(projectDir);
    return (name) => required.get(name.toLowerCase());
  },
  (projectDir) => {
    const locked = lockedCrateVersions(projectDir);
    return (name) => locked.get(crateKey(name));
  },
];

/** The version another ecosystem's files in `projectDir` pin for a name, by {@link OTHER_ECOSYSTEMS}. */
function pinnedElsewhere(projectDir: string): (name: string) => string | undefined {
  const lookups: ((name: string) => string | undefined)[] = [];
  return (name) => {
    for (const [index, open] of OTHER_ECOSYSTEMS.entries()) {
      lookups[index] ??= open(projectDir);
      const version = lookups[index](name);
      if (version !== undefined) return version;
    }
    return undefined;
  };
}

/**
 * The version of package `name` a project installs: its `node_modules/<name>`
 * found the way Node resolves it from `projectDir` (the folder, then each
 * parent), read from the installed package.json; undefined when it is not
 * installed there, or the version another ecosystem's files pin for the name (see {@link OTHER_ECOSYSTEMS}). This
 * is what makes a bare library name mean "the version this project uses".
 *
 * @example
 * await installedVersion('.', 'zod'); // → '4.6.7'
 */
export async function installedVersion(projectDir: string, name: string): Promise<string | undefined> {
  if (!PACKAGE_NAME.test(name)) return undefined;
  let dir = path.resolve(projectDir);
  for (;;) {
    if (path.basename(dir) !== 'node_modules') {
      const manifest = readIfThere(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'));
      if (manifest !== undefined) {
        return versionIn(manifest);
      }
    }
    const parent = path.dirname(dir);
    // Not an npm package here: a version another ecosystem's files pin, if any.
    if (parent === dir) return pinnedElsewhere(projectDir)(name);
    dir = parent;
  }
}

/**
 * {@link installedVersion} of many packages at once, as a map from each installed name to its version. Each
 * `node_modules` folder on the way up is listed once, and only the package.json of a name it holds is read: a
 * store of a thousand libraries asked one by one would try a thousand missing files per folder.
 *
 * @example
 * await installedVersions('.', ['zod', 'vitest']); // → Map { 'zod' => '4.6.7' }
 */
export async function installedVersions(projectDir: string, names: Iterable<string>): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  let pending = [...new Set(names)].filter((name) => PACKAGE_NAME.test(name));
  let dir = path.resolve(projectDir);
  while (pending.length > 0) {
    if (path.basename(dir) !== 'node_modules') {
      const folder = path.join(dir, 'node_modules');
      const listed = listing(folder);
      const notHere: string[] = [];
      for (const name of pending) {
        const manifest = listed(name) ? readIfThere(path.join(folder, ...name.split('/'), 'package.json')) : undefined;
        if (manifest === undefined) {
          notHere.push(name);
          continue;
        }
        // Found here, as installedVersion stops here: a broken or version-less package.json gives no version.
        const version = versionIn(manifest);
        if (version !== undefined) versions.set(name, version);
      }
      pending = notHere;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (pending.length > 0) {
    const pinned = pinnedElsewhere(projectDir);
    for (const name of pending) {
      const version = pinned(name);
      if (version !== undefined) versions.set(name, version);
    }
  }
  return versions;
}

/**
 * Whether a `node_modules` folder may hold a package, from its listing (and a scope's, read when first asked).
 * Names compare case-insensitively, so on a case-insensitive disk the package.json is still tried as
 * installedVersion would; on a case-sensitive one that read then fails alike.
 */
function listing(folder: string): (name: string) => boolean {
  // A folder that cannot be listed for another reason than being absent is not ruled out: its files are tried.
  const entries = (dir: string): Set<string> | undefined => {
    try {
      return new Set(readdirSync(dir).map((entry) => entry.toLowerCase()));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
    }
  };
  const top = entries(folder);
  const scopes = new Map<string, Set<string> | undefined>();
  return (name) => {
    const [first, second] = name.toLowerCase().split('/') as [string, string | undefined];
    if (top !== undefined && !top.has(first)) return false;
    if (second === undefined) return true;
    if (!scopes.has(first)) scopes.set(first, entries(path.join(folder, first)));
    const inScope = scopes.get(first);
    return inScope === undefined || inScope.has(second);
  };
}

/**
 * A file's text, or undefined when it cannot be read. Read synchronously, as the listings above: each lookup is a
 * few microseconds this way, where a promise-based one goes through libuv's thread pool for the open, the stat, the
 * read and the close (~0.7 ms a get_docs call on a busy machine, for the missing files of the folders walked up).
 */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function versionIn(manifest: string): string | undefined {
  try {
    const version = (JSON.parse(manifest) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
