import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { type PackageInfo, toPackageInfo } from './package-file.js';
import type { FtsColumn } from './schema.js';

/** bm25() weight of each indexed column; a larger weight makes matches there count more. */
export interface ColumnWeights {
  /** @default 1 */
  readonly title?: number;
  /** @default 1 */
  readonly headings?: number;
  /** @default 1 */
  readonly heading?: number;
  /** @default 1 */
  readonly body?: number;
}

/**
 * One thing to look for: a word or phrase, or alternatives any of which will
 * do (`['httpx.connecttimeout', 'connecttimeout']`).
 */
export type Term = string | readonly string[];

/**
 * Words to look for. The store quotes every term, so no text a user types is
 * ever read as FTS5 syntax: operators, quotes and punctuation are just words.
 */
export interface TermQuery {
  readonly terms: readonly Term[];
  /** "all": every term must occur; "any": at least one. */
  readonly mode: 'all' | 'any';
}

/** One chunk that matched, without its content (fetched separately for the few that are shown). */
export interface ChunkHit {
  readonly id: number;
  readonly documentId: number;
  readonly ord: number;
  /** BM25 relevance, larger is better (the negated FTS5 bm25()). */
  readonly score: number;
  readonly path: string;
  readonly title: string;
  readonly breadcrumb: readonly string[];
  readonly level: number;
  readonly tokens: number;
  /** How many other documents of the package link to the chunk's document. */
  readonly inboundLinks: number;
}

/** A document as stored: path, title and the whole page. */
export interface StoredDocument {
  readonly path: string;
  readonly title: string;
  readonly content: string;
}

/** Counts of what a package holds. */
export interface PackageStats {
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
}

/** Quotes a term as an FTS5 string: inside double quotes only `"` is special, and it is doubled. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** A term's alternatives as one FTS5 expression, or undefined if it has no words. */
function termExpression(term: Term): string | undefined {
  const alternatives = (typeof term === 'string' ? [term] : term).filter((t) => t.trim() !== '');
  if (alternatives.length === 0) return undefined;
  const quoted = alternatives.map(ftsString);
  return quoted.length === 1 ? quoted[0] : `(${quoted.join(' OR ')})`;
}

/** The FTS5 MATCH expression for a query; undefined when there is nothing to look for. */
export function matchExpression(query: TermQuery): string | undefined {
  const parts = query.terms.map(termExpression).filter((e): e is string => e !== undefined);
  if (parts.length === 0) return undefined;
  return parts.join(query.mode === 'all' ? ' AND ' : ' OR ');
}

/** Read access to one installed package. */
export class PackageReader {
  readonly file: string;
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #info: PackageInfo | undefined;

  /**
   * Reads go straight to prepared statements, each prepared once: they are
   * the hot path of every search, and Kysely (which creates and validates
   * package files) would cost more to load than a whole search takes.
   */
  constructor(db: Database.Database, file: string) {
    this.#db = db;
    this.file = file;
  }

  #prepare(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#db.prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  /** The package's metadata (read once). */
  async info(): Promise<PackageInfo> {
    if (!this.#info) {
      const row = this.#prepare('SELECT * FROM package').get() as Record<string, unknown> | undefined;
      if (!row) throw new StoreError('invalid-package', `${this.file} has no package row`);
      this.#info = toPackageInfo(row);
    }
    return this.#info;
  }

  /** Chunks matching `query`, best BM25 first. */
  async search(query: TermQuery, options: { limit: number; weights?: ColumnWeights }): Promise<ChunkHit[]> {
    const expression = matchExpression(query);
    if (expression === undefined || options.limit <= 0) return [];
    const w = options.weights ?? {};
    const weights = [w.title ?? 1, w.headings ?? 1, w.heading ?? 1, w.body ?? 1];
    const rows = this.#prepare(
      `SELECT c.id, c.document_id, c.ord, best.score, d.path, d.title, c.breadcrumb, c.level, c.tokens, d.inbound_links
       FROM (
         -- Rank inside the index first, so only the best rows are joined.
         SELECT rowid AS id, -bm25(chunks_fts, ?, ?, ?, ?) AS score FROM chunks_fts
         WHERE chunks_fts MATCH ?
         ORDER BY score DESC
         LIMIT ?
       ) AS best
       JOIN chunks c ON c.id = best.id
       JOIN documents d ON d.id = c.document_id
       ORDER BY best.score DESC, c.id`,
    ).all(...weights, expression, options.limit) as Array<{
      id: number;
      document_id: number;
      ord: number;
      score: number;
      path: string;
      title: string;
      breadcrumb: string;
      level: number;
      tokens: number;
      inbound_links: number;
    }>;
    return rows.map((r) => ({
      id: r.id,
      documentId: r.document_id,
      ord: r.ord,
      score: r.score,
      path: r.path,
      title: r.title,
      breadcrumb: JSON.parse(r.breadcrumb) as string[],
      level: r.level,
      tokens: r.tokens,
      inboundLinks: r.inbound_links,
    }));
  }

  /**
   * For each chunk id, the indices of the `terms` it contains, anywhere or
   * only in one indexed column. Ids containing none are absent.
   */
  async termMatches(
    terms: readonly Term[],
    ids: readonly number[],
    options: { column?: FtsColumn } = {},
  ): Promise<Map<number, number[]>> {
    const matches = new Map<number, number[]>();
    if (ids.length === 0) return matches;
    const wanted = new Set(ids);
    // The term's whole list of chunks, intersected here: one fixed statement,
    // and cheaper in SQLite than filtering the list by rowid.
    const statement = this.#prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
    for (const [index, term] of terms.entries()) {
      const expression = termExpression(term);
      if (expression === undefined) continue;
      // Column names come from the FtsColumn type, never from input.
      const filtered = options.column ? `${options.column} : (${expression})` : expression;
      for (const rowid of statement.all(filtered) as number[]) {
        if (wanted.has(rowid)) matches.set(rowid, [...(matches.get(rowid) ?? []), index]);
      }
    }
    return matches;
  }

  /** The content of each chunk id. */
  async chunkContents(ids: readonly number[]): Promise<Map<number, string>> {
    const statement = this.#prepare('SELECT content FROM chunks WHERE id = ?').pluck();
    const contents = new Map<number, string>();
    for (const id of new Set(ids)) {
      const content = statement.get(id) as string | undefined;
      if (content !== undefined) contents.set(id, content);
    }
    return contents;
  }

  /** One document by its path (exact match), or undefined. */
  async document(path: string): Promise<StoredDocument | undefined> {
    return this.#prepare('SELECT path, title, content FROM documents WHERE path = ?').get(path) as
      | StoredDocument
      | undefined;
  }

  /** Every document's path and title, by path. */
  async documents(): Promise<Array<{ path: string; title: string }>> {
    return this.#prepare('SELECT path, title FROM documents ORDER BY path').all() as Array<{
      path: string;
      title: string;
    }>;
  }

  /** How many documents, chunks and tokens the package holds. */
  async stats(): Promise<PackageStats> {
    const row = this.#prepare(
      'SELECT (SELECT count(*) FROM documents) AS documents, count(*) AS chunks, coalesce(sum(tokens), 0) AS tokens FROM chunks',
    ).get() as { documents: number; chunks: number; tokens: number };
    return { documents: Number(row.documents), chunks: Number(row.chunks), tokens: Number(row.tokens) };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.#statements.clear();
    this.#db.close();
  }
}
