import { copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type CatalogEntry, StoreCatalog } from './catalog.js';
import { StoreError } from './errors.js';
import type { Term } from './fts-query.js';
import type { InstalledPackage } from './installed-package.js';
import { withNameLock } from './name-lock.js';
import { packageToRemove, type ResolveResult, resolveName } from './name-resolution.js';
import { assertFileNameFits, formatPackageId, type PackageId, packageFileName, parsePackageFileName } from './names.js';
import { assertSqliteHeader, type PackageInfo, validatePackageCopy } from './package-file.js';
import { PackageListing } from './package-listing.js';
import type { PackageReader } from './package-reader.js';
import {
  assertNoPendingWal,
  partialName,
  partialTag,
  removeLeftoversSync,
  removeSideFiles,
  removeWithSideFiles,
} from './partial-files.js';
import { type ReaderCacheSizes, ReaderCaches, sharedReaderCaches } from './reader-caches.js';
import { ReaderPool } from './reader-pool.js';
import { removeErrorMessage } from './resolution-messages.js';
import { removeWorkFiles, VectorJob } from './vector-job.js';
import type { PackageEmbedder } from './vector-search.js';
import type { VerifiedPackages } from './verified-packages.js';
import { takeOrigin } from './written-here.js';

/**
 * The directory of installed documentation packages, one `<name>@<version>.db` file each: what is installed
 * (`package-listing.ts`), which package a name means (`name-resolution.ts`), installing and removing, the catalog of
 * which words each holds (`catalog.ts`), and readers (`reader-pool.ts`). Every call reads the directory afresh when
 * it changed, so packages added or removed by another process are seen; open connections are cached and reopened
 * when their file is replaced.
 *
 * @example
 * const store = new PackageStore(resolveHome());
 * const found = await store.resolve('vitest');
 * if (found.ok) console.log((await store.reader(found.value).info()).description);
 */
export class PackageStore {
  readonly dir: string;
  readonly #listing: PackageListing;
  readonly #pool: ReaderPool;
  readonly #catalog: StoreCatalog;
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
    this.#listing = new PackageListing(this.dir, options.verify);
    this.#pool = new ReaderPool({
      maxOpen: options.maxOpenPackages ?? 1024,
      caches: options.readerCaches ? new ReaderCaches(options.readerCaches) : sharedReaderCaches(),
    });
    this.#catalog = new StoreCatalog(this.dir);
    this.#verify = options.verify;
  }

  /**
   * Installed packages, by name ascending, highest version first as {@link compareVersions} orders them (semver
   * versions above labels that are not, those newest build first). A missing directory is an empty store.
   */
  list(): Promise<InstalledPackage[]> {
    return this.#listing.list();
  }

  /**
   * Finds an installed package by `name` or `name@version` (case-insensitive), as {@link resolveName} does over
   * {@link list}: a bare name gives the highest version, a range the highest release in it, else its highest
   * prerelease (with `prerelease` set). A failure is data; `resolveErrorMessage` writes its sentence.
   */
  async resolve(spec: string, version?: string): Promise<ResolveResult> {
    return resolveName(await this.list(), spec, version);
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
    removeLeftoversSync(this.dir);
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
        await this.#pool.closeFile(into);
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
    const found = packageToRemove(await this.list(), spec);
    if (!found.ok) throw new StoreError(found.error.code, removeErrorMessage(found.error));
    const target = found.value;
    await this.#pool.closeFile(target.file);
    await rm(target.file);
    await removeSideFiles(target.file);
    // A vector job killed midway (docs embed) left its work beside the package: it is of no use without it.
    await removeWorkFiles(this.dir, target);
    this.#catalog.forget(target.file);
    removeLeftoversSync(this.dir);
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
    return this.#pool.reader(pkg);
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
    this.#catalog.close();
    await this.#pool.close();
  }
}
