import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { PackageDatabase } from './schema.js';

/** Statements kept per connection; the hot paths use a handful of fixed SQL strings. */
const STATEMENT_CACHE_SIZE = 64;

/**
 * better-sqlite3 with its prepared statements reused. Kysely's SQLite driver
 * prepares every query it runs, and preparing costs as much as running a
 * small FTS query; the SQL of the search paths is fixed (values are bound),
 * so each statement is prepared once per connection.
 */
function withStatementCache(database: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as Database.Database['prepare'];
  return database;
}

/** A Kysely handle over one package file. */
export function openPackageDatabase(file: string, options: { readonly: boolean }): Kysely<PackageDatabase> {
  const database = new Database(file, { readonly: options.readonly, fileMustExist: options.readonly });
  if (options.readonly) {
    // Packages never change once installed: let SQLite map them instead of copying pages.
    database.pragma('mmap_size = 268435456');
  }
  return new Kysely<PackageDatabase>({
    dialect: new SqliteDialect({ database: options.readonly ? withStatementCache(database) : database }),
  });
}
