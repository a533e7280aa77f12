import type { ColumnType, Generated } from 'kysely';

/**
 * The package format version this code reads and writes. Bump it whenever a
 * table, column or index changes meaning; readers refuse other versions.
 */
export const PACKAGE_FORMAT_VERSION = 3;

/** The longest page title, path or single heading a package may hold, in characters: a line, not a page. */
export const MAX_LINE = 1_000;

/** The longest breadcrumb (as its JSON text) a package may hold, in characters. */
export const MAX_BREADCRUMB = 4 * MAX_LINE;

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
 * The package's full-text index (FTS5, contentless) as statements name it: the indexed columns, the hidden rowid
 * (the chunk's id), and the hidden columns named for the table (a MATCH's left side, and the column FTS5 takes
 * commands in) and `rank` (a command's argument).
 */
export interface ChunkIndexTable {
  readonly rowid: LeftOutOfCommands<number>;
  readonly title: LeftOutOfCommands<string>;
  readonly headings: LeftOutOfCommands<string>;
  readonly heading: LeftOutOfCommands<string>;
  readonly body: LeftOutOfCommands<string>;
  readonly chunks_fts: LeftOutOfRows<string>;
  readonly rank: LeftOutOfRows<number>;
}

/** A column of an FTS5 row, which an insert of a command (`optimize`, `integrity-check`) leaves out. */
type LeftOutOfCommands<T> = ColumnType<T, T | undefined, never>;

/** A column that takes an FTS5 command and its argument, which an insert of a row leaves out. */
type LeftOutOfRows<T> = ColumnType<T, T | undefined, never>;

/** The index's table of row sizes: one row per indexed chunk, by the chunk's id. */
export interface ChunkIndexSizeTable {
  readonly id: number;
  readonly sz: Uint8Array;
}

/** SQLite's own table of a file's schema objects. */
export interface SchemaObjectTable {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

/** An `fts5vocab` table of type `row` over the index: each token and how many chunks hold it. */
export interface IndexVocabularyTable {
  readonly term: string;
  readonly doc: number;
  readonly cnt: number;
}

/** A vector a job has made for a chunk, in its work file (vector-job.ts). */
export interface WorkVectorTable {
  readonly chunk_id: number;
  readonly vector: Uint8Array;
}

/**
 * Everything the store's statements over a package file name: its tables, its index's, SQLite's schema table, the
 * index's vocabulary as the catalog reads it (a temporary table), and a vector job's work file while its vectors
 * are copied in (attached as `work`).
 */
export interface PackageFileDatabase extends PackageDatabase {
  readonly chunks_fts: ChunkIndexTable;
  readonly chunks_fts_docsize: ChunkIndexSizeTable;
  readonly sqlite_master: SchemaObjectTable;
  readonly 'temp.catalog_vocabulary': IndexVocabularyTable;
  readonly 'work.vectors': WorkVectorTable;
}
