import Database from 'better-sqlite3';
import { type Query, runOnce } from './statement.js';

/**
 * A read-only connection to an installed package (or the catalog), holding little memory of its own: a store keeps
 * up to a thousand open (PackageStore's maxOpenPackages), so that a search over that many libraries neither opens
 * and prepares each of them again nor holds a thousand page caches. So the file is not mapped (mapped pages count in
 * the process's RSS, per connection: 742 connections held 226 MB mapped, 149 MB not, docs/benchmarks.md) and the
 * page cache is a few pages: reads past it come from the kernel's file cache, which the package files' pages stay in.
 * Measured over the 45 single-library dev questions, getDocs answered as fast either way (p50 0.94–1.30 ms mapped
 * with a 16 MB cache, 0.97–1.17 ms with 64 KiB).
 *
 * The cache is made small before it holds a page: SQLite sets a cache's first pages aside in one allocation when it
 * reads a page into an empty cache, up to 20 pages of the size it has then, and `PRAGMA cache_size = N` reads the
 * schema before it sets N, so at the default size (16 MB) every connection held 20 pages (~86 KB) whatever N was.
 * A cache of 0 keeps no page, so after `cache_size = 0` the first read sets aside at most N pages (1,000 synthetic
 * libraries: anonymous RSS after the questions 400–408 → 333–361 MB with 32 KiB; searchAll over 12 libraries as fast,
 * and FTS5 queries as fast with ~7 pages as with 14, docs/benchmarks.md).
 */
export function openReadOnlyDatabase(file: string): Database.Database {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  database.pragma('cache_size = 0');
  database.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return database;
}

/** The page cache of a read connection, in KiB (SQLite's negative `cache_size`): ~7 pages, as fast as 14 for FTS5. */
const PAGE_CACHE_KIB = 32;

/** Runs a schema's statements (compiled-queries.ts) in order. */
export function createSchema(
  database: Database.Database,
  schema: readonly Query<unknown, Record<never, never>, []>[],
): void {
  for (const statement of schema) runOnce(database, statement);
}

/** The file's `PRAGMA user_version`: the format version of a package, the version of a catalog. */
export function userVersion(database: Database.Database): number {
  return wholeNumber(database.pragma('user_version', { simple: true }), 'user_version');
}

/** The connection's `PRAGMA data_version`: it changes when another connection commits to the file. */
export function dataVersion(database: Database.Database): number {
  return wholeNumber(database.pragma('data_version', { simple: true }), 'data_version');
}

function wholeNumber(value: unknown, pragma: string): number {
  if (typeof value !== 'number') throw new TypeError(`PRAGMA ${pragma} gave ${String(value)}, not a number`);
  return value;
}
