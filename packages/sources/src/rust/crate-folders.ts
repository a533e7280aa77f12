import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isTable, type LockedPackage, readToml } from './cargo-files.js';

// What a crate name and version may be (crates.io's rule, and semver's characters): a lockfile is untrusted, and
// neither may lead a path out of the registry's folder.
const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const CRATE_VERSION = /^[0-9][0-9A-Za-z.+-]{0,99}$/;
const GIT_COMMIT = /#([0-9a-f]{7,40})$/;

/** Cargo's home: `$CARGO_HOME`, else `~/.cargo`, as Cargo finds it. */
export function cargoHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.CARGO_HOME;
  return set !== undefined && set !== '' ? path.resolve(set) : path.join(homedir(), '.cargo');
}

/** Where Cargo keeps what it fetched, and the project's own vendored copies. */
export interface CrateSources {
  /** `$CARGO_HOME/registry/src/<registry>/`, one per registry Cargo has fetched from. */
  readonly registries: readonly string[];
  /** `$CARGO_HOME/git/checkouts`. */
  readonly gitCheckouts: string;
  /** The workspace's `vendor/` (what `cargo vendor` writes), if there is one. */
  readonly vendor?: string;
}

export async function crateSources(workspaceRoot: string, home: string): Promise<CrateSources> {
  const registrySrc = path.join(home, 'registry', 'src');
  const registries = (await readdir(registrySrc, { withFileTypes: true }).catch(() => [] as Dirent[]))
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(registrySrc, entry.name))
    .sort();
  const vendor = path.join(workspaceRoot, 'vendor');
  const hasVendor = (await stat(vendor).catch(() => undefined))?.isDirectory() === true;
  return { registries, gitCheckouts: path.join(home, 'git', 'checkouts'), ...(hasVendor ? { vendor } : {}) };
}

/**
 * The folder holding a locked crate's source at its locked version, or undefined when Cargo has not fetched it:
 * `vendor/<name>-<version>` or `vendor/<name>` (whose Cargo.toml says that version), a registry's
 * `<name>-<version>`, or for a git dependency the checkout of its locked commit (the crate's folder in it).
 */
export async function findCrateFolder(crate: LockedPackage, sources: CrateSources): Promise<string | undefined> {
  if (!CRATE_NAME.test(crate.name) || !CRATE_VERSION.test(crate.version)) return undefined;
  if (sources.vendor !== undefined) {
    for (const folder of [`${crate.name}-${crate.version}`, crate.name]) {
      const dir = path.join(sources.vendor, folder);
      if ((await manifestOf(dir))?.version === crate.version) return realpath(dir);
    }
  }
  if (crate.source?.startsWith('git+')) return gitCheckout(crate, sources.gitCheckouts);
  for (const registry of sources.registries) {
    const dir = path.join(registry, `${crate.name}-${crate.version}`);
    if ((await stat(path.join(dir, 'Cargo.toml')).catch(() => undefined))?.isFile()) return realpath(dir);
  }
  return undefined;
}

/**
 * A git dependency's crate in Cargo's checkout of the locked commit: `git/checkouts/<repo>-<hash>/<short commit>/`,
 * the crate's Cargo.toml at the top or a few folders down (a repository of many crates).
 */
async function gitCheckout(crate: LockedPackage, checkouts: string): Promise<string | undefined> {
  const commit = GIT_COMMIT.exec(crate.source ?? '')?.[1];
  if (commit === undefined) return undefined;
  const repos = await readdir(checkouts, { withFileTypes: true }).catch(() => [] as Dirent[]);
  for (const repo of repos.filter((entry) => entry.isDirectory())) {
    const revisions = await readdir(path.join(checkouts, repo.name)).catch(() => [] as string[]);
    for (const revision of revisions) {
      if (!commit.startsWith(revision) || revision.length < 7) continue;
      const found = await findManifestNamed(path.join(checkouts, repo.name, revision), crate.name, 3);
      if (found !== undefined) return realpath(found);
    }
  }
  return undefined;
}

async function findManifestNamed(dir: string, name: string, depth: number): Promise<string | undefined> {
  if ((await manifestOf(dir))?.name === name) return dir;
  if (depth === 0) return undefined;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'target') continue;
    const found = await findManifestNamed(path.join(dir, entry.name), name, depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A crate's `[package]` name and version from its Cargo.toml; undefined when it has none or is not TOML. */
export async function manifestOf(dir: string): Promise<{ name?: string; version?: string } | undefined> {
  const manifest = await readToml(path.join(dir, 'Cargo.toml')).catch(() => undefined);
  const pkg = manifest?.package;
  if (!isTable(pkg)) return undefined;
  return {
    ...(typeof pkg.name === 'string' ? { name: pkg.name } : {}),
    ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}),
  };
}
