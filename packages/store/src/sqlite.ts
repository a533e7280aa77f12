import Database from 'better-sqlite3';
import { type Query, runOnce } from './statement.js';

/**
 * A read-only connection to an installed package. Packages never change once
 * installed, so SQLite may map them instead of copying pages.
 */
export function openReadOnlyDatabase(file: string): Database.Database {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  database.pragma('mmap_size = 268435456');
  return database;
}

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
