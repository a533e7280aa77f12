import type { Generated } from 'kysely';
import type { SchemaObjectTable } from './schema.js';

// The store's catalog (catalog.ts) as Kysely sees it; its statements are in catalog-queries.ts.

/** One package file the catalog knows, as it was when recorded. */
export interface LibraryTable {
  readonly id: Generated<number>;
  /** The file's name in the store directory. */
  readonly file: string;
  readonly mtime_ms: number;
  readonly bytes: number;
  /** How many chunks the package has. */
  readonly chunks: number;
  /** 1 when the package has vectors, else 0. */
  readonly vectors: number;
}

/** A token of a package's index and how many of its chunks hold it. */
export interface TermTable {
  readonly token: string;
  readonly library: number;
  readonly df: number;
}

/** The catalog's tables, beside a store's package files in `.catalog/catalog.db`. */
export interface CatalogDatabase {
  readonly libraries: LibraryTable;
  readonly terms: TermTable;
  readonly sqlite_master: SchemaObjectTable;
}

/** An FTS5 table in memory with the package index's tokenizer, which tokenizes a question's words as the index does. */
export interface TokenizerDatabase {
  readonly q: { readonly rowid: number; readonly t: string };
  /** `fts5vocab` of type `instance` over `q`: each token of each row, where it stands. */
  readonly qv: { readonly doc: number; readonly term: string; readonly col: string; readonly offset: number };
}

/** Bumped whenever the catalog's tables change meaning; a catalog of another version is made anew. */
export const CATALOG_VERSION = 1;
