import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { closestName } from './closest.js';
import { StoreError } from './errors.js';
import {
  compareVersions,
  formatPackageId,
  type PackageId,
  packageFileName,
  parsePackageFileName,
  parsePackageSpec,
} from './names.js';
import { assertReadableFormat, inspectPackageFile, type PackageInfo } from './package-file.js';
import { type PackageEmbedder, PackageReader } from './package-reader.js';
import { openReadOnlyDatabase } from './sqlite.js';
import { VectorJob } from './vector-job.js';

/** A package file in the store. */
export interface InstalledPackage extends PackageId {
  readonly file: string;
  readonly bytes: number;
  /** Modification time, so a file replaced under a running process is noticed. */
  readonly mtimeMs: number;
}

/** Why a library could not be resolved, with what would help the caller retry. */
export interface ResolveError {
  readonly code: 'no-packages' | 'unknown-library' | 'unknown-version';
  readonly message: string;
  /** Everything installed, name ascending, highest version first. */
  readonly installed: readonly InstalledPackage[];
  /** The closest installed name, when one is close. */
  readonly suggestion?: string;
}

export type ResolveResult =
  | {
      readonly ok: true;
      readonly value: InstalledPackage;
      /** Set when the version asked for was only met by a prerelease; says which, for the user. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly error: ResolveError };

/** Partial files older than this are left over from a crash and may be removed. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/**
 * The directory of installed documentation packages, one `<name>@<version>.db`
 * file each. Every call reads the directory afresh, so packages added or
 * removed by another process are seen; open connections are cached and
 * reopened when their file is replaced.
 *
 * @example
 * const store = new PackageStore(resolveHome());
 * const found = await store.resolve('vitest');
 * if (found.ok) console.log((await store.reader(found.value).info()).description);
 */
export class PackageStore {
  readonly dir: string;
  readonly #readers = new Map<string, { reader: PackageReader; mtimeMs: number; bytes: number }>();
  #listing: { version: string; packages: InstalledPackage[] } | undefined;

  readonly #maxOpen: number;

  /**
   * @param dir - the store directory (created on the first install).
   * @param options.maxOpenPackages - connections kept open at once; the least
   *   recently used is closed beyond it, so a store of a thousand packages
   *   holds neither a thousand file handles nor a thousand page caches. @default 64
   */
  constructor(dir: string, options: { maxOpenPackages?: number } = {}) {
    this.dir = path.resolve(dir);
    this.#maxOpen = Math.max(1, options.maxOpenPackages ?? 64);
  }

  /** Installed packages, by name ascending, highest version first. A missing directory is an empty store. */
  async list(): Promise<InstalledPackage[]> {
    // Installing, replacing or removing a package renames or unlinks a file in
    // the directory, which changes the directory's mtime; package files are
    // never modified in place. One stat then tells whether the last listing holds.
    let version: string;
    let entries: string[];
    try {
      // Synchronous on purpose: a directory stat takes microseconds, while the
      // thread-pool round trip of the async one costs more than a search.
      version = String(statSync(this.dir, { bigint: true }).mtimeNs);
      if (this.#listing?.version === version) return [...this.#listing.packages];
      entries = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new StoreError('io', `cannot read the store at ${this.dir}: ${(error as Error).message}`, { cause: error });
    }
    const packages: InstalledPackage[] = [];
    for (const entry of entries) {
      const id = parsePackageFileName(entry);
      if (!id) continue;
      const file = path.join(this.dir, entry);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) packages.push({ ...id, file, bytes: info.size, mtimeMs: info.mtimeMs });
    }
    packages.sort((a, b) => a.name.localeCompare(b.name) || compareVersions(b.version, a.version));
    this.#listing = { version, packages };
    return [...packages];
  }

  /**
   * Finds an installed package by `name` or `name@version` (case-insensitive).
   * A bare name gives the highest version; a version that is not installed
   * exactly but is a semver range ("5", "^5.0.0") gives the highest release in
   * it, else the highest prerelease of a version in it (`5` → 5.0.0-rc.2, which
   * semver alone leaves out of `5`), with a `note` saying so.
   */
  async resolve(spec: string, version?: string): Promise<ResolveResult> {
    const installed = await this.list();
    const parsed = parsePackageSpec(spec.trim());
    const wantedVersion = version ?? parsed.version;
    const name = parsed.name.toLowerCase();
    if (installed.length === 0) {
      return {
        ok: false,
        error: { code: 'no-packages', message: 'no documentation packages are installed', installed },
      };
    }
    const versions = installed.filter((p) => p.name.toLowerCase() === name);
    if (versions.length === 0) {
      const suggestion = closestName(parsed.name, [...new Set(installed.map((p) => p.name))]);
      const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
      return {
        ok: false,
        error: {
          code: 'unknown-library',
          message: `library "${parsed.name}" is not installed.${hint} Installed: ${describeInstalled(installed)}`,
          installed,
          ...(suggestion ? { suggestion } : {}),
        },
      };
    }
    if (wantedVersion === undefined || wantedVersion === '' || wantedVersion === 'latest') {
      return { ok: true, value: versions[0] as InstalledPackage };
    }
    const exact = versions.find((p) => p.version.toLowerCase() === wantedVersion.toLowerCase());
    if (exact) return { ok: true, value: exact };
    const range = semver.validRange(wantedVersion, { loose: true });
    if (range) {
      // Releases first, as npm picks them (a prerelease only where the range names one of its own tuple).
      const release = versions.find((p) => semver.satisfies(p.version, range, { loose: true }));
      if (release) return { ok: true, value: release };
      const prerelease = versions.find((p) => isPrereleaseIn(p.version, range));
      if (prerelease)
        return {
          ok: true,
          value: prerelease,
          note: `${prerelease.name} has no release matching "${wantedVersion}"; using the prerelease ${prerelease.version}`,
        };
    }
    return {
      ok: false,
      error: {
        code: 'unknown-version',
        message: `${versions[0]?.name} has no version "${wantedVersion}". Installed versions: ${versions.map((p) => p.version).join(', ')}`,
        installed,
        suggestion: formatPackageId(versions[0] as InstalledPackage),
      },
    };
  }

  /**
   * Validates a package file and moves it into the store atomically (copied
   * to a temporary name inside the store, then renamed), replacing the same
   * name@version if present. An invalid file leaves the store unchanged.
   */
  async install(
    file: string,
    options: { move?: boolean } = {},
  ): Promise<{ installed: InstalledPackage; info: PackageInfo; replaced: boolean }> {
    const info = await inspectPackageFile(file);
    await mkdir(this.dir, { recursive: true });
    await this.#removeStalePartials();
    const target = path.join(this.dir, packageFileName(info));
    const replaced = await stat(target).then(
      () => true,
      () => false,
    );
    let staged = file;
    if (!options.move || path.dirname(path.resolve(file)) !== this.dir) {
      staged = this.partialPath(info);
      await copyFile(file, staged);
    }
    try {
      await this.#closeReader(target);
      await rename(staged, target);
    } catch (error) {
      if (staged !== file) await rm(staged, { force: true });
      throw new StoreError('io', `could not install ${formatPackageId(info)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (options.move && staged !== file) await rm(file, { force: true });
    const { size, mtimeMs } = await stat(target);
    return {
      installed: { name: info.name, version: info.version, file: target, bytes: size, mtimeMs },
      info,
      replaced,
    };
  }

  /**
   * Removes `name@version`, or `name` when exactly one version is installed.
   * Throws StoreError('not-installed') or ('ambiguous', listing the versions).
   */
  async remove(spec: string): Promise<InstalledPackage> {
    const { name, version } = parsePackageSpec(spec.trim());
    const installed = await this.list();
    const versions = installed.filter((p) => p.name.toLowerCase() === name.toLowerCase());
    const matches =
      version === undefined ? versions : versions.filter((p) => p.version.toLowerCase() === version.toLowerCase());
    if (matches.length === 0) {
      const known = versions.length > 0 ? versions.map(formatPackageId).join(', ') : describeInstalled(installed);
      throw new StoreError('not-installed', `${spec} is not installed. Installed: ${known}`);
    }
    if (matches.length > 1) {
      throw new StoreError(
        'ambiguous',
        `${name} has ${matches.length} versions installed; say which to remove: ${matches.map(formatPackageId).join(', ')}`,
      );
    }
    const target = matches[0] as InstalledPackage;
    await this.#closeReader(target.file);
    await rm(target.file);
    return target;
  }

  /**
   * A read-only reader for an installed package. Connections are cached and
   * reused, up to `maxOpenPackages`; ask again rather than keeping a reader
   * across other packages' use, since the least recently used one is closed.
   *
   * @throws {StoreError} `unknown-format` when the package was built by a docs
   *   of another package format (installed before an upgrade): rebuild it.
   */
  reader(pkg: InstalledPackage): PackageReader {
    const cached = this.#readers.get(pkg.file);
    if (cached && cached.mtimeMs === pkg.mtimeMs && cached.bytes === pkg.bytes) {
      // Most recently used last: Map keeps insertion order.
      this.#readers.delete(pkg.file);
      this.#readers.set(pkg.file, cached);
      return cached.reader;
    }
    if (cached) {
      this.#readers.delete(pkg.file);
      void cached.reader.close();
    }
    const database = openReadOnlyDatabase(pkg.file);
    // Installed by an earlier docs, a package may be of a format this one cannot query: say so, not an SQL error.
    try {
      assertReadableFormat(database, formatPackageId(pkg));
    } catch (error) {
      database.close();
      throw error;
    }
    const reader = new PackageReader(database, pkg.file);
    this.#readers.set(pkg.file, { reader, mtimeMs: pkg.mtimeMs, bytes: pkg.bytes });
    for (const [file, entry] of this.#readers) {
      if (this.#readers.size <= this.#maxOpen) break;
      this.#readers.delete(file);
      void entry.reader.close();
    }
    return reader;
  }

  /**
   * A resumable job that adds one vector per section to an installed package
   * (see {@link VectorJob}); it carries on from the work an interrupted job
   * with the same embedder id left behind.
   */
  vectorJob(pkg: InstalledPackage, embedder: PackageEmbedder): Promise<VectorJob> {
    return VectorJob.open(this, pkg, embedder);
  }

  /**
   * A fresh path inside the store for a package being built: on the same file
   * system as the packages, so installing it is a rename.
   */
  partialPath(id: PackageId): string {
    return path.join(this.dir, `.${packageFileName(id)}.${randomBytes(6).toString('hex')}.partial`);
  }

  /** Closes every cached connection. */
  async close(): Promise<void> {
    const readers = [...this.#readers.values()];
    this.#readers.clear();
    await Promise.all(readers.map((r) => r.reader.close()));
  }

  async #closeReader(file: string): Promise<void> {
    const cached = this.#readers.get(file);
    this.#readers.delete(file);
    await cached?.reader.close();
  }

  async #removeStalePartials(): Promise<void> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const now = Date.now();
    for (const entry of entries) {
      if (!entry.startsWith('.') || !entry.endsWith('.partial')) continue;
      const file = path.join(this.dir, entry);
      const info = await stat(file).catch(() => undefined);
      if (info && now - info.mtimeMs > STALE_PARTIAL_MS) await rm(file, { force: true });
    }
  }
}

function describeInstalled(installed: readonly InstalledPackage[]): string {
  return installed.length === 0 ? '(none)' : installed.map(formatPackageId).join(', ');
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
