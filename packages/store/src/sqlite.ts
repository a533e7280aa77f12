import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { PackageDatabase } from './schema.js';

/** A Kysely handle over one package file. */
export function openPackageDatabase(file: string, options: { readonly: boolean }): Kysely<PackageDatabase> {
  const database = new Database(file, { readonly: options.readonly, fileMustExist: options.readonly });
  if (options.readonly) {
    // Packages never change once installed: let SQLite map them instead of copying pages.
    database.pragma('mmap_size = 268435456');
  }
  return new Kysely<PackageDatabase>({ dialect: new SqliteDialect({ database }) });
}
