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
 */
export function openReadOnlyDatabase(file: string): Database.Database {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  database.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return database;
}

/** The page cache of a read connection, in KiB (SQLite's negative `cache_size`). */
const PAGE_CACHE_KIB = 64;

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
