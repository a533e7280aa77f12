import { readFile } from 'node:fs/promises';
import { parse, type TomlTable } from 'smol-toml';

/** One `[[package]]` of a Cargo.lock. */
export interface LockedPackage {
  readonly name: string;
  readonly version: string;
  /** `registry+…`, `sparse+…` or `git+…#<commit>`; absent for the workspace's own (path) packages. */
  readonly source?: string;
  /** As the lockfile writes them: `name`, or `name version` (and `(source)`) where two versions are locked. */
  readonly dependencies: readonly string[];
}

/** A manifest's or lockfile's TOML as a table, or undefined when the file is missing; a file that is not TOML throws. */
export async function readToml(file: string): Promise<TomlTable | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parse(text);
}

/** The packages a parsed Cargo.lock locks (any lockfile version: v1 to v4 share `[[package]]`). */
export function lockedPackages(lock: TomlTable): LockedPackage[] {
  const packages = lock.package;
  if (!Array.isArray(packages)) return [];
  const locked: LockedPackage[] = [];
  for (const entry of packages) {
    if (!isTable(entry)) continue;
    const { name, version, source, dependencies } = entry;
    if (typeof name !== 'string' || typeof version !== 'string') continue;
    locked.push({
      name,
      version,
      ...(typeof source === 'string' ? { source } : {}),
      dependencies: Array.isArray(dependencies) ? dependencies.filter((d): d is string => typeof d === 'string') : [],
    });
  }
  return locked;
}

export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * Cargo's crate-name equivalence: crates.io refuses a name that differs from another only by `-` against `_` or by
 * case, and Cargo treats `serde-json` and `serde_json` as the one crate.
 */
export function crateKey(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}
