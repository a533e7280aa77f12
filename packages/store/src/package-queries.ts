import { type Compilable, type Kysely, type RawBuilder, sql } from 'kysely';
import type { ColumnWeights } from './fts-query.js';
import {
  FTS_COLUMNS,
  MAX_BREADCRUMB,
  MAX_LINE,
  PACKAGE_FORMAT_VERSION,
  type PackageDatabase,
  type PackageFileDatabase,
} from './schema.js';

// Every statement over a package file, as a Kysely query (see statement.ts): compiled once, ahead of time, into
// compiled-queries.ts. Each builder takes its parameters as one object, named as the statement binds them.

type Db = Kysely<PackageFileDatabase>;

/** The values of a JSON array, as a table (`json_each`): a list of ids is bound as one parameter. */
function jsonEach<T>(json: string): RawBuilder<{ value: T; type: string }> {
  return sql<{ value: T; type: string }>`json_each(${json})`;
}

/** A chunk's `-bm25()` under the columns' weights: larger is better. */
function negatedBm25(weights: ColumnWeightParams): RawBuilder<number> {
  const { title, headings, heading, body } = weights;
  return sql<number>`-bm25(${sql.table('chunks_fts')}, ${title}, ${headings}, ${heading}, ${body})`;
}

/** bm25()'s weight of each indexed column. */
type ColumnWeightParams = Required<ColumnWeights>;

/**
 * The statements that make an empty package, in order. Package files are immutable artefacts built in one go, never
 * migrated in place, so the schema is created whole and its version recorded in `PRAGMA user_version` and in the
 * package row. The text of each is what a package file holds in `sqlite_master` (a file is checked against it), so
 * a change here is a new format version.
 */
export const packageSchema = [
  (db: Db) =>
    db.schema
      .createTable('package')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('built_at', 'text', (c) => c.notNull())
      .addColumn('format_version', 'integer', (c) => c.notNull()),
  (db: Db) =>
    db.schema
      .createTable('documents')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('path', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('inbound_links', 'integer', (c) => c.notNull().defaultTo(0)),
  (db: Db) =>
    db.schema
      .createTable('chunks')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
      .addColumn('ord', 'integer', (c) => c.notNull())
      .addColumn('breadcrumb', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('tokens', 'integer', (c) => c.notNull()),
  (db: Db) =>
    db.schema
      .createTable('embedder')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('dimensions', 'integer', (c) => c.notNull()),
  // A BLOB per chunk, read whole into one array per reader: measured in docs/benchmarks.md
  // against an index (sqlite-vec), brute force over it is fast enough well past 50k sections.
  (db: Db) =>
    db.schema
      .createTable('chunk_vectors')
      .addColumn('chunk_id', 'integer', (c) => c.primaryKey().references('chunks.id'))
      .addColumn('vector', 'blob', (c) => c.notNull()),
  (db: Db) => db.schema.createIndex('chunks_document_ord').on('chunks').columns(['document_id', 'ord']).unique(),
  // Contentless: the text lives in `chunks`, the index only needs the terms.
  // unicode61 folds case and accents. No porter stemmer: measured on the
  // labelled dev set it cost 0.04–0.07 MRR@10 (docs are full of names whose
  // inflections mean different things: "test"/"tests", "query"/"queries").
  () =>
    sql`CREATE VIRTUAL TABLE chunks_fts USING fts5(${sql.raw(FTS_COLUMNS.join(', '))}, content='', tokenize='unicode61 remove_diacritics 2')`,
  () => sql`PRAGMA user_version = ${sql.lit(PACKAGE_FORMAT_VERSION)}`,
];

/** One rule every row of a table must keep, and the query that finds the first row breaking it. */
export interface ContentRuleQuery {
  readonly table: string;
  /** What a row breaking the rule has, for the refusal: "breadcrumb is not a JSON array of strings". */
  readonly problem: string;
  /** The id of the first row breaking the rule, if any: the table is read once, up to that row. */
  readonly query: (db: Db) => Compilable<{ id: number }>;
}

/** A column name of a package table. */
type ColumnOf<T extends keyof PackageDatabase> = keyof PackageDatabase[T] & string;

/** SQLite's storage class of a column's value: 'integer', 'real', 'text', 'blob' or 'null'. */
function typeOf(column: string): RawBuilder<string> {
  return sql<string>`typeof(${sql.ref(column)})`;
}

/** The first row of `table` (by `id`) where `broken` holds. */
function firstWhere(
  table: keyof PackageDatabase,
  broken: RawBuilder<boolean>,
  id: 'id' | 'rowid' = 'id',
): (db: Db) => Compilable<{ id: number }> {
  return (db) =>
    db
      .selectFrom(table)
      .select(sql<number>`${sql.ref(id)}`.as('id'))
      .where(broken)
      .limit(sql.lit(1));
}

/** A column SQLite holds as text (NULL, a number or a blob is not). */
function textRule<T extends keyof PackageDatabase>(
  table: T,
  column: ColumnOf<T>,
  id: 'id' | 'rowid' = 'id',
): ContentRuleQuery {
  return {
    table,
    problem: `${column} is not text`,
    query: firstWhere(table, sql<boolean>`${typeOf(column)} != 'text'`, id),
  };
}

/**
 * Text of at most `max` characters. An answer carries a section's page title, path and headings beside its text, and
 * only the text is counted against the token budget: a heading of megabytes would make any budget meaningless.
 */
function shortTextRule<T extends keyof PackageDatabase>(table: T, column: ColumnOf<T>, max: number): ContentRuleQuery {
  return {
    table,
    problem: `${column} is longer than ${max} characters`,
    query: firstWhere(table, sql<boolean>`length(${sql.ref(column)}) > ${sql.lit(max)}`),
  };
}

/** A whole number in [min, max]. */
function wholeNumberRule<T extends keyof PackageDatabase>(
  table: T,
  column: ColumnOf<T>,
  min: number,
  max?: number,
): ContentRuleQuery {
  const value = sql.ref(column);
  const outside =
    max === undefined
      ? sql<boolean>`${typeOf(column)} != 'integer' or ${value} < ${sql.lit(min)}`
      : sql<boolean>`${typeOf(column)} != 'integer' or ${value} < ${sql.lit(min)} or ${value} > ${sql.lit(max)}`;
  return {
    table,
    problem: `${column} is not a whole number ${max === undefined ? `≥ ${min}` : `from ${min} to ${max}`}`,
    query: firstWhere(table, outside),
  };
}

/** The largest id or position a package row may hold: 2^31 - 1. */
const MAX_ID = 2_147_483_647;

/**
 * The rules every row of a package keeps (package-content.ts checks them in this order). A new table (a format bump)
 * adds its rules here.
 */
export const contentRules: readonly ContentRuleQuery[] = [
  ...(['name', 'version', 'description', 'source', 'built_at'] as const).map((c) => textRule('package', c, 'rowid')),
  textRule('documents', 'path'),
  textRule('documents', 'title'),
  textRule('documents', 'content'),
  wholeNumberRule('documents', 'inbound_links', 0),
  // Ids and positions within what a reader keys and adds without losing a digit (chunk-fields.ts keys chunks by id
  // below 2^32); a build numbers them from 1 (ids) and 0 (positions) and never comes near.
  wholeNumberRule('documents', 'id', 1, MAX_ID),
  shortTextRule('documents', 'path', MAX_LINE),
  shortTextRule('documents', 'title', MAX_LINE),
  textRule('chunks', 'content'),
  wholeNumberRule('chunks', 'id', 1, MAX_ID),
  wholeNumberRule('chunks', 'document_id', 1, MAX_ID),
  wholeNumberRule('chunks', 'ord', 0, MAX_ID),
  // Markdown has six heading levels; 0 is the text before the first heading.
  wholeNumberRule('chunks', 'level', 0, 6),
  wholeNumberRule('chunks', 'tokens', 0),
  {
    table: 'chunks',
    problem: 'breadcrumb is not a JSON array of strings',
    query: (db) =>
      db
        .selectFrom('chunks')
        .select('chunks.id')
        .where((eb) =>
          eb.or([
            eb(typeOf('breadcrumb'), '!=', sql.lit('text')),
            eb.not(eb.fn<boolean>('json_valid', ['breadcrumb'])),
            eb(eb.fn<string>('json_type', ['breadcrumb']), '!=', sql.lit('array')),
            eb.exists(
              eb
                .selectFrom(sql<{ type: string }>`json_each(${eb.ref('chunks.breadcrumb')})`.as('element'))
                .select(sql.lit(1).as('found'))
                .where('element.type', '!=', sql.lit('text')),
            ),
          ]),
        )
        .limit(sql.lit(1)),
  },
  shortTextRule('chunks', 'breadcrumb', MAX_BREADCRUMB),
  {
    table: 'chunks',
    problem: `a heading of breadcrumb is longer than ${MAX_LINE} characters`,
    query: (db) =>
      db
        .selectFrom('chunks')
        .select('chunks.id')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom(sql<{ value: string }>`json_each(${eb.ref('chunks.breadcrumb')})`.as('heading'))
              .select(sql.lit(1).as('found'))
              .where(sql<boolean>`length(${sql.ref('heading.value')}) > ${sql.lit(MAX_LINE)}`),
          ),
        )
        .limit(sql.lit(1)),
  },
  {
    table: 'chunks',
    problem: 'document_id names no document',
    query: (db) =>
      db
        .selectFrom('chunks as c')
        .leftJoin('documents as d', 'd.id', 'c.document_id')
        .select('c.id')
        .where('d.id', 'is', null)
        .limit(sql.lit(1)),
  },
];

/** The statements that write a package (package-writer.ts), each prepared once and run per row. */
export const writeQueries = {
  insertPackage: (
    db: Db,
    p: { name: string; version: string; description: string; source: string; builtAt: string; formatVersion: number },
  ) =>
    db.insertInto('package').values({
      name: p.name,
      version: p.version,
      description: p.description,
      source: p.source,
      built_at: p.builtAt,
      format_version: p.formatVersion,
    }),
  insertDocument: (db: Db, p: { id: number; path: string; title: string; content: string }) =>
    db.insertInto('documents').values({ id: p.id, path: p.path, title: p.title, content: p.content }),
  insertChunk: (
    db: Db,
    p: {
      id: number;
      documentId: number;
      ord: number;
      breadcrumb: string;
      level: number;
      content: string;
      tokens: number;
    },
  ) =>
    db.insertInto('chunks').values({
      id: p.id,
      document_id: p.documentId,
      ord: p.ord,
      breadcrumb: p.breadcrumb,
      level: p.level,
      content: p.content,
      tokens: p.tokens,
    }),
  indexChunk: (db: Db, p: { id: number; title: string; headings: string; heading: string; body: string }) =>
    db
      .insertInto('chunks_fts')
      .values({ rowid: p.id, title: p.title, headings: p.headings, heading: p.heading, body: p.body }),
  setInboundLinks: (db: Db, p: { count: number; path: string }) =>
    db.updateTable('documents').set({ inbound_links: p.count }).where('path', '=', p.path),
  // Merges the index's b-trees once: smaller file, faster queries (FTS5 takes commands as inserts).
  optimizeIndex: (db: Db) => db.insertInto('chunks_fts').values({ chunks_fts: sql.lit('optimize') }),
};

/** The statements a reader runs (package-reader.ts): the hot path of every search, each prepared once per connection. */
export const readQueries = {
  packageRow: (db: Db) =>
    db.selectFrom('package').select(['name', 'version', 'description', 'source', 'built_at', 'format_version']),
  embedder: (db: Db) => db.selectFrom('embedder').select(['id', 'dimensions']),
  vectors: (db: Db) => db.selectFrom('chunk_vectors').select(['chunk_id', 'vector']).orderBy('chunk_id'),
  /** The best `limit` rows for an FTS5 expression, ranked inside the index alone. */
  rankedRows: (db: Db, p: ColumnWeightParams & { expression: string; limit: number }) =>
    db
      .selectFrom('chunks_fts')
      .select(['rowid', negatedBm25(p).as('score')])
      .where('chunks_fts', 'match', p.expression)
      .orderBy('score', 'desc')
      .limit(p.limit),
  /** The rows among some chunk ids (a JSON array) that an FTS5 expression matches, with their score. */
  scoredRowsAmong: (db: Db, p: ColumnWeightParams & { expression: string; ids: string }) =>
    db
      .selectFrom('chunks_fts')
      .select(['rowid', negatedBm25(p).as('score')])
      .where('chunks_fts', 'match', p.expression)
      .where('rowid', 'in', (eb) => eb.selectFrom(jsonEach<number>(p.ids).as('j')).select('j.value')),
  /** The rowids an FTS5 expression matches, ascending (FTS5 lists a match in rowid order), as one JSON array. */
  matchingRowids: (db: Db, p: { expression: string }) =>
    db
      .selectFrom('chunks_fts')
      .select(sql<string>`json_group_array(rowid)`.as('rowids'))
      .where('chunks_fts', 'match', p.expression),
  /** Each row's `-bm25()` for an FTS5 expression, by rowid. */
  rowScores: (db: Db, p: ColumnWeightParams & { expression: string }) =>
    db
      .selectFrom('chunks_fts')
      .select(negatedBm25(p).as('score'))
      .where('chunks_fts', 'match', p.expression)
      .orderBy('rowid'),
  /** The fields of chunks by id (a JSON array), with their document's. */
  chunkFields: (db: Db, p: { ids: string }) =>
    db
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select([
        'c.id',
        'c.document_id',
        'c.ord',
        'd.path',
        'd.title',
        'c.breadcrumb',
        'c.level',
        'c.tokens',
        'd.inbound_links',
      ])
      .where('c.id', 'in', (eb) => eb.selectFrom(jsonEach<number>(p.ids).as('j')).select('j.value')),
  /** The content of chunks by id (a JSON array). */
  chunkContents: (db: Db, p: { ids: string }) =>
    db
      .selectFrom('chunks')
      .select(['id', 'content'])
      .where('id', 'in', (eb) => eb.selectFrom(jsonEach<number>(p.ids).as('j')).select('j.value')),
  document: (db: Db, p: { path: string }) =>
    db.selectFrom('documents').select(['path', 'title', 'content']).where('path', '=', p.path),
  documentList: (db: Db) => db.selectFrom('documents').select(['path', 'title']).orderBy('path'),
  stats: (db: Db) =>
    db
      .selectFrom('chunks')
      .select((eb) => [
        eb.selectFrom('documents').select(eb.fn.countAll<number>().as('count')).as('documents'),
        eb.fn.countAll<number>().as('chunks'),
        eb.fn.coalesce(eb.fn.sum<number>('tokens'), sql.lit(0)).as('tokens'),
      ]),
};

/** The statements that check a package file before it is installed (package-file.ts, package-content.ts). */
export const checkQueries = {
  schemaObjects: (db: Db) => db.selectFrom('sqlite_master').select(['type', 'name', 'tbl_name', 'sql']),
  /** Whether the file has a `package` table: any other SQLite file does not. */
  packageTable: (db: Db) =>
    db
      .selectFrom('sqlite_master')
      .select(sql.lit(1).as('found'))
      .where('type', '=', sql.lit('table'))
      .where('name', '=', sql.lit('package')),
  packageRows: (db: Db) =>
    db.selectFrom('package').select(['name', 'version', 'description', 'source', 'built_at', 'format_version']),
  embedderRows: (db: Db) => db.selectFrom('embedder').select(['id', 'dimensions']),
  vectorCount: (db: Db) => db.selectFrom('chunk_vectors').select((eb) => eb.fn.countAll<number>().as('count')),
  /** How many chunks have no vector, and how many vectors belong to no chunk. */
  unmatchedVectors: (db: Db) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('chunks')
        .select(eb.fn.countAll<number>().as('count'))
        .where('id', 'not in', eb.selectFrom('chunk_vectors').select('chunk_vectors.chunk_id'))
        .as('missing'),
      eb
        .selectFrom('chunk_vectors')
        .select(eb.fn.countAll<number>().as('count'))
        .where('chunk_id', 'not in', eb.selectFrom('chunks').select('chunks.id'))
        .as('orphans'),
    ]),
  vectors: (db: Db) => db.selectFrom('chunk_vectors').select(['chunk_id', 'vector']),
  // The index is contentless: its docsize table has one row per indexed chunk, so the two id sets must be the same,
  // or searches find chunks that are not there (or miss ones that are).
  unindexedChunk: (db: Db) =>
    db
      .selectFrom('chunks as c')
      .leftJoin('chunks_fts_docsize as f', 'f.id', 'c.id')
      .select('c.id')
      .where('f.id', 'is', null)
      .limit(sql.lit(1)),
  orphanIndexRow: (db: Db) =>
    db
      .selectFrom('chunks_fts_docsize as f')
      .leftJoin('chunks as c', 'c.id', 'f.id')
      .select('f.id')
      .where('c.id', 'is', null)
      .limit(sql.lit(1)),
  /** FTS5's own check of the index; reads the index only, but as a command it is an insert. */
  indexIntegrity: (db: Db) =>
    db.insertInto('chunks_fts').values({ chunks_fts: sql.lit('integrity-check'), rank: sql.lit(0) }),
};

/**
 * The statements that make a package's derived data again from its rows, at the install of a file built elsewhere
 * (derived-data.ts): the full-text index, each section's token count, and the link counts bounded by the documents.
 */
export const derivedQueries = {
  setTokens: (db: Db, p: { id: number; tokens: number }) =>
    db.updateTable('chunks').set({ tokens: p.tokens }).where('id', '=', p.id),
  /** No document is linked to by more documents than there are others. */
  boundInboundLinks: (db: Db) =>
    db
      .updateTable('documents')
      .set((eb) => ({
        inbound_links: eb.selectFrom('documents').select(sql<number>`count(*) - 1`.as('others')),
      }))
      .where('inbound_links', '>', (eb) => eb.selectFrom('documents').select(sql<number>`count(*) - 1`.as('others'))),
  /**
   * Drops the index with its shadow tables: whatever their blocks held is never read again. Last: the statements
   * are prepared in this order where they are compiled, and the index is made again from the package schema.
   */
  dropIndex: () => sql`DROP TABLE chunks_fts`,
};

/**
 * The statements that finish a vector job (vector-job.ts) on a copy of the package: its work file attached as
 * `work`, the vectors copied in, the embedder's id recorded.
 */
export const vectorQueries = {
  chunkCount: (db: Db) => db.selectFrom('chunks').select((eb) => eb.fn.countAll<number>().as('count')),
  embedderCount: (db: Db) => db.selectFrom('embedder').select((eb) => eb.fn.countAll<number>().as('count')),
  /** The sections after chunk `after`, in package order, with what an embedder reads of them. */
  sectionsAfter: (db: Db, p: { after: number; limit: number }) =>
    db
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select(['c.id', 'd.title', 'c.breadcrumb', 'c.level', 'c.content'])
      .where('c.id', '>', p.after)
      .orderBy('c.id')
      .limit(p.limit),
  attachWork: (_db: Db, p: { file: string }) => sql`ATTACH DATABASE ${p.file} AS work`,
  detachWork: () => sql`DETACH DATABASE work`,
  deleteVectors: (db: Db) => db.deleteFrom('chunk_vectors'),
  deleteEmbedder: (db: Db) => db.deleteFrom('embedder'),
  insertEmbedder: (db: Db, p: { id: string; dimensions: number }) =>
    db.insertInto('embedder').values({ id: p.id, dimensions: p.dimensions }),
  copyWorkVectors: (db: Db) =>
    db
      .insertInto('chunk_vectors')
      .columns(['chunk_id', 'vector'])
      .expression(db.selectFrom('work.vectors').select(['chunk_id', 'vector']).orderBy('chunk_id')),
  vacuum: () => sql`VACUUM`,
};

/** What the store's catalog reads of a package's index (catalog.ts): its tokens, with how many chunks hold each. */
export const vocabularyQueries = {
  createVocabulary: () => sql`CREATE VIRTUAL TABLE temp.catalog_vocabulary USING fts5vocab(main, chunks_fts, row)`,
  /** `[[token, chunks], …]` as one JSON array, made and read back by SQLite: no JavaScript value per token. */
  vocabulary: (db: Db) =>
    db
      .selectFrom('temp.catalog_vocabulary')
      .select((eb) => eb.fn<string>('json_group_array', [eb.fn('json_array', ['term', 'doc'])]).as('terms')),
  chunkCount: (db: Db) => db.selectFrom('chunks').select((eb) => eb.fn.countAll<number>().as('count')),
  embedderCount: (db: Db) => db.selectFrom('embedder').select((eb) => eb.fn.countAll<number>().as('count')),
};
