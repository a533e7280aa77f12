import { copyFile, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { assertValidName, assertValidVersion, type PackageId } from './names.js';
import { contentProblem } from './package-content.js';
import { createPackageSchema, PACKAGE_FORMAT_VERSION, type PackageDatabase } from './schema.js';

/** What a package file says about itself. */
export interface PackageInfo extends PackageId {
  readonly description: string;
  readonly source: string;
  /** ISO 8601 time of the build. */
  readonly builtAt: string;
  readonly formatVersion: number;
}

interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

let expectedSchema: Promise<string[]> | undefined;

/** The schema objects of an empty package, built once in memory: the reference every file must match. */
function referenceSchema(): Promise<string[]> {
  expectedSchema ??= (async () => {
    // Kysely only here: validating a file is rare, searching is not.
    const { Kysely, SqliteDialect } = await import('kysely');
    const database = new Database(':memory:');
    const db = new Kysely<PackageDatabase>({ dialect: new SqliteDialect({ database }) });
    try {
      await createPackageSchema(db);
      return schemaOf(database);
    } finally {
      await db.destroy();
    }
  })();
  return expectedSchema;
}

function schemaOf(database: Database.Database): string[] {
  const rows = database.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as SchemaObject[];
  return rows.map((r) => JSON.stringify([r.type, r.name, r.tbl_name, r.sql])).sort();
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Checks that `file` is a complete documentation package of the format this
 * code reads and returns its metadata: a SQLite file with exactly the
 * expected tables (no triggers, views or extra objects), one metadata row,
 * passing SQLite's quick check, and rows that keep the format's rules (see
 * package-content.ts) with a search index that matches them. Throws
 * StoreError('invalid-package' | 'unknown-format') with the reason otherwise.
 * The file is only read: the checks run on a copy, so neither a journal nor
 * WAL side files ever appear beside it.
 */
export async function inspectPackageFile(file: string): Promise<PackageInfo> {
  await assertSqliteHeader(file);
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-inspect-'));
  try {
    const copy = path.join(dir, 'package.db');
    await copyFile(file, copy);
    return await validatePackageCopy(copy, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Validates a private copy of a package (`copy`, named `subject` in messages)
 * and normalises it in place: a file in WAL mode becomes a rollback-journal
 * file, so a read-only reader never creates `-wal` or `-shm` files beside it.
 * The copy is opened read-write because FTS5's integrity check is a command
 * written as an INSERT; it changes nothing.
 */
export async function validatePackageCopy(
  copy: string,
  subject: string,
  options: {
    /**
     * Run SQLite's quick check and check every row against the format's rules.
     * Only a file this process wrote and nothing changed since may skip them. @default true
     */
    readonly rows?: boolean;
  } = {},
): Promise<PackageInfo> {
  const expected = await referenceSchema();
  let database: Database.Database;
  try {
    database = new Database(copy, { fileMustExist: true });
  } catch (error) {
    throw new StoreError('invalid-package', `${subject} cannot be opened as SQLite: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const formatVersion = assertReadableFormat(database, subject);
    assertSchema(database, subject, expected);
    const checkRows = options.rows ?? true;
    if (checkRows) {
      const check = database.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new StoreError('invalid-package', `${subject} is damaged: ${String(check)}`);
    }
    assertValidVectors(database, subject);
    const rows = database.prepare('SELECT * FROM package').all() as Array<Record<string, unknown>>;
    const row = rows[0];
    if (rows.length !== 1 || row === undefined) {
      throw new StoreError('invalid-package', `${subject} must hold exactly one package row, found ${rows.length}`);
    }
    const problem = checkRows ? contentProblem(database) : undefined;
    if (problem !== undefined) throw new StoreError('invalid-package', `${subject} has bad data: ${problem}`);
    const info = toPackageInfo(row);
    if (info.formatVersion !== formatVersion) {
      throw new StoreError('invalid-package', `${subject} disagrees with itself about its format version`);
    }
    try {
      assertValidName(info.name);
      assertValidVersion(info.version);
    } catch (error) {
      throw new StoreError('invalid-package', `${subject}: ${(error as Error).message}`, { cause: error });
    }
    if (database.pragma('journal_mode', { simple: true }) !== 'delete') database.pragma('journal_mode = DELETE');
    return info;
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError('invalid-package', `${subject} is not a readable package: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    database.close();
  }
}

function assertSchema(database: Database.Database, subject: string, expected: readonly string[]): void {
  const actual = schemaOf(database);
  const unexpected = actual.filter((o) => !expected.includes(o));
  const missing = expected.filter((o) => !actual.includes(o));
  if (unexpected.length === 0 && missing.length === 0) return;
  const describe = (o: string) => {
    const [type, name] = JSON.parse(o) as [string, string];
    return `${type} ${name}`;
  };
  const parts = [
    unexpected.length > 0 ? `unexpected ${unexpected.map(describe).join(', ')}` : '',
    missing.length > 0 ? `missing or different ${missing.map(describe).join(', ')}` : '',
  ].filter(Boolean);
  throw new StoreError('invalid-package', `${subject} does not have the package schema: ${parts.join('; ')}`);
}

/**
 * The package's format version (`PRAGMA user_version`), when it is the one
 * this code reads; otherwise a StoreError that says which side to upgrade.
 * `subject` names the package in the message (a file, or `name@version`).
 */
export function assertReadableFormat(database: Database.Database, subject: string): number {
  const formatVersion = database.pragma('user_version', { simple: true }) as number;
  if (formatVersion === PACKAGE_FORMAT_VERSION) return formatVersion;
  // Any other SQLite file reads as version 0: say what it is rather than call it an old package.
  if (!database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'package'").get()) {
    throw new StoreError(
      'invalid-package',
      `${subject} is a SQLite database but not a documentation package (it has no "package" table)`,
    );
  }
  const advice =
    formatVersion > PACKAGE_FORMAT_VERSION
      ? 'it was built by a newer docs; upgrade docs to read it'
      : 'it was built by an older docs; rebuild it';
  throw new StoreError(
    'unknown-format',
    `${subject} has package format version ${formatVersion}, and this docs reads version ${PACKAGE_FORMAT_VERSION}: ${advice}`,
  );
}

export async function assertSqliteHeader(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new StoreError('invalid-package', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    if (bytesRead < header.length || header.toString('latin1') !== SQLITE_MAGIC) {
      throw new StoreError('invalid-package', `${file} is not a SQLite file`);
    }
  } finally {
    await handle.close();
  }
}

/** Maps the package row to its public shape. */
export function toPackageInfo(row: Record<string, unknown>): PackageInfo {
  return {
    name: String(row.name),
    version: String(row.version),
    description: String(row.description ?? ''),
    source: String(row.source ?? ''),
    builtAt: String(row.built_at ?? ''),
    formatVersion: Number(row.format_version),
  };
}

/**
 * A package has no vectors, or one embedder row and exactly one vector per
 * chunk, each `dimensions` finite float32 values: a search never meets a
 * package with part of its vectors, or one it would misread.
 */
function assertValidVectors(database: Database.Database, file: string): void {
  const embedders = database.prepare('SELECT id, dimensions FROM embedder').all() as Array<{
    id: unknown;
    dimensions: unknown;
  }>;
  const vectors = (database.prepare('SELECT count(*) AS n FROM chunk_vectors').get() as { n: number }).n;
  const fail = (reason: string) => {
    throw new StoreError('invalid-package', `${file} has invalid vectors: ${reason}`);
  };
  const embedder = embedders[0];
  if (embedder === undefined) {
    if (vectors > 0) fail(`${vectors} vectors but no embedder`);
    return;
  }
  if (embedders.length > 1) fail(`${embedders.length} embedder rows, at most one is allowed`);
  const { id, dimensions } = embedder;
  if (typeof id !== 'string' || id.trim() === '') fail('the embedder has no id');
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    fail(`the embedder's dimensions are ${String(dimensions)}`);
  }
  const unmatched = database
    .prepare(
      `SELECT (SELECT count(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM chunk_vectors)) AS missing,
              (SELECT count(*) FROM chunk_vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)) AS orphans`,
    )
    .get() as { missing: number; orphans: number };
  if (unmatched.missing > 0) fail(`${unmatched.missing} sections have no vector`);
  if (unmatched.orphans > 0) fail(`${unmatched.orphans} vectors belong to no section`);
  const statement = database.prepare('SELECT chunk_id, vector FROM chunk_vectors').raw();
  for (const [chunk, blob] of statement.iterate() as Iterable<[number, unknown]>) {
    if (!(blob instanceof Uint8Array) || blob.byteLength !== (dimensions as number) * 4) {
      fail(`the vector of section ${chunk} is not ${String(dimensions)} float32 values`);
    }
    const bytes = blob as Uint8Array;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset < bytes.byteLength; offset += 4) {
      if (!Number.isFinite(view.getFloat32(offset, true)))
        fail(`the vector of section ${chunk} holds a value that is not finite`);
    }
  }
}
