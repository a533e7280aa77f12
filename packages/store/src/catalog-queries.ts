import { type Kysely, type RawBuilder, sql } from 'kysely';
import { CATALOG_VERSION, type CatalogDatabase, type TokenizerDatabase } from './catalog-schema.js';

// The store's catalog (catalog.ts) as Kysely sees it, and every statement over it, compiled once, ahead of time, into
// compiled-queries.ts (see statement.ts).

/** The index's tokenizer, as package files declare it (package-queries.ts): the catalog tokenizes query terms with it. */
const TOKENIZER = 'unicode61 remove_diacritics 2';

type Db = Kysely<CatalogDatabase>;

/** The values of a JSON array, as a table (`json_each`): a list is bound as one parameter. */
function jsonEach<T>(json: string): RawBuilder<{ value: T }> {
  return sql<{ value: T }>`json_each(${json})`;
}

/** An element of a JSON array held in a column, by index. */
function element<T>(column: string, index: number): RawBuilder<T> {
  return sql<T>`${sql.ref(column)} ->> ${sql.lit(index)}`;
}

/** The statements that make an empty catalog, in order. */
export const catalogSchema = [
  (db: Db) =>
    db.schema
      .createTable('libraries')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('file', 'text', (c) => c.notNull().unique())
      .addColumn('mtime_ms', 'real', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('chunks', 'integer', (c) => c.notNull())
      .addColumn('vectors', 'integer', (c) => c.notNull()),
  (db: Db) =>
    db.schema
      .createTable('terms')
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('library', 'integer', (c) => c.notNull())
      .addColumn('df', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('terms_token_library', ['token', 'library'])
      .modifyEnd(sql`without rowid`),
  (db: Db) => db.schema.createIndex('terms_library').on('terms').column('library'),
  () => sql`PRAGMA user_version = ${sql.lit(CATALOG_VERSION)}`,
];

/** The statements over the catalog (catalog.ts). */
export const catalogQueries = {
  /** Reads nothing: fails unless the tables have the columns this code reads. */
  librariesColumns: (db: Db) =>
    db.selectFrom('libraries').select(['id', 'file', 'mtime_ms', 'bytes', 'chunks', 'vectors']).limit(sql.lit(0)),
  termsColumns: (db: Db) => db.selectFrom('terms').select(['token', 'library', 'df']).limit(sql.lit(0)),
  tableCount: (db: Db) =>
    db
      .selectFrom('sqlite_master')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('type', '=', sql.lit('table')),
  libraries: (db: Db) => db.selectFrom('libraries').select(['id', 'file', 'mtime_ms', 'bytes', 'chunks', 'vectors']),
  /** Each library holding one of the tokens (a JSON array), with how many of its chunks do. */
  termRows: (db: Db, p: { tokens: string }) =>
    db
      .selectFrom(jsonEach<string>(p.tokens).as('j'))
      .innerJoin('terms as t', 't.token', 'j.value')
      .select(['t.token', 't.library', 't.df']),
  findLibrary: (db: Db, p: { file: string }) => db.selectFrom('libraries').select('id').where('file', '=', p.file),
  addLibrary: (db: Db, p: { file: string; mtimeMs: number; bytes: number; chunks: number; vectors: number }) =>
    db
      .insertInto('libraries')
      .values({ file: p.file, mtime_ms: p.mtimeMs, bytes: p.bytes, chunks: p.chunks, vectors: p.vectors }),
  updateLibrary: (db: Db, p: { id: number; mtimeMs: number; bytes: number; chunks: number; vectors: number }) =>
    db
      .updateTable('libraries')
      .set({ mtime_ms: p.mtimeMs, bytes: p.bytes, chunks: p.chunks, vectors: p.vectors })
      .where('id', '=', p.id),
  /** Drops a library's tokens that are not in `terms` (a JSON array of [token, chunks]). */
  dropOldTerms: (db: Db, p: { library: number; terms: string }) =>
    db
      .deleteFrom('terms')
      .where('library', '=', p.library)
      .where('token', 'not in', (eb) =>
        eb.selectFrom(jsonEach<string>(p.terms).as('j')).select(element<string>('j.value', 0).as('token')),
      ),
  /**
   * Writes a library's tokens and counts (a JSON array of [token, chunks]), unpacked inside SQLite, changing only
   * the rows that differ. `where true` tells SQLite's parser that the ON CONFLICT belongs to the INSERT, not to the
   * SELECT.
   */
  putTerms: (db: Db, p: { library: number; terms: string }) =>
    db
      .insertInto('terms')
      .columns(['token', 'library', 'df'])
      .expression((eb) =>
        eb
          .selectFrom(jsonEach<string>(p.terms).as('j'))
          .select([
            element<string>('j.value', 0).as('token'),
            sql<number>`${p.library}`.as('library'),
            element<number>('j.value', 1).as('df'),
          ])
          .where(sql<boolean>`true`),
      )
      .onConflict((oc) =>
        oc
          .columns(['token', 'library'])
          .doUpdateSet({ df: (eb) => eb.ref('excluded.df') })
          .where('df', '!=', (eb) => eb.ref('excluded.df')),
      ),
  forgetTerms: (db: Db, p: { file: string }) =>
    db
      .deleteFrom('terms')
      .where('library', 'in', (eb) => eb.selectFrom('libraries').select('id').where('file', '=', p.file)),
  forgetLibrary: (db: Db, p: { file: string }) => db.deleteFrom('libraries').where('file', '=', p.file),
};

/** The statements of the in-memory tokenizer (catalog.ts). */
export const tokenizerQueries = {
  createTable: () => sql`CREATE VIRTUAL TABLE q USING fts5(t, tokenize=${sql.lit(TOKENIZER)})`,
  createVocabulary: () => sql`CREATE VIRTUAL TABLE qv USING fts5vocab(q, instance)`,
  insertText: (db: Kysely<TokenizerDatabase>, p: { row: number; text: string }) =>
    db.insertInto('q').values({ rowid: p.row, t: p.text }),
  /** Each token of each text, in order. */
  tokens: (db: Kysely<TokenizerDatabase>) =>
    db.selectFrom('qv').select(['doc', 'term']).orderBy('doc').orderBy('offset'),
  clear: (db: Kysely<TokenizerDatabase>) => db.deleteFrom('q'),
};
