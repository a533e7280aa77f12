import { existsSync } from 'node:fs';
import { damagedBy } from './damage.js';
import { StoreError } from './errors.js';
import { whyOpenFails } from './file-handles.js';
import type { InstalledPackage } from './installed-package.js';
import { formatPackageId } from './names.js';
import { assertReadableFormat } from './package-file.js';
import { PackageReader } from './package-reader.js';
import type { ReaderCaches } from './reader-caches.js';
import { openReadOnlyDatabase } from './sqlite.js';

/** How long a reader the pool let go of stays open for a search that may still hold it: far longer than any search. */
const RETIRED_READER_MS = 30_000;

/**
 * The open readers of a store's packages: at most `maxOpen` connections, the least recently used let go of beyond
 * that (an evicted reader reopens its file when a search still holding it reads on); a reader of a file replaced
 * since it was opened retired and closed a while later; and, when the process runs out of file handles, half of them
 * let go of and the limit lowered.
 *
 * @example
 * const pool = new ReaderPool({ maxOpen: 1024, caches: sharedReaderCaches() });
 * const info = await pool.reader(pkg).info();
 * await pool.close();
 */
export class ReaderPool {
  /** Open readers by file, least recently used first (a Map keeps insertion order), with the file as it was opened. */
  readonly #readers = new Map<string, { reader: PackageReader; mtimeMs: number; bytes: number }>();
  /** Readers of files replaced since they were opened, oldest first, each with the timer that closes it after {@link RETIRED_READER_MS}. */
  readonly #retired = new Map<PackageReader, NodeJS.Timeout>();
  #maxOpen: number;
  readonly #caches: ReaderCaches;

  constructor(options: { readonly maxOpen: number; readonly caches: ReaderCaches }) {
    this.#maxOpen = Math.max(1, options.maxOpen);
    this.#caches = options.caches;
  }

  /**
   * The reader of an installed package: the one open when its file is as it was, else a new one (a reader of the
   * file as it was is retired).
   *
   * @throws {StoreError} `unknown-format`, `gone`, `unreadable` or `damaged-package` when the file cannot be read as
   *   the package installed (see PackageStore.reader).
   */
  reader(pkg: InstalledPackage): PackageReader {
    const cached = this.#readers.get(pkg.file);
    if (cached && cached.mtimeMs === pkg.mtimeMs && cached.bytes === pkg.bytes) {
      // Most recently used last.
      this.#readers.delete(pkg.file);
      this.#readers.set(pkg.file, cached);
      return cached.reader;
    }
    if (cached) {
      this.#readers.delete(pkg.file);
      this.#retire(cached.reader);
    }
    const label = formatPackageId(pkg);
    const open = () => {
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
    const reader = new PackageReader(open(), pkg.file, label, open, this.#caches);
    this.#readers.set(pkg.file, { reader, mtimeMs: pkg.mtimeMs, bytes: pkg.bytes });
    this.#evictBeyond(this.#maxOpen);
    return reader;
  }

  /** Closes every connection to a file the store is about to replace or remove, retired ones included. */
  async closeFile(file: string): Promise<void> {
    const cached = this.#readers.get(file);
    this.#readers.delete(file);
    const retired = [...this.#retired.keys()].filter((reader) => reader.file === file);
    for (const reader of retired) {
      clearTimeout(this.#retired.get(reader));
      this.#retired.delete(reader);
    }
    await Promise.all([cached?.reader, ...retired].map((reader) => reader?.close()));
  }

  /** Closes every connection, retired ones included. */
  async close(): Promise<void> {
    const readers = [...[...this.#readers.values()].map((r) => r.reader), ...this.#retired.keys()];
    for (const timer of this.#retired.values()) clearTimeout(timer);
    this.#readers.clear();
    this.#retired.clear();
    await Promise.all(readers.map((reader) => reader.close()));
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
   * Called when the process has no file handle left to open a package (its limit is below maxOpen, or other code
   * holds many): half of the open readers let go of their connections, the least recently used first, and the pool
   * keeps no more than that open from then on; with none open, the retired readers close. False when it holds none
   * to let go of: the open fails as it stands.
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
    // Bounded: beyond maxOpen the oldest retired (the one most surely done with) closes at once.
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
}

/**
 * Opens an installed package for reading. Another process may remove it between
 * a listing and this open; SQLite then says only "unable to open database
 * file", so a file that is no longer there is told apart as `gone`, and one this process may not read as
 * `unreadable`. One that is there again (removed and installed anew meanwhile) is opened once more. When the process
 * has no file handle left, `makeRoom` lets the pool close some of its connections before another try.
 */
function openInstalled(pkg: InstalledPackage, makeRoom: () => boolean): ReturnType<typeof openReadOnlyDatabase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return openReadOnlyDatabase(pkg.file);
    } catch (error) {
      // Out of file handles: each time the pool lets go of some connections, the open is tried again.
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
