import semver from 'semver';
import { StoreError } from './errors.js';

// npm-style names, optionally scoped. `+` is reserved: it stands for the
// scope's `/` in file names, so a name can round-trip through its file name.
const NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/i;
// Anything a tag, date or semver can hold, but never `@` or a path separator.
const VERSION = /^[a-z0-9][a-z0-9._+-]*$/i;

/** The name and version that identify one documentation package. */
export interface PackageId {
  readonly name: string;
  readonly version: string;
}

/** Throws StoreError('invalid-name') unless `name` is a valid library name. */
export function assertValidName(name: string): void {
  if (!NAME.test(name) || name.length > 214) {
    throw new StoreError(
      'invalid-name',
      `invalid library name "${name}": use letters, digits, ".", "_" and "-", optionally with an @scope/ prefix`,
    );
  }
}

/** Throws StoreError('invalid-version') unless `version` is a valid version label. */
export function assertValidVersion(version: string): void {
  if (!VERSION.test(version) || version.length > 128) {
    throw new StoreError(
      'invalid-version',
      `invalid version "${version}": use letters, digits, ".", "_", "+" and "-" (e.g. 1.2.3, 5.0.0-rc.2, 2026-07-15)`,
    );
  }
}

/** `name@version`, the label every result carries. */
export function formatPackageId(id: PackageId): string {
  return `${id.name}@${id.version}`;
}

/**
 * Splits `name` or `name@version` (the first `@` of a scoped name is part of
 * the name). The version is undefined for a bare name.
 */
export function parsePackageSpec(spec: string): { name: string; version: string | undefined } {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { name: spec, version: undefined };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/** `<name>@<version>.db`, with a scope's `/` written as `+`. */
export function packageFileName(id: PackageId): string {
  return `${id.name.replace('/', '+')}@${id.version}.db`;
}

/** The inverse of packageFileName; undefined for files that are not packages. */
export function parsePackageFileName(file: string): PackageId | undefined {
  if (!file.endsWith('.db') || file.startsWith('.')) return undefined;
  const { name: encoded, version } = parsePackageSpec(file.slice(0, -'.db'.length));
  if (version === undefined) return undefined;
  const name = encoded.startsWith('@') ? encoded.replace('+', '/') : encoded;
  return NAME.test(name) && VERSION.test(version) ? { name, version } : undefined;
}

/**
 * Orders library names alphabetically, ignoring case, as `localeCompare` does for the letters, digits and
 * punctuation names are made of, without it: the first `localeCompare` in a process loads ICU's collator
 * (~15 ms), as much as a whole `docs list` spends otherwise.
 */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders version labels, lowest first. Semver versions compare by semver
 * (a prerelease sits below its release). Labels that only look numbered
 * ("11.x", "2026-07-15", "v2") compare by their leading numbers and sit just
 * below the exact semver of the same numbers. Labels with no number at all
 * ("latest", "main") sit below every numbered one, ordered by name.
 */
export function compareVersions(a: string, b: string): number {
  const ka = versionKey(a);
  const kb = versionKey(b);
  if (ka.semver && kb.semver) {
    const bySemver = semver.compare(ka.semver, kb.semver);
    if (bySemver !== 0) return bySemver;
    if (ka.exact !== kb.exact) return ka.exact ? 1 : -1;
  } else if (ka.semver || kb.semver) {
    return ka.semver ? 1 : -1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function versionKey(label: string): { semver: semver.SemVer | null; exact: boolean } {
  const exact = semver.parse(label, { loose: true });
  if (exact) return { semver: exact, exact: true };
  return { semver: semver.coerce(label), exact: false };
}
