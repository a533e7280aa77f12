import type Database from 'better-sqlite3';
import { type ChunkFields, checkedText, chunkFields } from './chunk-fields.js';
import { readQueries } from './compiled-queries.js';
import { damagedBy } from './damage.js';
import { StoreError } from './errors.js';
import {
  type ColumnWeights,
  columnExpression,
  columnWeights,
  matchExpression,
  phrasesOf,
  type Term,
  type TermQuery,
  termExpression,
} from './fts-query.js';
import { type PackageInfo, toPackageInfo } from './package-file.js';
import { holds, type PhraseSource, rowsAmong, topRows, unionSize } from './phrase-scores.js';
import { type ReaderCaches, type ReaderNumber, sharedReaderCaches } from './reader-caches.js';
import type { FtsColumn } from './schema.js';
import { rows, tuples, values } from './statement.js';
import {
  assertComparable,
  nearestVectors,
  type PackageEmbedder,
  type VectorHit,
  type VectorMatrix,
  vectorMatrix,
  vectorSimilarities,
} from './vector-search.js';

/** One chunk that matched, without its content (fetched separately for the few that are shown). */
export interface ChunkHit extends ChunkFields {
  /** BM25 relevance, larger is better (the negated FTS5 bm25()). */
  readonly score: number;
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

/** Counts of what a package holds. */
export interface PackageStats {
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
}

/** A hit with the fields of a chunk (kept in a cache, so copied) and its score. */
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

/**
 * Read access to one installed package: its connection (let go of when the store evicts the reader, opened again on
 * the next read), the package's rows, and searches of its full-text index and its vectors. What it keeps of what it
 * reads across searches lives in the {@link ReaderCaches} it is given, shared with the store's other readers.
 */
export class PackageReader {
  readonly file: string;
  /** How messages name the package: `name@version` when opened by the store. */
  readonly label: string;
  /** Undefined while evicted: the next read opens the file again ({@link evict}). */
  #db: Database.Database | undefined;
  readonly #reopen: (() => Database.Database) | undefined;
  /** The reader's statements, each prepared on first use on the connection of the time (see Prepared). */
  readonly #statements = {
    packageRow: rows(readQueries.packageRow),
    embedder: rows(readQueries.embedder),
    vectors: tuples(readQueries.vectors),
    rankedRows: tuples(readQueries.rankedRows),
    scoredRowsAmong: tuples(readQueries.scoredRowsAmong),
    matchingRowids: values(readQueries.matchingRowids),
    rowScores: values(readQueries.rowScores),
    chunkFields: tuples(readQueries.chunkFields),
    chunkContents: tuples(readQueries.chunkContents),
    document: rows(readQueries.document),
    documentList: rows(readQueries.documentList),
    stats: rows(readQueries.stats),
  };
  #closed = false;
  #info: PackageInfo | undefined;
  #embedder: PackageEmbedder | null | undefined;
  #vectors: VectorMatrix | undefined;
  #stats: PackageStats | undefined;
  readonly #caches: ReaderCaches;
  /** This reader's number in the caches (see #cacheNumber). */
  #number: ReaderNumber;
  /** What the phrase lists ask of this reader's index. */
  readonly #phraseSource: PhraseSource;

  /**
   * Reads go straight to prepared statements, each prepared once per connection from the SQL Kysely compiled ahead
   * of time (statement.ts): they are the hot path of every search.
   *
   * @param caches - what the reader keeps across searches (the store's); by default the process's.
   */
  constructor(
    db: Database.Database,
    file: string,
    label: string = file,
    reopen?: () => Database.Database,
    caches: ReaderCaches = sharedReaderCaches(),
  ) {
    this.#db = db;
    this.#reopen = reopen;
    this.file = file;
    this.label = label;
    this.#caches = caches;
    this.#number = caches.takeNumber();
    this.#phraseSource = {
      label,
      rowids: (expression) => this.#rowids(expression),
      scores: (expression, weights) =>
        this.#read((db) => this.#statements.rowScores.on(db).all({ ...weights, expression })),
    };
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
   * Runs a read on the open connection; what fails because the file's data is bad (changed since it was installed)
   * is a `damaged-package` StoreError naming the package (damage.ts), so a search over many libraries leaves this one
   * out with a note, and a search of this one alone says what to do.
   */
  #read<T>(read: (db: Database.Database) => T): T {
    try {
      return read(this.#connection());
    } catch (error) {
      throw damagedBy(error, this.label);
    }
  }

  /** This reader's number in its caches, taken anew when the caches began a generation since (see ReaderCaches). */
  #cacheNumber(): number {
    if (this.#number.generation !== this.#caches.generation) this.#number = this.#caches.takeNumber();
    return this.#number.number;
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
    this.#db?.close();
    this.#db = undefined;
  }

  /** The package's metadata (read once). */
  async info(): Promise<PackageInfo> {
    if (!this.#info) {
      const row = this.#read((db) => this.#statements.packageRow.on(db).get());
      if (!row) throw new StoreError('invalid-package', `${this.file} has no package row`);
      this.#info = toPackageInfo(row);
    }
    return this.#info;
  }

  /** The model that made the package's vectors, or undefined when it has none (read once). */
  async embedder(): Promise<PackageEmbedder | undefined> {
    if (this.#embedder === undefined) {
      const row = this.#read((db) => this.#statements.embedder.on(db).get());
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
    return nearestVectors(await this.#matrix(query), query, options.limit);
  }

  /** The cosine similarity of `query` to each chunk id's vector; ids without a vector are absent. */
  async similarities(query: Float32Array, ids: readonly number[]): Promise<Map<number, number>> {
    return vectorSimilarities(await this.#matrix(query), query, ids);
  }

  async #matrix(query: Float32Array): Promise<VectorMatrix> {
    const embedder = await this.embedder();
    assertComparable(embedder, query, this.file);
    if (!this.#vectors) {
      const vectors = this.#read((db) => this.#statements.vectors.on(db).all());
      this.#vectors = vectorMatrix(vectors, embedder.dimensions, this.file);
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
    const weights = columnWeights(options.weights);
    const expression = matchExpression(query);
    if (expression === undefined || options.limit <= 0) return [];
    const lists = this.#keptLists(query, weights);
    let scored: Array<[number, number]>;
    if (lists) {
      scored = topRows(lists, options.limit);
    } else {
      // Ranked inside the index alone: the chunks' other fields come from #fields, mostly without a query, since
      // the same sections answer question after question.
      scored = this.#read((db) =>
        this.#statements.rankedRows.on(db).all({ ...weights, expression, limit: options.limit }),
      );
      scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    }
    return this.#hits(scored);
  }

  /**
   * The phrases' kept lists for an OR query (`any`), in the order its expression holds them (see phrase-scores.ts),
   * or undefined when one is not kept (the index answers then). Opens an evicted reader's file first, as a query
   * would (see #connection).
   */
  #keptLists(
    query: TermQuery,
    weights: Required<ColumnWeights>,
  ): Array<{ rows: Float64Array; shares: Float64Array }> | undefined {
    if (query.mode !== 'any') return undefined;
    this.#read(() => undefined);
    return this.#caches.phraseLists.lists(
      this.#cacheNumber(),
      query.terms.flatMap(phrasesOf),
      weights,
      this.#phraseSource,
    );
  }

  /** Scored rows as hits, in their order, with the chunks' stored fields. */
  #hits(scored: readonly (readonly [number, number])[]): ChunkHit[] {
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
    const rowids: unknown = JSON.parse(
      this.#read((db) => this.#statements.matchingRowids.on(db).get({ expression })) ?? '[]',
    );
    if (!Array.isArray(rowids)) throw new TypeError('json_group_array() gave no array');
    return rowids;
  }

  /**
   * The stored fields of each chunk id (unknown ids are absent), checked once and kept in the caches (see
   * chunk-fields.ts).
   */
  #fields(ids: readonly number[]): Map<number, ChunkFields> {
    // A closed reader answers nothing, even what the cache holds.
    if (this.#closed) throw new TypeError('The database connection is not open');
    // One statement for all that are missing: a statement per chunk costs more than the join it replaces.
    return chunkFields(ids, this.#caches.chunkFields, this.#cacheNumber(), this.label, (missing) =>
      this.#read((db) => this.#statements.chunkFields.on(db).all({ ids: JSON.stringify(missing) })),
    );
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
    this.#read(() => undefined);
    const reader = this.#cacheNumber();
    for (const [index, term] of terms.entries()) {
      const phrases = phrasesOf(term);
      if (phrases.length === 0) continue;
      const kept = options.column ? undefined : phrases.map((phrase) => this.#caches.phraseLists.rows(reader, phrase));
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
      const rowids = this.#rowids(options.column ? columnExpression(options.column, expression) : expression);
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

  /**
   * The chunks holding `term` in one indexed column, at most `limit` of them (the first by chunk id), as hits with a
   * BM25 score of 0: what a search reads to tell whether a word names one of the package's own headings
   * (api-words.ts in @docs/search). One pass over the term's chunks, and the stored fields of those kept.
   */
  async chunksHolding(term: Term, options: { column: FtsColumn; limit: number }): Promise<ChunkHit[]> {
    const expression = termExpression(term);
    if (expression === undefined || options.limit <= 0) return [];
    return this.chunkHits(this.#rowids(columnExpression(options.column, expression)).slice(0, options.limit));
  }

  /**
   * Those of the chunk ids that match `query`, with the BM25 score {@link search} gives them, best first (ties by
   * chunk id): chunks a search looks at besides its best ones, scored alike.
   */
  async searchAmong(
    query: TermQuery,
    ids: readonly number[],
    options: { weights?: ColumnWeights } = {},
  ): Promise<ChunkHit[]> {
    const expression = matchExpression(query);
    if (expression === undefined || ids.length === 0) return [];
    const weights = columnWeights(options.weights);
    const unique = [...new Set(ids)];
    // From the phrases' kept lists when a search made them, as search() does: matching the index again for a few
    // chunks costs what scoring all of them does (FTS5 filters by rowid after it has matched).
    const lists = this.#keptLists(query, weights);
    const scored = lists
      ? rowsAmong(lists, unique)
      : this.#read((db) =>
          this.#statements.scoredRowsAmong.on(db).all({ ...weights, expression, ids: JSON.stringify(unique) }),
        );
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return this.#hits(scored);
  }

  /** The content of each chunk id. */
  async chunkContents(ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    const contents = new Map<number, string>();
    if (unique.length === 0) return contents;
    // One statement for all: a statement per chunk cost four times as much (12 chunks: ~95 against ~23 us).
    const contentRows = this.#read((db) => this.#statements.chunkContents.on(db).all({ ids: JSON.stringify(unique) }));
    const byId = new Map<number, unknown>(contentRows);
    // In the order asked for, as before.
    for (const id of unique) {
      if (!byId.has(id)) continue;
      contents.set(id, checkedText(byId.get(id), 'content', id, this.label));
    }
    return contents;
  }

  /** One document by its path (exact match), or undefined. */
  async document(path: string): Promise<StoredDocument | undefined> {
    return this.#read((db) => this.#statements.document.on(db).get({ path }));
  }

  /** Every document's path and title, by path. */
  async documents(): Promise<Array<{ path: string; title: string }>> {
    return this.#read((db) => this.#statements.documentList.on(db).all());
  }

  /** How many documents, chunks and tokens the package holds (read once: a package file does not change). */
  async stats(): Promise<PackageStats> {
    if (this.#stats) return this.#stats;
    const row = this.#read((db) => this.#statements.stats.on(db).get());
    this.#stats = { documents: Number(row?.documents), chunks: Number(row?.chunks), tokens: Number(row?.tokens) };
    return this.#stats;
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#number.generation === this.#caches.generation) this.#caches.phraseLists.drop(this.#number.number);
    this.#db?.close();
    this.#db = undefined;
  }
}
