import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { PackageDatabase } from './schema.js';

/**
 * A read-only connection to an installed package. Packages never change once
 * installed, so SQLite may map them instead of copying pages.
 */
export function openReadOnlyDatabase(file: string): Database.Database {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  database.pragma('mmap_size = 268435456');
  return database;
}

/**
 * A package file being written: the connection, for the bulk inserts as
 * prepared statements, and a Kysely handle over it for the schema. Kysely is
 * loaded here, on first use, so that searching (which never writes) does not pay for it.
 */
export async function openPackageForWriting(
  file: string,
): Promise<{ readonly database: Database.Database; readonly db: Kysely<PackageDatabase> }> {
  const { Kysely, SqliteDialect } = await import('kysely');
  const database = new Database(file);
  return { database, db: new Kysely<PackageDatabase>({ dialect: new SqliteDialect({ database }) }) };
}
