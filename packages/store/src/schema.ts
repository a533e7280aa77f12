import type { Generated, Kysely } from 'kysely';

/**
 * The package format version this code reads and writes. Bump it whenever a
 * table, column or index changes meaning; readers refuse other versions.
 */
export const PACKAGE_FORMAT_VERSION = 3;

/** The single row describing the package. */
export interface PackageTable {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly source: string;
  /** ISO 8601 time of the build. */
  readonly built_at: string;
  readonly format_version: number;
}

export interface DocumentTable {
  readonly id: Generated<number>;
  /** Relative to the docs root, `/`-separated. */
  readonly path: string;
  readonly title: string;
  /** The whole page as it was indexed. */
  readonly content: string;
  /** How many other documents of the package link to this one. */
  readonly inbound_links: Generated<number>;
}

export interface ChunkTable {
  readonly id: Generated<number>;
  readonly document_id: number;
  /** Position of the chunk within its document, from 0. */
  readonly ord: number;
  /** JSON array of heading texts, outermost first. */
  readonly breadcrumb: string;
  /** Heading level of the chunk's own heading; 0 before the first heading. */
  readonly level: number;
  readonly content: string;
  readonly tokens: number;
}

/**
 * The model that made the package's vectors: no row when the package has
 * none, one row when every chunk has one. The store never reads a model, it
 * only keeps the id a model gave itself so a reader can tell whether its own
 * model speaks the same language.
 */
export interface EmbedderTable {
  /** `<provider>:<model>:<dimensions>`, as the embedder names itself. */
  readonly id: string;
  readonly dimensions: number;
}

/** One vector per chunk: `dimensions` little-endian float32 values of unit length. */
export interface ChunkVectorTable {
  readonly chunk_id: number;
  readonly vector: Uint8Array;
}

/** The tables of one package file, as Kysely sees them. */
export interface PackageDatabase {
  readonly package: PackageTable;
  readonly documents: DocumentTable;
  readonly chunks: ChunkTable;
  readonly embedder: EmbedderTable;
  readonly chunk_vectors: ChunkVectorTable;
}

/** FTS5 columns, in order; bm25() weights are given in this order too. */
// `headings` is the section's heading trail, `heading` its own heading alone, so
// a search can tell the section named for a topic from its sub-sections.
export const FTS_COLUMNS = ['title', 'headings', 'heading', 'body'] as const;

/** One indexed column. */
export type FtsColumn = (typeof FTS_COLUMNS)[number];

/**
 * Creates the tables of an empty package. Package files are immutable
 * artefacts built in one go, never migrated in place, so the schema is created
 * whole and its version recorded in `PRAGMA user_version` and in the package row.
 */
export async function createPackageSchema(db: Kysely<PackageDatabase>): Promise<void> {
  const { sql } = await import('kysely');
  await db.schema
    .createTable('package')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .addColumn('format_version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('documents')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('inbound_links', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('chunks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('ord', 'integer', (c) => c.notNull())
    .addColumn('breadcrumb', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('embedder')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .execute();
  // A BLOB per chunk, read whole into one array per reader: measured in docs/benchmarks.md
  // against an index (sqlite-vec), brute force over it is fast enough well past 50k sections.
  await db.schema
    .createTable('chunk_vectors')
    .addColumn('chunk_id', 'integer', (c) => c.primaryKey().references('chunks.id'))
    .addColumn('vector', 'blob', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chunks_document_ord').on('chunks').columns(['document_id', 'ord']).unique().execute();
  // Contentless: the text lives in `chunks`, the index only needs the terms.
  // unicode61 folds case and accents. No porter stemmer: measured on the
  // labelled dev set it cost 0.04–0.07 MRR@10 (docs are full of names whose
  // inflections mean different things: "test"/"tests", "query"/"queries").
  await sql`CREATE VIRTUAL TABLE chunks_fts USING fts5(${sql.raw(FTS_COLUMNS.join(', '))}, content='', tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`PRAGMA user_version = ${sql.raw(String(PACKAGE_FORMAT_VERSION))}`.execute(db);
}
