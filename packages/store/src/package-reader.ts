import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { type PackageInfo, toPackageInfo } from './package-file.js';
import { holds, PhraseCache, type PhraseRows, topRows, unionSize, weightsKey } from './phrase-scores.js';
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

/** What {@link PackageReader.termStatistics} finds. */
export interface TermStatistics {
  /** For each chunk id asked about, the indices of the terms it holds; ids holding none are absent. */
  readonly matches: Map<number, number[]>;
  /** For each term, how many chunks hold it. */
  readonly frequencies: readonly number[];
  /** How many chunks the package has. */
  readonly chunks: number;
}

/** A document as stored: path, title and the whole page. */
export interface StoredDocument {
  readonly path: string;
  readonly title: string;
  readonly content: string;
}

/** The model that made a package's vectors, as it named itself. */
export interface PackageEmbedder {
  /** `<provider>:<model>:<dimensions>`. */
  readonly id: string;
  readonly dimensions: number;
}

/** A chunk and its cosine similarity to a query vector, in [-1, 1]. */
export interface VectorHit {
  readonly id: number;
  readonly similarity: number;
}

/** A package's vectors, read once: row i of `data` is the vector of chunk `ids[i]`, scaled to unit length. */
interface VectorMatrix {
  readonly dimensions: number;
  readonly ids: Int32Array;
  readonly data: Float32Array;
  readonly row: ReadonlyMap<number, number>;
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

/** A term's alternatives that hold more than spaces: the phrases its FTS5 expression is made of. */
function phrasesOf(term: Term): string[] {
  return (typeof term === 'string' ? [term] : term).filter((t) => t.trim() !== '');
}

/** A term's alternatives as one FTS5 expression, or undefined if it has no words. */
function termExpression(term: Term): string | undefined {
  const alternatives = phrasesOf(term);
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

/** A chunk's row as #fields reads it: id, document_id, ord, path, title, breadcrumb, level, tokens, inbound_links. */
type ChunkRow = [number, number, unknown, unknown, unknown, unknown, unknown, unknown, unknown];

/** A chunk's fields as a hit has them, but for the score. */
type ChunkFields = Omit<ChunkHit, 'score'>;

/**
 * The chunks' fields every reader has returned, by {@link chunkKey}, oldest first: one budget for the whole
 * process (~750 bytes a chunk, ~6 MB at most), however many packages are open, since a search over
 * hundreds of libraries opens many readers but finds few sections in most. Dropping the oldest first, a cache
 * smaller than what a server's run of questions reads again misses every time: the 60 questions of the eval read
 * ~4,500 chunks over 12 libraries, and at 4,096 spent a sixth of their time reading fields again. At 16,384, a search
 * over 100 libraries held ~40 MB more.
 */
const chunkFieldsCache = new Map<number, ChunkFields>();
const MAX_CACHED_CHUNKS = 8192;

/** Readers numbered in turn (wrapping at 2^21, long after any reader of that number is gone) to key the cache. */
let nextReaderNumber = 0;

/**
 * Each phrase's rows and BM25 shares, by reader and phrase (see phrase-scores.ts): 4 MB for the process. The
 * common words of questions, whose lists are the long ones, come back question after question.
 */
const phraseCache = new PhraseCache(4 * 2 ** 20);

/** Phrases (by reader) asked about once and not given a list yet; forgotten all at once when it fills. */
const askedOnce = new Set<string>();

/** Whether `key` was asked about before; remembers that it now has been. */
function askedBefore(key: string): boolean {
  if (askedOnce.delete(key)) return true;
  if (askedOnce.size >= 65_536) askedOnce.clear();
  askedOnce.add(key);
  return false;
}

/** Readers numbered in turn, never reused, to key the phrase cache. */
let nextReaderId = 0;

/** A chunk's key in the cache: its reader's number and its id, as one number exact below 2^53; undefined beyond. */
function chunkKey(reader: number, id: number): number | undefined {
  return Number.isInteger(id) && id >= 0 && id < 2 ** 32 ? reader * 2 ** 32 + id : undefined;
}

/** A hit with the fields of a chunk (kept in the reader's cache, so copied) and its score. */
function withScore(f: ChunkFields, score: number): ChunkHit {
  return {
    id: f.id,
    documentId: f.documentId,
    ord: f.ord,
    score,
    path: f.path,
    title: f.title,
    breadcrumb: f.breadcrumb,
    level: f.level,
    tokens: f.tokens,
    inboundLinks: f.inboundLinks,
  };
}

/** Whether a similarity and id rank above `other`: higher similarity, then the lower id. */
function beats(similarity: number, id: number, other: VectorHit): boolean {
  return similarity > other.similarity || (similarity === other.similarity && id < other.id);
}

/** `vector` scaled to unit length (a zero vector stays zero, similar to nothing). */
function unit(vector: Float32Array): Float32Array {
  const copy = Float32Array.from(vector);
  normalizeRow(copy, 0, copy.length);
  return copy;
}

function normalizeRow(data: Float32Array, start: number, length: number): void {
  let norm = 0;
  for (let d = start; d < start + length; d++) norm += (data[d] as number) ** 2;
  if (norm === 0 || !Number.isFinite(norm)) return;
  const scale = 1 / Math.sqrt(norm);
  for (let d = start; d < start + length; d++) data[d] = (data[d] as number) * scale;
}

/** Read access to one installed package. */
export class PackageReader {
  readonly file: string;
  /** How messages name the package: `name@version` when opened by the store. */
  readonly label: string;
  /** Undefined while evicted: the next read opens the file again ({@link evict}). */
  #db: Database.Database | undefined;
  readonly #reopen: (() => Database.Database) | undefined;
  readonly #statements = new Map<string, Database.Statement>();
  #closed = false;
  #info: PackageInfo | undefined;
  #embedder: PackageEmbedder | null | undefined;
  #vectors: VectorMatrix | undefined;
  #stats: PackageStats | undefined;
  /** This reader's number in the chunk fields' cache (see #fields). */
  readonly #number = nextReaderNumber++ % 2 ** 21;
  /** This reader's keys' prefix in the phrase cache. */
  readonly #phraseKey = `${nextReaderId++}\0`;

  /**
   * Reads go straight to prepared statements, each prepared once: they are
   * the hot path of every search, and Kysely (which creates and validates
   * package files) would cost more to load than a whole search takes.
   */
  constructor(db: Database.Database, file: string, label: string = file, reopen?: () => Database.Database) {
    this.#db = db;
    this.#reopen = reopen;
    this.file = file;
    this.label = label;
  }

  #prepare(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#connection().prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  /**
   * The open connection. As better-sqlite3 says of a closed connection: a closed reader is never opened again. Only
   * an evicted one (which always has `reopen`) is without a connection while open, and it opens its file again, so
   * a package removed meanwhile is said to be gone even where a cache holds the answer.
   */
  #connection(): Database.Database {
    if (this.#closed) throw new TypeError('The database connection is not open');
    this.#db ??= (this.#reopen as () => Database.Database)();
    return this.#db;
  }

  /**
   * Lets go of the connection while keeping the reader usable: the store's cache evicts readers this way, so a
   * search still holding one (the HTTP server runs many at once, and a search over hundreds of libraries evicts
   * others' readers) reads on, opening the file again, instead of failing on a closed connection. A reader made
   * without a way to reopen is closed.
   */
  evict(): void {
    if (!this.#reopen) {
      void this.close();
      return;
    }
    this.#statements.clear();
    this.#db?.close();
    this.#db = undefined;
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

  /** The model that made the package's vectors, or undefined when it has none (read once). */
  async embedder(): Promise<PackageEmbedder | undefined> {
    if (this.#embedder === undefined) {
      const row = this.#prepare('SELECT id, dimensions FROM embedder').get() as PackageEmbedder | undefined;
      this.#embedder = row ? { id: row.id, dimensions: row.dimensions } : null;
    }
    return this.#embedder ?? undefined;
  }

  /**
   * The `limit` chunks whose vectors are closest to `query` (cosine
   * similarity), best first, ties by chunk id. Brute force over every vector
   * of the package, read into memory on first use and kept while the reader
   * is open: see docs/benchmarks.md for how far that holds.
   *
   * @throws {RangeError} when the package has no vectors or `query` has another dimension.
   */
  async nearest(query: Float32Array, options: { limit: number }): Promise<VectorHit[]> {
    const matrix = await this.#matrix(query);
    const limit = Math.min(Math.max(0, Math.floor(options.limit)), matrix.ids.length);
    if (limit === 0) return [];
    const q = unit(query);
    const { dimensions, data, ids } = matrix;
    // The best `limit` so far, worst first: a new one only has to beat the first.
    const best: VectorHit[] = [];
    for (let r = 0; r < ids.length; r++) {
      let dot = 0;
      const base = r * dimensions;
      for (let d = 0; d < dimensions; d++) dot += (q[d] as number) * (data[base + d] as number);
      if (best.length === limit && !beats(dot, ids[r] as number, best[0] as VectorHit)) continue;
      const hit = { id: ids[r] as number, similarity: dot };
      if (best.length === limit) best.shift();
      let at = 0;
      while (at < best.length && beats(hit.similarity, hit.id, best[at] as VectorHit)) at++;
      best.splice(at, 0, hit);
    }
    return best.reverse();
  }

  /** The cosine similarity of `query` to each chunk id's vector; ids without a vector are absent. */
  async similarities(query: Float32Array, ids: readonly number[]): Promise<Map<number, number>> {
    const matrix = await this.#matrix(query);
    const q = unit(query);
    const result = new Map<number, number>();
    for (const id of ids) {
      const r = matrix.row.get(id);
      if (r === undefined) continue;
      let dot = 0;
      const base = r * matrix.dimensions;
      for (let d = 0; d < matrix.dimensions; d++) dot += (q[d] as number) * (matrix.data[base + d] as number);
      result.set(id, dot);
    }
    return result;
  }

  async #matrix(query: Float32Array): Promise<VectorMatrix> {
    const embedder = await this.embedder();
    if (!embedder) throw new RangeError(`${this.file} has no vectors`);
    if (query.length !== embedder.dimensions) {
      throw new RangeError(
        `a query vector of ${query.length} dimensions cannot be compared with vectors of ${embedder.dimensions} (${embedder.id})`,
      );
    }
    if (!this.#vectors) {
      const rows = this.#prepare('SELECT chunk_id, vector FROM chunk_vectors ORDER BY chunk_id').raw().all() as Array<
        [number, Uint8Array]
      >;
      const { dimensions } = embedder;
      const data = new Float32Array(rows.length * dimensions);
      const bytes = new Uint8Array(data.buffer);
      const ids = new Int32Array(rows.length);
      const row = new Map<number, number>();
      for (const [r, [id, blob]] of rows.entries()) {
        if (blob.byteLength !== dimensions * 4) {
          throw new StoreError(
            'invalid-package',
            `${this.file}: the vector of chunk ${id} is not ${dimensions} floats`,
          );
        }
        // Copied byte-wise: a blob's buffer need not be aligned for a Float32Array view.
        bytes.set(blob, r * dimensions * 4);
        ids[r] = id;
        row.set(id, r);
        normalizeRow(data, r * dimensions, dimensions);
      }
      this.#vectors = { dimensions, ids, data, row };
    }
    return this.#vectors;
  }

  /** Chunks by id, as search hits with a BM25 score of 0 (they were found another way); unknown ids are absent. */
  async chunkHits(ids: readonly number[]): Promise<ChunkHit[]> {
    const unique = [...new Set(ids)];
    const fields = this.#fields(unique);
    return unique.flatMap((id) => {
      const f = fields.get(id);
      return f ? [withScore(f, 0)] : [];
    });
  }

  /** Chunks matching `query`, best BM25 first (ties by chunk id). */
  async search(query: TermQuery, options: { limit: number; weights?: ColumnWeights }): Promise<ChunkHit[]> {
    const w = options.weights ?? {};
    const weights = [w.title ?? 1, w.headings ?? 1, w.heading ?? 1, w.body ?? 1];
    const expression = matchExpression(query);
    if (expression === undefined || options.limit <= 0) return [];
    // The phrases in the order the OR expression holds them (see phrase-scores.ts).
    const lists = query.mode === 'any' ? this.#phraseLists(query.terms.flatMap(phrasesOf), weights) : undefined;
    let scored: Array<[number, number]>;
    if (lists) {
      scored = topRows(lists, options.limit);
    } else {
      // Ranked inside the index alone: the chunks' other fields come from #fields, mostly without a query, since
      // the same sections answer question after question.
      scored = this.#prepare(
        `SELECT rowid, -bm25(chunks_fts, ?, ?, ?, ?) AS score FROM chunks_fts
         WHERE chunks_fts MATCH ?
         ORDER BY score DESC
         LIMIT ?`,
      )
        .raw()
        .all(...weights, expression, options.limit) as Array<[number, number]>;
      scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    }
    const fields = this.#fields(scored.map(([id]) => id));
    const hits: ChunkHit[] = [];
    for (const [id, score] of scored) {
      const f = fields.get(id);
      // A row of the index without its chunk is left out, as a join would leave it.
      if (f) hits.push(withScore(f, score));
    }
    return hits;
  }

  /**
   * The rowids an FTS5 expression matches, ascending: FTS5 lists a full-text match in rowid order, which the phrase
   * lists' lookups (holds) and their alignment with the shares' query rely on. One JSON array costs a third less
   * than a row per chunk, and reading a whole list is cheaper in SQLite than filtering it by rowid.
   */
  #rowids(expression: string): number[] {
    return JSON.parse(
      this.#prepare('SELECT json_group_array(rowid) FROM chunks_fts WHERE chunks_fts MATCH ?')
        .pluck()
        .get(expression) as string,
    ) as number[];
  }

  /**
   * Each phrase's list under `weights`, or undefined when one is not kept: then the OR query answers. A phrase is
   * given a list the second time this reader is asked about it, while the cache has room (see PhraseCache.hasRoom),
   * so a question asked once (the CLI asks one) costs what the OR query costs, and a server's recurring words are
   * scored once.
   */
  #phraseLists(
    phrases: readonly string[],
    weights: readonly number[],
  ): Array<{ rows: Float64Array; shares: Float64Array }> | undefined {
    this.#connection();
    const key = weightsKey(weights);
    const lists: Array<{ rows: Float64Array; shares: Float64Array }> = [];
    let complete = true;
    for (const phrase of phrases) {
      const kept = phraseCache.get(this.#phraseKey + phrase);
      const shares = kept?.shares.get(key);
      if (kept && shares) lists.push({ rows: kept.rows, shares });
      else if (phraseCache.hasRoom() && askedBefore(this.#phraseKey + phrase)) {
        const made = this.#phrase(phrase, weights, kept);
        lists.push({ rows: made.rows, shares: made.shares.get(key) as Float64Array });
      } else complete = false;
    }
    return complete ? lists : undefined;
  }

  /**
   * One phrase's rows, ascending, and its share of their BM25 under `weights`, asked of the index and kept beside
   * what the cache held of it (`cached`: its rows, under other weights).
   */
  #phrase(phrase: string, weights: readonly number[], cached: PhraseRows | undefined): PhraseRows {
    const key = this.#phraseKey + phrase;
    const quoted = ftsString(phrase);
    // Two plain lists in the same rowid order cost a third of one list of [rowid, score] pairs.
    const rows = cached?.rows ?? Float64Array.from(this.#rowids(quoted));
    const wanted = weightsKey(weights);
    const scores = this.#prepare(
      'SELECT -bm25(chunks_fts, ?, ?, ?, ?) FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid',
    )
      .pluck()
      .all(...weights, quoted) as number[];
    if (scores.length !== rows.length) {
      throw new StoreError('damaged-package', `${this.label}: its full-text index lists "${phrase}" in two ways`);
    }
    const shares = Float64Array.from(scores);
    const entry: PhraseRows = { rows, shares: new Map([...(cached?.shares ?? []), [wanted, shares]]) };
    phraseCache.put(key, entry);
    return entry;
  }

  /**
   * The stored fields of each chunk id (unknown ids are absent), checked once and kept in a cache shared by every
   * reader: a package file never changes once installed, and a reader of a replaced file is a new reader.
   */
  #fields(ids: readonly number[]): Map<number, ChunkFields> {
    // A closed reader answers nothing, even what the cache holds.
    if (this.#closed) throw new TypeError('The database connection is not open');
    const found = new Map<number, ChunkFields>();
    const missing: number[] = [];
    for (const id of ids) {
      const key = chunkKey(this.#number, id);
      const fields = key === undefined ? undefined : chunkFieldsCache.get(key);
      if (fields) found.set(id, fields);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    // One statement for all that are missing: a statement per chunk costs more than the join it replaces.
    const rows = this.#prepare(
      `SELECT c.id, c.document_id, c.ord, d.path, d.title, c.breadcrumb, c.level, c.tokens, d.inbound_links
       FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`,
    )
      .raw()
      .all(JSON.stringify(missing)) as ChunkRow[];
    for (const row of rows) {
      const fields = this.#checked(row);
      found.set(fields.id, fields);
      const key = chunkKey(this.#number, fields.id);
      if (key === undefined) continue;
      // The oldest goes first: a Map iterates in insertion order.
      if (chunkFieldsCache.size >= MAX_CACHED_CHUNKS) {
        chunkFieldsCache.delete(chunkFieldsCache.keys().next().value as number);
      }
      chunkFieldsCache.set(key, fields);
    }
    return found;
  }

  // Installs check every row (package-content.ts); these checks guard the rows a search
  // reads against a file changed after it was installed, so bad data is named as such
  // rather than surfacing as a ranking function's complaint about its arguments.

  #checked([id, documentId, ord, path, title, breadcrumb, level, tokens, inboundLinks]: ChunkRow): ChunkFields {
    return {
      id,
      documentId,
      ord: this.#wholeNumber(ord, 0, 'ord', id),
      path: this.#text(path, 'path', id),
      title: this.#text(title, 'title', id),
      breadcrumb: Object.freeze(this.#breadcrumb(breadcrumb, id)),
      level: this.#wholeNumber(level, 0, 'level', id, 6),
      tokens: this.#wholeNumber(tokens, 0, 'tokens', id),
      inboundLinks: this.#wholeNumber(inboundLinks, 0, 'inbound_links', id),
    };
  }

  #damaged(problem: string, chunk: number): StoreError {
    return new StoreError(
      'damaged-package',
      `${this.label} is damaged (chunk ${chunk}: ${problem}); rebuild it: docs remove ${this.label}, then docs add its source again (or docs sync)`,
    );
  }

  #wholeNumber(value: unknown, min: number, column: string, chunk: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw this.#damaged(`${column} is ${String(value)}`, chunk);
    }
    return value;
  }

  #text(value: unknown, column: string, chunk: number): string {
    if (typeof value !== 'string') throw this.#damaged(`${column} is not text`, chunk);
    return value;
  }

  #breadcrumb(value: unknown, chunk: number): string[] {
    let parsed: unknown;
    try {
      parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((h) => typeof h === 'string')) {
      throw this.#damaged('breadcrumb is not a JSON array of strings', chunk);
    }
    return parsed;
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
    if (ids.length === 0) return new Map();
    return (await this.termStatistics(terms, ids, options)).matches;
  }

  /**
   * {@link termMatches}, plus how many chunks of the package hold each term
   * (its document frequency, 0 for a term with no words) and how many chunks
   * there are: what an inverse document frequency is computed from. Both come
   * from the one pass over each term's chunks.
   */
  async termStatistics(
    terms: readonly Term[],
    ids: readonly number[],
    options: { column?: FtsColumn } = {},
  ): Promise<TermStatistics> {
    const matches = new Map<number, number[]>();
    const frequencies = terms.map(() => 0);
    const wanted = new Set(ids);
    // Opens an evicted reader's file again even when every list is kept, as a query would (see #connection).
    this.#connection();
    for (const [index, term] of terms.entries()) {
      const phrases = phrasesOf(term);
      if (phrases.length === 0) continue;
      const kept = options.column
        ? undefined
        : phrases.map((phrase) => phraseCache.get(this.#phraseKey + phrase)?.rows);
      if (kept?.every((rows) => rows !== undefined)) {
        // From the phrases' kept lists (a search made them): a term is held where any of its phrases is.
        const lists = kept as Float64Array[];
        frequencies[index] = unionSize(lists);
        for (const id of wanted) {
          if (!lists.some((rows) => holds(rows, id))) continue;
          const found = matches.get(id);
          if (found) found.push(index);
          else matches.set(id, [index]);
        }
        continue;
      }
      const expression = termExpression(term) as string;
      // Column names come from the FtsColumn type, never from input.
      const rowids = this.#rowids(options.column ? `${options.column} : (${expression})` : expression);
      frequencies[index] = rowids.length;
      for (const rowid of rowids) {
        if (!wanted.has(rowid)) continue;
        // Appended in place: copying the list per term made a long query quadratic.
        const found = matches.get(rowid);
        if (found) found.push(index);
        else matches.set(rowid, [index]);
      }
    }
    return { matches, frequencies, chunks: (await this.stats()).chunks };
  }

  /** The content of each chunk id. */
  async chunkContents(ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    const contents = new Map<number, string>();
    if (unique.length === 0) return contents;
    // One statement for all: a statement per chunk cost four times as much (12 chunks: ~95 against ~23 us).
    const rows = this.#prepare('SELECT id, content FROM chunks WHERE id IN (SELECT value FROM json_each(?))')
      .raw()
      .all(JSON.stringify(unique)) as Array<[number, unknown]>;
    const byId = new Map(rows);
    // In the order asked for, as before.
    for (const id of unique) {
      if (!byId.has(id)) continue;
      contents.set(id, this.#text(byId.get(id), 'content', id));
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

  /** How many documents, chunks and tokens the package holds (read once: a package file does not change). */
  async stats(): Promise<PackageStats> {
    if (this.#stats) return this.#stats;
    const row = this.#prepare(
      'SELECT (SELECT count(*) FROM documents) AS documents, count(*) AS chunks, coalesce(sum(tokens), 0) AS tokens FROM chunks',
    ).get() as { documents: number; chunks: number; tokens: number };
    this.#stats = { documents: Number(row.documents), chunks: Number(row.chunks), tokens: Number(row.tokens) };
    return this.#stats;
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.#closed = true;
    phraseCache.drop(this.#phraseKey);
    this.#statements.clear();
    this.#db?.close();
    this.#db = undefined;
  }
}
