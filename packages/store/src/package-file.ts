import { copyFile, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkQueries, packageSchema, readQueries } from './compiled-queries.js';
import { dropIndex, rederivePackage } from './derived-data.js';
import { StoreError } from './errors.js';
import { assertFileNameFits, assertValidName, assertValidVersion, type PackageId } from './names.js';
import { contentProblem } from './package-content.js';
import { PACKAGE_FORMAT_VERSION, type PackageTable } from './schema.js';
import { createSchema, openReadOnlyDatabase, userVersion } from './sqlite.js';
import { rows, tuples } from './statement.js';

/** What a package file says about itself. */
export interface PackageInfo extends PackageId {
  readonly description: string;
  readonly source: string;
  /** ISO 8601 time of the build. */
  readonly builtAt: string;
  readonly formatVersion: number;
}

let expectedSchema: string[] | undefined;

/** The schema objects of an empty package, built once in memory: the reference every file must match. */
function referenceSchema(): string[] {
  if (!expectedSchema) {
    const database = new Database(':memory:');
    try {
      createSchema(database, packageSchema);
      expectedSchema = schemaOf(database);
    } finally {
      database.close();
    }
  }
  return expectedSchema;
}

function schemaOf(database: Database.Database): string[] {
  return rows(checkQueries.schemaObjects)
    .on(database)
    .all()
    .map((r) => JSON.stringify([r.type, r.name, r.tbl_name, r.sql]))
    .sort();
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Checks that `file` is a complete documentation package of the format this
 * code reads and returns its metadata: a SQLite file with exactly the
 * expected tables (no triggers, views or extra objects), one metadata row,
 * passing SQLite's quick check, and rows that keep the format's rules (see
 * package-content.ts) from which its search index can be made again. Throws
 * StoreError('invalid-package' | 'unknown-format') with the reason otherwise.
 * The file is only read: the checks run on a copy, so neither a journal nor
 * WAL side files ever appear beside it.
 */
export async function inspectPackageFile(file: string): Promise<PackageInfo> {
  await assertSqliteHeader(file);
  // The pid in the name lets the next docs remove it if this process is killed meanwhile (see @docs/sources).
  const dir = await mkdtemp(path.join(tmpdir(), `docs-inspect-${process.pid}-`));
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
 * and normalises it in place: its derived data (search index, token and link
 * counts) is made again from its rows, never taken from the file, and a file in
 * WAL mode becomes a rollback-journal file, so a read-only reader never creates
 * `-wal` or `-shm` files beside it.
 * The copy is opened read-write: it is rewritten so.
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
    /**
     * Make the package's derived data again from its rows (derived-data.ts): the search index, token counts, link
     * counts. Only a file whose derived data this process made may skip it. @default rows
     */
    readonly rederive?: boolean;
  } = {},
): Promise<PackageInfo> {
  const expected = referenceSchema();
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
    const rederive = options.rederive ?? checkRows;
    if (rederive) dropIndex(database);
    if (checkRows) {
      const check = database.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new StoreError('invalid-package', `${subject} is damaged: ${String(check)}`);
    }
    assertValidVectors(database, subject);
    const packageRows = rows(checkQueries.packageRows).on(database).all();
    const row = packageRows[0];
    if (packageRows.length !== 1 || row === undefined) {
      throw new StoreError(
        'invalid-package',
        `${subject} must hold exactly one package row, found ${packageRows.length}`,
      );
    }
    const problem = checkRows ? contentProblem(database, { index: !rederive }) : undefined;
    if (problem !== undefined) throw new StoreError('invalid-package', `${subject} has bad data: ${problem}`);
    if (rederive) await rederivePackage(database);
    const info = toPackageInfo(row);
    if (info.formatVersion !== formatVersion) {
      throw new StoreError('invalid-package', `${subject} disagrees with itself about its format version`);
    }
    try {
      assertValidName(info.name);
      assertValidVersion(info.version);
      assertFileNameFits(info);
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
  const formatVersion = userVersion(database);
  if (formatVersion === PACKAGE_FORMAT_VERSION) return formatVersion;
  // Any other SQLite file reads as version 0: say what it is rather than call it an old package.
  if (!rows(checkQueries.packageTable).on(database).get()) {
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

/**
 * When the installed package at `file` was built (its `builtAt`), read from its package row alone; undefined when the
 * file cannot be read so (removed meanwhile, damaged), which orders it below every package whose time is known.
 */
export function readBuiltAt(file: string): string | undefined {
  let database: Database.Database | undefined;
  try {
    database = openReadOnlyDatabase(file);
    const row = rows(readQueries.packageRow).on(database).get();
    return row === undefined ? undefined : toPackageInfo(row).builtAt;
  } catch {
    return undefined;
  } finally {
    database?.close();
  }
}

/**
 * Maps the package row to its public shape. Each value is converted, not trusted: the row is as the file holds it,
 * whatever its declared types say.
 */
export function toPackageInfo(row: PackageTable): PackageInfo {
  return {
    name: String(row.name),
    version: String(row.version),
    description: String(row.description ?? ''),
    source: String(row.source ?? ''),
    builtAt: String(row.built_at ?? ''),
    formatVersion: Number(row.format_version),
  };
}

/** An embedder id as models name themselves (`transformers:bge-small-en-v1.5:384`): printable ASCII, no spaces. */
const EMBEDDER_ID = /^[\x21-\x7e]{1,200}$/;
const EMBEDDER_ID_RULE = 'at most 200 printable ASCII characters without spaces';

/** More dimensions than any sentence-embedding model gives (the largest common ones give 4,096). */
const MAX_DIMENSIONS = 16_384;

/**
 * A package has no vectors, or one embedder row and exactly one vector per
 * chunk, each `dimensions` finite float32 values: a search never meets a
 * package with part of its vectors, or one it would misread.
 */
function assertValidVectors(database: Database.Database, file: string): void {
  const embedders = rows(checkQueries.embedderRows).on(database).all();
  const vectors = rows(checkQueries.vectorCount).on(database).get()?.count ?? 0;
  const fail: (reason: string) => never = (reason) => {
    throw new StoreError('invalid-package', `${file} has invalid vectors: ${reason}`);
  };
  const embedder = embedders[0];
  if (embedder === undefined) {
    if (vectors > 0) fail(`${vectors} vectors but no embedder`);
    return;
  }
  if (embedders.length > 1) fail(`${embedders.length} embedder rows, at most one is allowed`);
  // As the file holds them, whatever the table's declared types say.
  const id: unknown = embedder.id;
  const dimensions: unknown = embedder.dimensions;
  if (typeof id !== 'string' || id.trim() === '') fail('the embedder has no id');
  // Only ever compared with a model's id, and shown in notes: a short printable name, never text of any length.
  if (!EMBEDDER_ID.test(id)) fail(`the embedder's id is not ${EMBEDDER_ID_RULE}`);
  if (typeof dimensions === 'number' && dimensions > MAX_DIMENSIONS) {
    fail(`the embedder's dimensions are ${dimensions}, more than ${MAX_DIMENSIONS}`);
  }
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    fail(`the embedder's dimensions are ${String(dimensions)}`);
  }
  const unmatched = rows(checkQueries.unmatchedVectors).on(database).get();
  const missing = unmatched?.missing ?? 0;
  const orphans = unmatched?.orphans ?? 0;
  if (missing > 0) fail(`${missing} sections have no vector`);
  if (orphans > 0) fail(`${orphans} vectors belong to no section`);
  for (const [chunk, vector] of tuples(checkQueries.vectors).on(database).iterate()) {
    const blob: unknown = vector;
    if (!(blob instanceof Uint8Array) || blob.byteLength !== dimensions * 4) {
      fail(`the vector of section ${chunk} is not ${String(dimensions)} float32 values`);
    }
    const bytes = blob;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset < bytes.byteLength; offset += 4) {
      if (!Number.isFinite(view.getFloat32(offset, true)))
        fail(`the vector of section ${chunk} holds a value that is not finite`);
    }
  }
}
