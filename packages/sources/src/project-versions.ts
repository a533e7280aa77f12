import { readFile } from 'node:fs/promises';
import path from 'node:path';

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
  if (!/^(?:@[\w.-]+\/)?[\w.-]+$/.test(name)) return undefined;
  let dir = path.resolve(projectDir);
  for (;;) {
    if (path.basename(dir) !== 'node_modules') {
      const manifest = await readFile(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8').catch(
        () => undefined,
      );
      if (manifest !== undefined) {
        try {
          const version = (JSON.parse(manifest) as { version?: unknown }).version;
          return typeof version === 'string' ? version : undefined;
        } catch {
          return undefined;
        }
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
