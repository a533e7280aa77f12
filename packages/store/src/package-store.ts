import { existsSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { type CatalogEntry, StoreCatalog } from './catalog.js';
import { closestName } from './closest.js';
import { damagedBy } from './damage.js';
import { StoreError } from './errors.js';
import { whyOpenFails } from './file-handles.js';
import type { Term } from './fts-query.js';
import type { InstalledPackage } from './installed-package.js';
import { withNameLock } from './name-lock.js';
import {
  assertFileNameFits,
  compareNames,
  compareVersions,
  formatPackageId,
  isSemverLabel,
  type PackageId,
  packageFileName,
  parsePackageFileName,
  parsePackageSpec,
  sameCrateName,
} from './names.js';
import {
  assertReadableFormat,
  assertSqliteHeader,
  type PackageInfo,
  readBuiltAt,
  validatePackageCopy,
} from './package-file.js';
import { PackageReader } from './package-reader.js';
import {
  assertNoPendingWal,
  isLockFile,
  partialName,
  partialTag,
  removeLeftoversSync,
  removeSideFiles,
  removeWithSideFiles,
} from './partial-files.js';
import { type ReaderCacheSizes, ReaderCaches, sharedReaderCaches } from './reader-caches.js';
import { openReadOnlyDatabase } from './sqlite.js';
import { removeWorkFiles, VectorJob } from './vector-job.js';
import type { PackageEmbedder } from './vector-search.js';
import type { VerifiedPackages } from './verified-packages.js';
import { takeOrigin } from './written-here.js';

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
/** How long a reader the cache let go of stays open for a search that may still hold it: far longer than any search. */
const RETIRED_READER_MS = 30_000;

export class PackageStore {
  readonly dir: string;
  readonly #readers = new Map<string, { reader: PackageReader; mtimeMs: number; bytes: number }>();
  /** Readers of files replaced since they were opened, oldest first, each with the timer that closes it after {@link RETIRED_READER_MS}. */
  readonly #retired = new Map<PackageReader, NodeJS.Timeout>();
  #listing: { version: string; packages: InstalledPackage[] } | undefined;
  /** Build times read to order labels that are not semver, by file, with the file's size and time when read. */
  #builtAt = new Map<string, { mtimeMs: number; bytes: number; builtAt: string | undefined }>();
  readonly #catalog: StoreCatalog;

  #maxOpen: number;
  readonly #caches: ReaderCaches;
  readonly #verify: VerifiedPackages | undefined;

  /**
   * @param dir - the store directory (created on the first install).
   * @param options.maxOpenPackages - connections kept open at once; the least
   *   recently used is closed beyond it. A search over every library goes
   *   through them in turn, so with more libraries than this each search
   *   closed, opened and prepared every one of them again (~0.75 ms each);
   *   an open connection holds a file handle and ~0.2 MB (openReadOnlyDatabase
   *   keeps it small), so a store of a thousand holds ~200 MB. @default 1024
   * @param options.readerCaches - how much the readers keep of what they read
   *   across searches: the chunks' fields and the phrase lists. A store that
   *   sets them has caches of its own; every store that does not shares the
   *   process's, of the default sizes, so a process holds one budget however
   *   many stores it makes.
   * @param options.verify - for a store whose packages docs did not install (one a project config names): each
   *   package is validated as an install validates it before it is listed or read, and left out when it fails.
   */
  constructor(
    dir: string,
    options: { maxOpenPackages?: number; readerCaches?: ReaderCacheSizes; verify?: VerifiedPackages } = {},
  ) {
    this.dir = path.resolve(dir);
    this.#maxOpen = Math.max(1, options.maxOpenPackages ?? 1024);
    this.#caches = options.readerCaches ? new ReaderCaches(options.readerCaches) : sharedReaderCaches();
    this.#catalog = new StoreCatalog(this.dir);
    this.#verify = options.verify;
  }

  /**
   * Installed packages, by name ascending, highest version first as {@link compareVersions} orders them (semver
   * versions above labels that are not, those newest build first). A missing directory is an empty store.
   */
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
    // Every change shows here, so this is where a killed build's files are first seen.
    if (entries.some((e) => e.startsWith('.') && (e.includes('.partial') || isLockFile(e)))) {
      removeLeftoversSync(this.dir);
    }
    const packages: InstalledPackage[] = [];
    for (const entry of entries) {
      const id = parsePackageFileName(entry);
      if (!id) continue;
      const file = path.join(this.dir, entry);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) packages.push({ ...id, file, bytes: info.size, mtimeMs: info.mtimeMs });
    }
    const admitted = this.#verify ? await this.#verify.admit(packages) : packages;
    packages.splice(0, packages.length, ...admitted);
    const builtAt = this.#buildTimes(packages);
    const label = (p: InstalledPackage) => ({ version: p.version, builtAt: builtAt.get(p.file) });
    packages.sort((a, b) => compareNames(a.name, b.name) || compareVersions(label(b), label(a)));
    this.#listing = { version, packages };
    return [...packages];
  }

  /**
   * The build times that order a library's version labels that are not semver (a commit, a date: see
   * compareVersions), by file. Read only for a library with two or more such labels, which is rare, and once per
   * file as it is: a listing of semver versions opens no package.
   */
  #buildTimes(packages: readonly InstalledPackage[]): Map<string, string | undefined> {
    const byName = new Map<string, InstalledPackage[]>();
    for (const p of packages) if (!isSemverLabel(p.version)) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
    const known = this.#builtAt;
    this.#builtAt = new Map();
    const times = new Map<string, string | undefined>();
    for (const labels of byName.values()) {
      if (labels.length < 2) continue;
      for (const p of labels) {
        const read = known.get(p.file);
        const builtAt = read?.mtimeMs === p.mtimeMs && read.bytes === p.bytes ? read.builtAt : readBuiltAt(p.file);
        this.#builtAt.set(p.file, { mtimeMs: p.mtimeMs, bytes: p.bytes, builtAt });
        times.set(p.file, builtAt);
      }
    }
    return times;
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
    const exactly = installed.filter((p) => p.name.toLowerCase() === name);
    // `serde-json` asks for the crate `serde_json`: Cargo treats `-` and `_` in crate names as one.
    const sameName = exactly.length > 0 ? exactly : installed.filter((p) => sameCrateName(p.name, parsed.name));
    // Of two spellings installed by an older docs, the one asked for exactly.
    const spelled = sameName.filter((p) => p.name === parsed.name);
    const versions = spelled.length > 0 && spelled.length < sameName.length ? spelled : sameName;
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
   * to a temporary name inside the store, checked and normalised there, then
   * renamed), replacing the same name@version if present. An invalid file
   * leaves the store unchanged; the source is never opened by SQLite, so no
   * journal or WAL side file appears beside it.
   *
   * A file this process has just written with `writePackage` and moves in
   * (a build installing its output), unchanged since, skips the row-by-row
   * checks: its rows are as the writer made them. Every other file gets them all,
   * and a file built elsewhere has its derived data (the search index, token
   * and link counts) made again from its rows: a package is data, and what
   * search computes from it is computed here.
   *
   * A package whose name differs only in case from an installed library's is
   * refused: names are one library whatever their case, and two spellings would
   * make every answer of that library come twice.
   */
  async install(
    file: string,
    options: { move?: boolean } = {},
  ): Promise<{ installed: InstalledPackage; info: PackageInfo; replaced: boolean }> {
    await assertSqliteHeader(file);
    await assertNoPendingWal(file);
    // A refused file leaves no trace, not even a store directory made for it.
    const created = await mkdir(this.dir, { recursive: true });
    await this.#removeLeftovers();
    let staged = file;
    const inStore = options.move === true && path.dirname(path.resolve(file)) === this.dir;
    if (!inStore) {
      staged = path.join(this.dir, `.install.${partialTag()}.partial`);
      await copyFile(file, staged);
    }
    let info: PackageInfo;
    let target: string;
    let replaced: boolean;
    try {
      // A package this process has just written (a build installing its output) is checked for what
      // a build can get wrong, not row by row: the rows are as the writer made them.
      // One whose rows came from an installed package and whose derived data this process made (a vector job's)
      // has its rows checked; any other file has its derived data made again here (derived-data.ts).
      const origin = inStore ? takeOrigin(file) : 'elsewhere';
      const valid = await validatePackageCopy(staged, file, {
        rows: origin !== 'written',
        rederive: origin === 'elsewhere',
      });
      info = valid;
      target = path.join(this.dir, packageFileName(info));
      const into = target;
      // The check and the rename under one lock per name whatever its case: two spellings installed at the
      // same moment would otherwise both pass the check.
      replaced = await withNameLock(this.dir, info.name, async () => {
        await this.#assertOneSpelling(valid);
        const existed = await stat(into).then(
          () => true,
          () => false,
        );
        await this.#closeReader(into);
        await rename(staged, into);
        return existed;
      });
    } catch (error) {
      if (staged !== file) await removeWithSideFiles(staged);
      if (created !== undefined) await rmdir(created).catch(() => undefined);
      if (error instanceof StoreError) throw error;
      throw new StoreError('io', `could not install ${file}: ${(error as Error).message}`, { cause: error });
    }
    await removeSideFiles(target);
    if (options.move && staged !== file) await removeWithSideFiles(file);
    const { size, mtimeMs } = await stat(target);
    const installed = { name: info.name, version: info.version, file: target, bytes: size, mtimeMs };
    await this.updateCatalog([installed]);
    return { installed, info, replaced };
  }

  /**
   * Brings the store's catalog up to date: records `packages` (as just
   * installed) and every installed package it has no entry for as it is now,
   * so a store made by an older docs gets its catalog on its next install.
   * Best effort and never throws: the catalog only makes {@link catalogEntries}
   * answer, and without an entry a package is simply searched.
   */
  async updateCatalog(packages: readonly InstalledPackage[] = []): Promise<void> {
    const listed = await this.list().catch(() => [] as InstalledPackage[]);
    const known = this.#catalog.known(listed);
    const given = new Set(packages.map((p) => p.file));
    this.#catalog.record([...packages, ...listed.filter((p) => !known.has(p.file) && !given.has(p.file))]);
  }

  /**
   * What the store's catalog knows of `packages` and of `terms` in their
   * search indexes, keyed by file: for each term, whether the package may
   * hold it (false is certain: no chunk can match it) and, where the catalog
   * knows exactly, how many chunks do; and the package's chunk count. A
   * search over many libraries need not open one that holds none of its
   * terms. The catalog is derived data kept by install and remove; a package
   * it does not know as it is now (or every package, without a readable
   * catalog) is absent from the answer, and is searched as it is.
   *
   * @example
   * const known = await store.catalogEntries(await store.list(), ['cors']);
   * const holdingNone = [...known].filter(([, e]) => !e.holds.some(Boolean)).map(([file]) => file);
   */
  async catalogEntries(
    packages: readonly InstalledPackage[],
    terms: readonly Term[],
  ): Promise<Map<string, CatalogEntry>> {
    return this.#catalog.entries(packages, terms);
  }

  async #assertOneSpelling(id: PackageId): Promise<void> {
    // The directory itself, not the listing: another process's rename a moment ago may leave the directory's
    // mtime (the listing's key) as it was, timestamps being coarser than two installs apart.
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const names = entries.flatMap((entry) => parsePackageFileName(entry) ?? []);
    const other = names.find((p) => p.name !== id.name && p.name.toLowerCase() === id.name.toLowerCase());
    if (other) {
      throw new StoreError(
        'name-taken',
        `${formatPackageId(id)} differs only in case from the installed ${other.name}: library names are the same whatever their case. Build it as --name ${other.name}, or remove ${other.name} first (docs remove ${formatPackageId(other)})`,
      );
    }
  }

  /**
   * Removes `name@version`, or `name` when exactly one version is installed.
   * Throws StoreError('not-installed') or ('ambiguous', listing the versions).
   */
  async remove(spec: string): Promise<InstalledPackage> {
    const { name, version } = parsePackageSpec(spec.trim());
    const installed = await this.list();
    const versions = installed.filter((p) => p.name.toLowerCase() === name.toLowerCase());
    const sameVersion =
      version === undefined ? versions : versions.filter((p) => p.version.toLowerCase() === version.toLowerCase());
    // Two spellings of one name may have been installed before names were compared
    // without case: the exact spelling, as list shows it, picks one of them.
    const exact = sameVersion.filter((p) => p.name === name && (version === undefined || p.version === version));
    const matches = sameVersion.length > 1 && exact.length === 1 ? exact : sameVersion;
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
    await removeSideFiles(target.file);
    // A vector job killed midway (docs embed) left its work beside the package: it is of no use without it.
    await removeWorkFiles(this.dir, target);
    this.#catalog.forget(target.file);
    await this.#removeLeftovers();
    return target;
  }

  /**
   * A read-only reader for an installed package. Connections are cached and
   * reused, up to `maxOpenPackages`; ask again rather than keeping a reader
   * across other packages' use, since the least recently used one is closed.
   *
   * @throws {StoreError} `unknown-format` when the package was built by a docs
   *   of another package format (installed before an upgrade): rebuild it.
   * @throws {StoreError} `gone` when the package was removed since it was
   *   listed (by another process): it is no longer installed.
   * @throws {StoreError} `damaged-package` when the file no longer reads as the
   *   package installed (cut short, overwritten): it names the package and how
   *   to rebuild it. Its reads throw the same when its data fails.
   */
  reader(pkg: InstalledPackage): PackageReader {
    if (this.#verify && !this.#verify.isVerified(pkg)) {
      throw new StoreError(
        'invalid-package',
        `${formatPackageId(pkg)} changed since it was validated, or was never validated: ask again, and it is validated first`,
      );
    }
    const cached = this.#readers.get(pkg.file);
    if (cached && cached.mtimeMs === pkg.mtimeMs && cached.bytes === pkg.bytes) {
      // Most recently used last: Map keeps insertion order.
      this.#readers.delete(pkg.file);
      this.#readers.set(pkg.file, cached);
      return cached.reader;
    }
    if (cached) {
      this.#readers.delete(pkg.file);
      this.#retire(cached.reader);
    }
    const open = () => {
      const label = formatPackageId(pkg);
      let database: ReturnType<typeof openInstalled>;
      try {
        database = openInstalled(pkg, () => this.#makeRoom());
      } catch (error) {
        throw damagedBy(error, label);
      }
      // Installed by an earlier docs, a package may be of a format this one cannot query: say so, not an SQL error.
      // One that no longer reads as a package (cut short, overwritten) is damaged, and named.
      try {
        assertReadableFormat(database, label);
      } catch (error) {
        database.close();
        throw damagedBy(error, label);
      }
      return database;
    };
    const reader = new PackageReader(open(), pkg.file, formatPackageId(pkg), open, this.#caches);
    this.#readers.set(pkg.file, { reader, mtimeMs: pkg.mtimeMs, bytes: pkg.bytes });
    this.#evictBeyond(this.#maxOpen);
    return reader;
  }

  /** The least recently used beyond `kept` let go of their connections; a search still holding one reopens it. */
  #evictBeyond(kept: number): void {
    for (const [file, entry] of this.#readers) {
      if (this.#readers.size <= kept) break;
      this.#readers.delete(file);
      entry.reader.evict();
    }
  }

  /**
   * Called when the process has no file handle left to open a package (its limit is below maxOpenPackages, or other
   * code holds many): half of the open readers let go of their connections, the least recently used first, and the
   * store keeps no more than that open from then on; with none open, the retired readers close. False when it holds
   * none to let go of: the open fails as it stands.
   */
  #makeRoom(): boolean {
    if (this.#readers.size > 0) {
      const kept = Math.floor(this.#readers.size / 2);
      this.#maxOpen = Math.max(1, kept);
      this.#evictBeyond(kept);
      return true;
    }
    // Retired readers last: one closes under any search still holding it, where an evicted one reopens.
    if (this.#retired.size === 0) return false;
    this.#closeRetiredBeyond(0);
    return true;
  }

  /**
   * Closes a reader of a file replaced since it was opened a while later rather than at once: a search running
   * concurrently (the HTTP server answers many at a time) may hold it between two of its queries, and closing it
   * under that search would fail it with "the database connection is not open". (Not evicted and reopened: it
   * would read the new file's rows in the middle of a search that began on the old one.)
   */
  #retire(reader: PackageReader): void {
    const timer = setTimeout(() => {
      this.#retired.delete(reader);
      void reader.close();
    }, RETIRED_READER_MS);
    timer.unref();
    this.#retired.set(reader, timer);
    // Bounded: beyond maxOpenPackages the oldest retired (the one most surely done with) closes at once.
    this.#closeRetiredBeyond(this.#maxOpen);
  }

  /** The oldest retired readers beyond `kept` close now, not when their delay is up. */
  #closeRetiredBeyond(kept: number): void {
    for (const [oldest, pending] of this.#retired) {
      if (this.#retired.size <= kept) break;
      clearTimeout(pending);
      this.#retired.delete(oldest);
      void oldest.close();
    }
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
   * system as the packages, so installing it is a rename. The name carries the
   * building process's id, so the next store operation can remove what a build
   * killed midway left behind. Leftovers of dead builds are removed here too.
   */
  partialPath(id: PackageId): string {
    // Refused here, before a build of minutes, rather than when its output is installed.
    assertFileNameFits(id);
    removeLeftoversSync(this.dir);
    return path.join(this.dir, partialName(packageFileName(id)));
  }

  /** Closes every cached connection. */
  async close(): Promise<void> {
    const readers = [...[...this.#readers.values()].map((r) => r.reader), ...this.#retired.keys()];
    for (const timer of this.#retired.values()) clearTimeout(timer);
    this.#readers.clear();
    this.#retired.clear();
    this.#catalog.close();
    await Promise.all(readers.map((reader) => reader.close()));
  }

  /** Closes every connection to a file this store is about to replace or remove, retired ones included. */
  async #closeReader(file: string): Promise<void> {
    const cached = this.#readers.get(file);
    this.#readers.delete(file);
    const retired = [...this.#retired.keys()].filter((reader) => reader.file === file);
    for (const reader of retired) {
      clearTimeout(this.#retired.get(reader));
      this.#retired.delete(reader);
    }
    await Promise.all([cached?.reader, ...retired].map((reader) => reader?.close()));
  }

  async #removeLeftovers(): Promise<void> {
    removeLeftoversSync(this.dir);
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

/**
 * Opens an installed package for reading. Another process may remove it between
 * a listing and this open; SQLite then says only "unable to open database
 * file", so a file that is no longer there is told apart as `gone`, and one this process may not read as
 * `unreadable`. One that is there again (removed and installed anew meanwhile) is opened once more. When the process
 * has no file handle left, `makeRoom` lets the store close some of its connections before another try.
 */
function openInstalled(pkg: InstalledPackage, makeRoom: () => boolean): ReturnType<typeof openReadOnlyDatabase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return openReadOnlyDatabase(pkg.file);
    } catch (error) {
      // Out of file handles: each time the store lets go of some connections, the open is tried again.
      const why = whyOpenFails(pkg.file);
      if (why === 'out-of-file-handles' && makeRoom()) {
        attempt = 0;
        continue;
      }
      if (!existsSync(pkg.file)) {
        const id = formatPackageId(pkg);
        throw new StoreError('gone', `${id} was removed while it was being read: it is no longer installed`, {
          cause: error,
        });
      }
      if (why === 'not-permitted') {
        const id = formatPackageId(pkg);
        throw new StoreError(
          'unreadable',
          `${id} cannot be read: this process may not read ${pkg.file} (permission denied); make it readable, or install it again`,
          { cause: error },
        );
      }
      if (attempt >= 2) throw error;
    }
  }
}
