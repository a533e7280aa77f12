import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Selectable } from 'kysely';
import { CATALOG_VERSION, type LibraryTable } from './catalog-schema.js';
import { catalogQueries, catalogSchema, tokenizerQueries, vocabularyQueries } from './compiled-queries.js';
import type { Term } from './fts-query.js';
import { createSchema, dataVersion, openReadOnlyDatabase, userVersion } from './sqlite.js';
import { rows, runOnce, tuples, values } from './statement.js';

/** What the catalog knows of an installed package and a search's terms: enough to search it for less, or not at all. */
export interface CatalogEntry {
  /** How many chunks the package has (what an inverse document frequency counts). */
  readonly chunks: number;
  /** Whether the package has vectors: a vector search finds something whatever the words. */
  readonly vectors: boolean;
  /**
   * For each term asked about, whether the package's index may hold it: it holds every token of one of
   * the term's alternatives. False is certain (no chunk matches the term); true is a maybe (the tokens
   * may not follow each other as the phrase has them).
   */
  readonly holds: readonly boolean[];
  /**
   * For each term, how many chunks hold it, where the catalog knows exactly: 0 for a term the package
   * does not hold, the token's count when the one alternative it may hold is one token; undefined otherwise.
   */
  readonly frequencies: readonly (number | undefined)[];
}

/** A package file as the store lists it: the catalog trusts an entry only for the file it was made from. */
interface ListedFile {
  readonly file: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

/** A library as the catalog holds it. */
type LibraryRow = Selectable<LibraryTable>;

/** What a search across libraries asks of the catalog. */
function readingStatements() {
  return { termRows: tuples(catalogQueries.termRows), libraries: rows(catalogQueries.libraries) };
}

/** The open read connection and the library rows as of `dataVersion`. */
interface Reading {
  readonly db: Database.Database;
  /** Its statements: prepared once per connection, as every search across libraries asks them. */
  readonly statements: ReturnType<typeof readingStatements>;
  /** The file's inode: a catalog made anew is another file, and the connection is reopened. */
  readonly ino: bigint;
  dataVersion: number;
  libraries: Map<string, LibraryRow>;
}

/**
 * Derived data beside the package files of a store: for each package, the
 * tokens its search index holds (with how many chunks hold each), its chunk
 * count and whether it has vectors. It lets a search over every library skip
 * the ones that hold none of a question's words, without opening them.
 *
 * Package files stay the portable unit: the catalog is rebuilt from them and
 * trusted for a package only while the file is the one it was made from
 * (same name, size and modification time), so a missing, stale, damaged or
 * unreadable catalog costs speed and never changes an answer. Every failure
 * here is swallowed for that reason: nothing depends on it being right.
 */
export class StoreCatalog {
  readonly #file: string;
  #reading: Reading | undefined;
  #tokenizer: Tokenizer | undefined;
  /** Texts' tokens, as #tokenize made them. */
  readonly #tokens = new Map<string, string[]>();

  constructor(storeDir: string) {
    this.#file = path.join(storeDir, '.catalog', 'catalog.db');
  }

  /**
   * Records installed packages (replacing what was known of their file names), in one transaction.
   * Best effort: an unwritable store or a busy catalog leaves the entry out,
   * and searches then open the package as before.
   */
  record(packages: readonly ListedFile[]): void {
    try {
      const summaries = packages.flatMap((pkg) => {
        try {
          const summary = readSummary(pkg);
          return summary ? [{ pkg, summary }] : [];
        } catch {
          // A package that cannot be read here is searched, which says what is wrong with it.
          return [];
        }
      });
      if (summaries.length === 0) return;
      this.#write((db) => {
        const findLibrary = values(catalogQueries.findLibrary).on(db);
        const addLibrary = rows(catalogQueries.addLibrary).on(db);
        const updateLibrary = rows(catalogQueries.updateLibrary).on(db);
        // The vocabulary arrives as one JSON array of [token, df] and is unpacked inside SQLite:
        // a row-by-row insert from JavaScript cost twice the whole record (docs/benchmarks.md).
        // A file recorded before (a package built again) keeps its id and its rows: only the
        // tokens and counts that changed are written, where deleting and inserting every row
        // cost most of an install's CPU (docs/benchmarks.md).
        const dropOldTerms = rows(catalogQueries.dropOldTerms).on(db);
        const putTerms = rows(catalogQueries.putTerms).on(db);
        for (const { pkg, summary } of summaries) {
          const file = path.basename(pkg.file);
          const known = findLibrary.get({ file });
          const counts = {
            mtimeMs: pkg.mtimeMs,
            bytes: pkg.bytes,
            chunks: summary.chunks,
            vectors: summary.vectors ? 1 : 0,
          };
          if (known === undefined) {
            const { lastInsertRowid } = addLibrary.run({ file, ...counts });
            putTerms.run({ library: Number(lastInsertRowid), terms: summary.terms });
          } else {
            updateLibrary.run({ id: known, ...counts });
            dropOldTerms.run({ library: known, terms: summary.terms });
            putTerms.run({ library: known, terms: summary.terms });
          }
        }
      });
    } catch {
      // Derived data: without the entry the package is searched as it always was.
    }
  }

  /** Forgets a removed package's file. Best effort, as {@link record}. */
  forget(file: string): void {
    try {
      statSync(this.#file);
      this.#write((db) => {
        forgetFile(db, path.basename(file));
      });
    } catch {
      // A stale entry is harmless: it is trusted only for the file it was made from.
    }
  }

  /** The files of `packages` the catalog has an entry for, as they are now. */
  known(packages: readonly ListedFile[]): Set<string> {
    const reading = this.#open();
    if (!reading) return new Set();
    return new Set(packages.filter((p) => fresh(reading.libraries, p) !== undefined).map((p) => p.file));
  }

  /**
   * What the catalog knows of each of `packages` as it is now, and of
   * `terms` in it, keyed by file; a package it does not know (or all of
   * them, when the catalog cannot be read) is absent, and must be searched
   * as it is. A term's alternatives are read as FTS5 reads quoted strings,
   * each a phrase of the tokens the package index's own tokenizer makes.
   */
  entries(packages: readonly ListedFile[], terms: readonly Term[]): Map<string, CatalogEntry> {
    const result = new Map<string, CatalogEntry>();
    try {
      const reading = this.#open();
      if (!reading) return result;
      const alternatives = terms.map((t) => (typeof t === 'string' ? [t] : [...t]).filter((a) => a.trim() !== ''));
      const phrases = this.#tokenize(alternatives.flat());
      // A phrase the tokenizer makes nothing of is left for the index to judge.
      if (phrases.some((p) => p.length === 0)) return result;
      const byTerm: string[][][] = [];
      let next = 0;
      for (const list of alternatives) {
        byTerm.push(phrases.slice(next, next + list.length));
        next += list.length;
      }
      const tokens = [...new Set(phrases.flat())];
      const counts = new Map<string, Map<number, number>>(tokens.map((t) => [t, new Map<number, number>()]));
      for (const [token, library, df] of reading.statements.termRows
        .on(reading.db)
        .all({ tokens: JSON.stringify(tokens) })) {
        counts.get(token)?.set(library, df);
      }
      for (const pkg of packages) {
        const row = fresh(reading.libraries, pkg);
        if (!row) continue;
        // The alternatives of each term whose every token the package holds: the only ones that may match.
        const possible = byTerm.map((phrasesOfTerm) =>
          phrasesOfTerm.filter((phrase) => phrase.every((token) => counts.get(token)?.has(row.id))),
        );
        const holds = possible.map((p) => p.length > 0);
        // One possible alternative of one token: the chunks holding the term are the chunks holding that token.
        const frequencies = possible.map((p) => {
          if (p.length === 0) return 0;
          const only = p.length === 1 ? p[0] : undefined;
          return only?.length === 1 ? counts.get(only[0] as string)?.get(row.id) : undefined;
        });
        result.set(pkg.file, { chunks: row.chunks, vectors: row.vectors === 1, holds, frequencies });
      }
      return result;
    } catch {
      // Unreadable or busy: every package is searched.
      return new Map();
    }
  }

  close(): void {
    this.#reading?.db.close();
    this.#reading = undefined;
    this.#tokenizer?.db.close();
    this.#tokenizer = undefined;
  }

  /** The read connection and the library rows, reopened when the file is replaced and reread when it changes. */
  #open(): Reading | undefined {
    let ino: bigint;
    try {
      ino = statSync(this.#file, { bigint: true }).ino;
    } catch {
      this.close();
      return undefined;
    }
    try {
      if (this.#reading && this.#reading.ino !== ino) {
        this.#reading.db.close();
        this.#reading = undefined;
      }
      if (!this.#reading) {
        const db = openReadOnlyDatabase(this.#file);
        if (userVersion(db) !== CATALOG_VERSION) {
          db.close();
          return undefined;
        }
        const statements = readingStatements();
        statements.termRows.on(db);
        this.#reading = { db, ino, statements, dataVersion: -1, libraries: new Map() };
      }
      const reading = this.#reading;
      const version = dataVersion(reading.db);
      if (version !== reading.dataVersion) {
        const libraries = reading.statements.libraries.on(reading.db).all();
        reading.libraries = new Map(libraries.map((r) => [r.file, r]));
        reading.dataVersion = version;
      }
      return reading;
    } catch {
      this.#reading?.db.close();
      this.#reading = undefined;
      return undefined;
    }
  }

  /**
   * Each text's tokens as the package index makes them, by the same tokenizer of the same SQLite. A text's tokens
   * never change, and the same words come back question after question: each is tokenized once.
   */
  #tokenize(texts: readonly string[]): string[][] {
    const missing = [...new Set(texts.filter((t) => !this.#tokens.has(t)))];
    if (missing.length > 0) {
      this.#tokenizer ??= tokenizerOf(new Database(':memory:'));
      const made = this.#tokenizer.tokenize(missing);
      if (this.#tokens.size + missing.length > MAX_TOKENIZED) this.#tokens.clear();
      for (const [i, text] of missing.entries()) this.#tokens.set(text, made[i] as string[]);
    }
    return texts.map((t) => [...(this.#tokens.get(t) as string[])]);
  }

  /** Runs `change` in one write transaction, creating the catalog (or making it anew when unreadable) first. */
  #write(change: (db: Database.Database) => void): void {
    mkdirSync(path.dirname(this.#file), { recursive: true });
    let db = openForWriting(this.#file);
    if (!db) {
      // Damaged or of another version: derived data, so it is made anew.
      rmSync(this.#file, { force: true });
      rmSync(`${this.#file}-journal`, { force: true });
      db = openForWriting(this.#file);
      if (!db) return;
    }
    try {
      db.transaction(() => change(db))();
    } finally {
      db.close();
    }
  }
}

/** How many texts' tokens a catalog keeps (forgotten all at once when full). */
const MAX_TOKENIZED = 4096;

/** An in-memory FTS5 table with the package index's tokenizer, and what reads its tokens back. */
interface Tokenizer {
  readonly db: Database.Database;
  /** Each text's tokens, in order. */
  readonly tokenize: (texts: readonly string[]) => string[][];
}

function tokenizerOf(db: Database.Database): Tokenizer {
  runOnce(db, tokenizerQueries.createTable);
  runOnce(db, tokenizerQueries.createVocabulary);
  const insert = rows(tokenizerQueries.insertText).on(db);
  const read = tuples(tokenizerQueries.tokens).on(db);
  const clear = rows(tokenizerQueries.clear).on(db);
  const tokenize = db.transaction((texts: readonly string[]) => {
    const phrases = texts.map((): string[] => []);
    for (const [i, text] of texts.entries()) insert.run({ row: i + 1, text });
    for (const [doc, term] of read.all()) phrases[doc - 1]?.push(term);
    clear.run();
    return phrases;
  });
  return { db, tokenize };
}

/** A writable catalog connection with its tables, or undefined when the file is not a catalog this code reads. */
function openForWriting(file: string): Database.Database | undefined {
  const db = new Database(file);
  try {
    // Concurrent installs wait for each other rather than fail.
    db.pragma('busy_timeout = 5000');
    if (userVersion(db) === CATALOG_VERSION) {
      // Reads nothing: fails unless the tables have the columns this code reads.
      rows(catalogQueries.librariesColumns).on(db).all();
      rows(catalogQueries.termsColumns).on(db).all();
      return db;
    }
    if (values(catalogQueries.tableCount).on(db).get() !== 0) {
      db.close();
      return undefined;
    }
    db.transaction(() => createSchema(db, catalogSchema))();
    return db;
  } catch {
    db.close();
    return undefined;
  }
}

function forgetFile(db: Database.Database, file: string): void {
  rows(catalogQueries.forgetTerms).on(db).run({ file });
  rows(catalogQueries.forgetLibrary).on(db).run({ file });
}

/** The entry for a package when it was made from the file as it is now. */
function fresh(libraries: ReadonlyMap<string, LibraryRow>, pkg: ListedFile): LibraryRow | undefined {
  const row = libraries.get(path.basename(pkg.file));
  return row && row.mtime_ms === pkg.mtimeMs && row.bytes === pkg.bytes ? row : undefined;
}

/**
 * A package's tokens (with their chunk counts), chunk count and whether it
 * has vectors, read from its own index; undefined when the file changed
 * while it was read, so an entry never describes another file than its key.
 */
function readSummary(pkg: ListedFile): { terms: string; chunks: number; vectors: boolean } | undefined {
  const db = openReadOnlyDatabase(pkg.file);
  try {
    runOnce(db, vocabularyQueries.createVocabulary);
    // `[[token, df], …]` as JSON, made and read back by SQLite: no JavaScript value per term.
    const terms = values(vocabularyQueries.vocabulary).on(db).get() ?? '[]';
    const chunks = values(vocabularyQueries.chunkCount).on(db).get() ?? 0;
    const vectors = (values(vocabularyQueries.embedderCount).on(db).get() ?? 0) > 0;
    const now = statSync(pkg.file);
    if (now.size !== pkg.bytes || now.mtimeMs !== pkg.mtimeMs) return undefined;
    return { terms, chunks, vectors };
  } finally {
    db.close();
  }
}
