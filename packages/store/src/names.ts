import semver from 'semver';
import { StoreError } from './errors.js';
import { goLibraryName, isGoModulePath, storedGoVersion } from './go-module-name.js';

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

/** npm's limit on a package name, which every library name docs reads from a registry keeps too. */
export const MAX_NAME_LENGTH = 214;

/**
 * The longest file name a package's may be: 255 bytes (ext4, APFS, NTFS) less what docs adds to it for the files it
 * keeps beside it, the longest being a vector job's work file `.<file>.<12 hex>.vectors-journal` (30 more). Names
 * and versions are ASCII (see NAME and VERSION), so characters are bytes.
 */
export const MAX_FILE_NAME_LENGTH = 255 - '..123456789abc.vectors-journal'.length;

/** Throws StoreError('invalid-name') unless `name` is a valid library name. */
export function assertValidName(name: string): void {
  if (name.length > MAX_NAME_LENGTH) {
    throw new StoreError(
      'invalid-name',
      `library name "${name.slice(0, 40)}…" is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed (npm's limit)`,
    );
  }
  if (!NAME.test(name)) {
    throw new StoreError(
      'invalid-name',
      `invalid library name "${name}": use letters, digits, ".", "_" and "-", optionally with an @scope/ prefix`,
    );
  }
}

/**
 * Throws StoreError('invalid-name' | 'invalid-version') unless `id` is a valid name and version whose package file
 * (`<name>@<version>.db`) and the files docs keeps beside it fit in a file name: a name of 214 characters leaves
 * room for a version of 8.
 */
export function assertFileNameFits(id: PackageId): void {
  assertValidName(id.name);
  assertValidVersion(id.version);
  const length = packageFileName(id).length;
  if (length > MAX_FILE_NAME_LENGTH) {
    throw new StoreError(
      'invalid-name',
      `${formatPackageId(id).slice(0, 60)}… is too long: its file name would be ${length} characters, and at most ${MAX_FILE_NAME_LENGTH} fit (a file name holds 255, and docs adds to it for its work files). Use a shorter --name or --version`,
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

/**
 * Whether two library names are one crate's as Cargo sees it: alike but for case and `-` against `_` (`serde-json` is
 * `serde_json`; crates.io refuses a name that differs from another only so). What a name that matches no library
 * exactly is tried as.
 *
 * @example
 * sameCrateName('serde-json', 'serde_json'); // → true
 */
export function sameCrateName(a: string, b: string): boolean {
  return a.toLowerCase().replaceAll('-', '_') === b.toLowerCase().replaceAll('-', '_');
}

/** `name@version`, the label every result carries. */
export function formatPackageId(id: PackageId): string {
  return `${id.name}@${id.version}`;
}

/**
 * Splits `name` or `name@version` (the first `@` of a scoped name is part of
 * the name). The version is undefined for a bare name. A Go module path names
 * the library docs stores the module under, at the version as stored
 * (`github.com/jackc/pgx/v5@v5.7.2` → `pgx`, `5.7.2`; see goLibraryName).
 */
export function parsePackageSpec(spec: string): { name: string; version: string | undefined } {
  const at = spec.lastIndexOf('@');
  const name = at <= 0 ? spec : spec.slice(0, at);
  const version = at <= 0 ? undefined : spec.slice(at + 1);
  if (isGoModulePath(name)) {
    return { name: goLibraryName(name), version: version === undefined ? undefined : storedGoVersion(version) };
  }
  return { name, version };
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

/** A version label, and when the package holding it was built: what orders labels that are not semver versions. */
export interface VersionLabel {
  readonly version: string;
  /** ISO 8601 time of the package's build (its `builtAt`); unknown sorts below every known time. */
  readonly builtAt?: string | undefined;
}

/**
 * Orders version labels, lowest first: the one order of versions everything
 * that picks "the highest" or lists versions uses. A semver version (a
 * leading `v` allowed: `v1.2.3`) compares by semver, a prerelease below its
 * release, and sits above every label that is not one: a commit (`d9f66ba`),
 * a date (`2026-07-15`), `11.x`, `main`. Those compare by when their package
 * was built, the newest highest, then by their text, their numbers as
 * numbers (`2026-07-15` < `2026-08-08`, `main` < `2.0`). A string is a label
 * with no build time.
 *
 * @example
 * ['d9f66ba', '1.4.0', '1.10.0'].sort(compareVersions) // ['d9f66ba', '1.4.0', '1.10.0']
 * compareVersions({ version: 'd9f66ba', builtAt: '2026-08-01T00:00:00Z' }, { version: '0a1b2c3', builtAt: '2026-07-01T00:00:00Z' }) // > 0
 */
export function compareVersions(a: string | VersionLabel, b: string | VersionLabel): number {
  const la = typeof a === 'string' ? { version: a } : a;
  const lb = typeof b === 'string' ? { version: b } : b;
  const sa = semverOf(la.version);
  const sb = semverOf(lb.version);
  if (sa && sb) {
    const bySemver = semver.compareBuild(sa, sb);
    if (bySemver !== 0) return bySemver;
  } else if (sa || sb) {
    return sa ? 1 : -1;
  } else {
    const ta = buildTime(la.builtAt);
    const tb = buildTime(lb.builtAt);
    if (ta !== tb) return ta < tb ? -1 : 1;
  }
  return compareLabels(la.version, lb.version);
}

/** Whether `label` is a semver version (a leading `v` allowed), which outranks every label that is not. */
export function isSemverLabel(label: string): boolean {
  return semverOf(label) !== null;
}

function semverOf(label: string): semver.SemVer | null {
  return semver.parse(label);
}

/** Milliseconds since the epoch; -Infinity when unknown or unreadable. */
function buildTime(builtAt: string | undefined): number {
  const time = builtAt === undefined ? Number.NaN : Date.parse(builtAt);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * Labels by their text: runs of digits compare as numbers and above any other
 * text at the same place, the rest by character; labels equal so (`01`, `1`)
 * by their characters.
 */
function compareLabels(a: string, b: string): number {
  const ta = a.match(/\d+|\D+/g) ?? [];
  const tb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i] as string;
    const y = tb[i] as string;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx !== dy) return dx ? 1 : -1;
    const byPart = dx ? compareDigits(x, y) : x < y ? -1 : x > y ? 1 : 0;
    if (byPart !== 0) return byPart;
  }
  if (ta.length !== tb.length) return ta.length < tb.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Two runs of digits by their value, however long. */
function compareDigits(x: string, y: string): number {
  const nx = x.replace(/^0+(?=\d)/, '');
  const ny = y.replace(/^0+(?=\d)/, '');
  if (nx.length !== ny.length) return nx.length < ny.length ? -1 : 1;
  return nx < ny ? -1 : nx > ny ? 1 : 0;
}
