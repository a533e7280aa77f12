import { isStoreError, StoreError } from './errors.js';

// An installed package was checked whole at install; one that fails as it is read was changed since (a disk error,
// a file cut short, a hand edit). SQLite then says "database disk image is malformed", "integer overflow" or
// "disk I/O error" with no word of which package: the reader names it, and says what to do.

/** SQLite result codes that mean the file is not what was installed: its pages, its index or its numbers. */
const DAMAGE_CODES = /^SQLITE_(CORRUPT|NOTADB|IOERR|TOOBIG|MISMATCH|RANGE|FORMAT)/;

/** A SQLite error that comes from the file's data rather than from this code: integer overflow in a sum, FTS5's complaints. */
const DAMAGE_MESSAGES = /integer overflow|malformed|fts5: |corrupt|file is not a database/i;

/** Whether `error` is SQLite's (better-sqlite3's SqliteError) and says the file's data is bad. */
function isDataError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return false;
  const code = String((error as { code?: unknown }).code ?? '');
  return DAMAGE_CODES.test(code) || (code.startsWith('SQLITE_ERROR') && DAMAGE_MESSAGES.test(error.message));
}

/**
 * The `damaged-package` StoreError for a package `label` whose data failed to read, naming it and how to rebuild it;
 * `error` as it was when it is anything else (a bug stays a bug). A file that no longer reads as a package at all
 * (`invalid-package`: cut to nothing, another file put in its place) is damaged too.
 */
export function damagedBy(error: unknown, label: string): unknown {
  if (isStoreError(error, 'invalid-package')) return damagedPackage(label, error.message, error);
  if (!isDataError(error)) return error;
  return damagedPackage(label, error.message, error);
}

/** The error for package `label`, damaged as `problem` says: what every surface shows, with what to do. */
export function damagedPackage(label: string, problem: string, cause?: unknown): StoreError {
  return new StoreError(
    'damaged-package',
    `${label} is damaged (${problem}); rebuild it: docs remove ${label}, then docs add its source again (or docs sync, or docs install it again)`,
    cause === undefined ? undefined : { cause },
  );
}
