import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const PACKAGE_NAME = /^(?:@[\w.-]+\/)?[\w.-]+$/;

/**
 * The version of package `name` a project installs: its `node_modules/<name>`
 * found the way Node resolves it from `projectDir` (the folder, then each
 * parent), read from the installed package.json; undefined when it is not
 * installed there. This is what makes a bare library name mean "the version
 * this project uses".
 *
 * @example
 * await installedVersion('.', 'zod'); // → '4.6.7'
 */
export async function installedVersion(projectDir: string, name: string): Promise<string | undefined> {
  if (!PACKAGE_NAME.test(name)) return undefined;
  let dir = path.resolve(projectDir);
  for (;;) {
    if (path.basename(dir) !== 'node_modules') {
      const manifest = await readFile(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8').catch(
        () => undefined,
      );
      if (manifest !== undefined) {
        return versionIn(manifest);
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
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
      const listed = await listing(folder);
      const notHere: string[] = [];
      for (const name of pending) {
        const manifest = (await listed(name))
          ? await readFile(path.join(folder, ...name.split('/'), 'package.json'), 'utf8').catch(() => undefined)
          : undefined;
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
  return versions;
}

/**
 * Whether a `node_modules` folder may hold a package, from its listing (and a scope's, read when first asked).
 * Names compare case-insensitively, so on a case-insensitive disk the package.json is still tried as
 * installedVersion would; on a case-sensitive one that read then fails alike.
 */
async function listing(folder: string): Promise<(name: string) => Promise<boolean>> {
  // A folder that cannot be listed for another reason than being absent is not ruled out: its files are tried.
  const entries = async (dir: string): Promise<Set<string> | undefined> => {
    try {
      return new Set((await readdir(dir)).map((entry) => entry.toLowerCase()));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
    }
  };
  const top = await entries(folder);
  const scopes = new Map<string, Promise<Set<string> | undefined>>();
  return async (name) => {
    const [first, second] = name.toLowerCase().split('/') as [string, string | undefined];
    if (top !== undefined && !top.has(first)) return false;
    if (second === undefined) return true;
    let scope = scopes.get(first);
    if (!scope) {
      scope = entries(path.join(folder, first));
      scopes.set(first, scope);
    }
    const inScope = await scope;
    return inScope === undefined || inScope.has(second);
  };
}

function versionIn(manifest: string): string | undefined {
  try {
    const version = (JSON.parse(manifest) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
