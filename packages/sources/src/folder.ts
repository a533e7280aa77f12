import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePackageSpec } from '@docs/store';
import type { ResolvedSource } from './source.js';

/**
 * A local folder as a source: built where it is (nothing to clean up). The
 * name, version and description come from a package.json in the folder, else
 * from a folder named `name@version`.
 *
 * @example
 * const source = await openFolder('./docs/mylib@1.2.0'); // → { name: 'mylib', version: '1.2.0', ... }
 */
export async function openFolder(folder: string): Promise<ResolvedSource> {
  const root = path.resolve(folder);
  return {
    kind: 'folder',
    root,
    ...(await inferIdentity(root)),
    source: root,
    warnings: [],
    skipped: [],
    dispose: async () => {},
  };
}

async function inferIdentity(root: string): Promise<{ name?: string; version?: string; description?: string }> {
  try {
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (typeof manifest.name === 'string' && typeof manifest.version === 'string') {
      return {
        name: manifest.name,
        version: manifest.version,
        ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
      };
    }
  } catch {
    // No readable package.json: fall through to the folder name.
  }
  const { name, version } = parsePackageSpec(path.basename(root));
  return version ? { name, version } : {};
}
