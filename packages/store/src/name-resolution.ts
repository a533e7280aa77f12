// Which installed package a name means: pure functions over a listing (PackageStore.list(), highest version first),
// answering with data. The sentences a caller shows are written from that data in one place,
// resolution-messages.ts.
import semver from 'semver';
import { closestName } from './closest.js';
import type { InstalledPackage } from './installed-package.js';
import { formatPackageId, parsePackageSpec, sameCrateName } from './names.js';

/** Why a name could not be resolved, with what would help the caller retry. */
export type ResolveError =
  | {
      /** Nothing is installed at all. */
      readonly code: 'no-packages';
      readonly installed: readonly InstalledPackage[];
    }
  | {
      /** No library of that name is installed. */
      readonly code: 'unknown-library';
      /** The name as asked for. */
      readonly name: string;
      /** Everything installed, name ascending, highest version first. */
      readonly installed: readonly InstalledPackage[];
      /** The closest installed name, when one is close. */
      readonly suggestion?: string;
    }
  | {
      /** The library is installed, but no version of it is, or is in, the one asked for. */
      readonly code: 'unknown-version';
      readonly version: string;
      /** The library's installed versions, highest first (never empty). */
      readonly versions: readonly InstalledPackage[];
      readonly installed: readonly InstalledPackage[];
      /** The highest installed version, as `name@version`. */
      readonly suggestion: string;
    };

/**
 * A name resolved to an installed package, or why not. `prerelease` is set when the version asked for was met only
 * by a prerelease (`5` → 5.0.0-rc.2): the caller says so (resolution-messages.ts' `prereleaseNote`).
 */
export type ResolveResult =
  | { readonly ok: true; readonly value: InstalledPackage; readonly prerelease?: { readonly asked: string } }
  | { readonly ok: false; readonly error: ResolveError };

/**
 * The package `spec` (`name` or `name@version`, case-insensitive) names among `installed`, listed highest version
 * first. A bare name (or `version` "latest") gives the highest version; a version that is not installed exactly but
 * is a semver range ("5", "^5.0.0") gives the highest release in it, else the highest prerelease of a version in it
 * (`5` → 5.0.0-rc.2, which semver alone leaves out of `5`). `version`, when given, wins over the spec's.
 *
 * @example
 * const found = resolveName(await store.list(), 'vitest@3');
 * if (found.ok) console.log(found.value.version); // the highest 3.x installed
 */
export function resolveName(installed: readonly InstalledPackage[], spec: string, version?: string): ResolveResult {
  const parsed = parsePackageSpec(spec.trim());
  const wantedVersion = version ?? parsed.version;
  if (installed.length === 0) return { ok: false, error: { code: 'no-packages', installed } };
  const versions = versionsOf(installed, parsed.name);
  if (versions.length === 0) {
    const suggestion = closestName(parsed.name, [...new Set(installed.map((p) => p.name))]);
    return {
      ok: false,
      error: { code: 'unknown-library', name: parsed.name, installed, ...(suggestion ? { suggestion } : {}) },
    };
  }
  const highest = versions[0] as InstalledPackage;
  if (wantedVersion === undefined || wantedVersion === '' || wantedVersion === 'latest') {
    return { ok: true, value: highest };
  }
  const exact = versions.find((p) => p.version.toLowerCase() === wantedVersion.toLowerCase());
  if (exact) return { ok: true, value: exact };
  const range = semver.validRange(wantedVersion, { loose: true });
  if (range) {
    // Releases first, as npm picks them (a prerelease only where the range names one of its own tuple).
    const release = versions.find((p) => semver.satisfies(p.version, range, { loose: true }));
    if (release) return { ok: true, value: release };
    const prerelease = versions.find((p) => isPrereleaseIn(p.version, range));
    if (prerelease) return { ok: true, value: prerelease, prerelease: { asked: wantedVersion } };
  }
  return {
    ok: false,
    error: {
      code: 'unknown-version',
      version: wantedVersion,
      versions,
      installed,
      suggestion: formatPackageId(highest),
    },
  };
}

/** Why `spec` names no one package to remove. */
export type RemoveError =
  | {
      readonly code: 'not-installed';
      /** The spec as asked for. */
      readonly spec: string;
      /** The library's installed versions when it has any, else everything installed. */
      readonly known: readonly InstalledPackage[];
    }
  | {
      /** A bare name of a library with several versions installed. */
      readonly code: 'ambiguous';
      readonly name: string;
      readonly matches: readonly InstalledPackage[];
    };

/**
 * The one package `spec` names for removal: `name@version`, or `name` when exactly one version is installed. Unlike
 * {@link resolveName}, no range and no "highest": a removal names exactly what goes.
 */
export function packageToRemove(
  installed: readonly InstalledPackage[],
  spec: string,
): { readonly ok: true; readonly value: InstalledPackage } | { readonly ok: false; readonly error: RemoveError } {
  const { name, version } = parsePackageSpec(spec.trim());
  const versions = installed.filter((p) => p.name.toLowerCase() === name.toLowerCase());
  const sameVersion =
    version === undefined ? versions : versions.filter((p) => p.version.toLowerCase() === version.toLowerCase());
  // Two spellings of one name may have been installed before names were compared
  // without case: the exact spelling, as list shows it, picks one of them.
  const exact = sameVersion.filter((p) => p.name === name && (version === undefined || p.version === version));
  const matches = sameVersion.length > 1 && exact.length === 1 ? exact : sameVersion;
  if (matches.length === 0) {
    return { ok: false, error: { code: 'not-installed', spec, known: versions.length > 0 ? versions : installed } };
  }
  if (matches.length > 1) return { ok: false, error: { code: 'ambiguous', name, matches } };
  return { ok: true, value: matches[0] as InstalledPackage };
}

/**
 * The installed versions of the library `name` means, highest first: its name whatever the case, else (Cargo treats
 * `-` and `_` in crate names as one) `serde-json` for the crate `serde_json`; of two spellings installed by an older
 * docs, the one asked for exactly.
 */
function versionsOf(installed: readonly InstalledPackage[], name: string): readonly InstalledPackage[] {
  const lower = name.toLowerCase();
  const exactly = installed.filter((p) => p.name.toLowerCase() === lower);
  const sameName = exactly.length > 0 ? exactly : installed.filter((p) => sameCrateName(p.name, name));
  const spelled = sameName.filter((p) => p.name === name);
  return spelled.length > 0 && spelled.length < sameName.length ? spelled : sameName;
}

/**
 * Whether a prerelease belongs to a range: it satisfies the range once
 * prereleases count, or the release it leads to (5.0.0-rc.2 → 5.0.0) does.
 */
function isPrereleaseIn(version: string, range: string): boolean {
  const parsed = semver.parse(version, { loose: true });
  if (!parsed || parsed.prerelease.length === 0) return false;
  return (
    semver.satisfies(parsed, range, { includePrerelease: true, loose: true }) ||
    semver.satisfies(`${parsed.major}.${parsed.minor}.${parsed.patch}`, range, { loose: true })
  );
}
