import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { parse } from 'smol-toml';
import { crateKey, type LockedPackage, lockedPackages } from './cargo-files.js';

/**
 * The versions of crates the Cargo.lock nearest `projectDir` (the folder, then each parent: a workspace member's lock is
 * at the workspace root) pins, by {@link crateKey} (`serde-json` and `serde_json` alike). Where two versions of a crate
 * are locked, the one the workspace's own packages depend on (`serde 1.0.217` in their `dependencies`), else the
 * highest. Read synchronously, as the node_modules lookups beside it: a bare library name in `docs get` costs a few
 * file reads. A lockfile that is not TOML answers nothing, as a project without one does.
 *
 * @example
 * lockedCrateVersions('.').get(crateKey('serde-json')); // → '1.0.135'
 */
export function lockedCrateVersions(projectDir: string): Map<string, string> {
  const versions = new Map<string, string>();
  const locked = readLock(path.resolve(projectDir));
  if (locked === undefined) return versions;
  const direct = new Set(
    locked
      .filter((p) => p.source === undefined)
      .flatMap((p) => p.dependencies)
      .map((d) => d.split(' ').slice(0, 2).join(' ')),
  );
  const byKey = new Map<string, LockedPackage[]>();
  for (const pkg of locked) {
    if (pkg.source === undefined) continue;
    const key = crateKey(pkg.name);
    byKey.set(key, [...(byKey.get(key) ?? []), pkg]);
  }
  for (const [key, candidates] of byKey) {
    const chosen =
      candidates.length === 1
        ? candidates[0]
        : (candidates.find((c) => direct.has(`${c.name} ${c.version}`)) ??
          [...candidates].sort((a, b) =>
            semver.valid(a.version) && semver.valid(b.version) ? semver.rcompare(a.version, b.version) : 0,
          )[0]);
    if (chosen) versions.set(key, chosen.version);
  }
  return versions;
}

function readLock(from: string): LockedPackage[] | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(path.join(dir, 'Cargo.lock'), 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      try {
        return lockedPackages(parse(text));
      } catch {
        return undefined;
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
