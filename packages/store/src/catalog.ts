import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Term } from './fts-query.js';
import { openReadOnlyDatabase } from './sqlite.js';

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

interface LibraryRow {
  readonly id: number;
  readonly file: string;
  readonly mtime_ms: number;
  readonly bytes: number;
  readonly chunks: number;
  readonly vectors: number;
}

/** The open read connection and the library rows as of `dataVersion`. */
interface Reading {
  readonly db: Database.Database;
  /** The terms of a JSON array of tokens: prepared once per connection, as every search across libraries asks it. */
  readonly termRows: Database.Statement;
  /** The file's inode: a catalog made anew is another file, and the connection is reopened. */
  readonly ino: bigint;
  dataVersion: number;
  libraries: Map<string, LibraryRow>;
}

/** Bumped whenever the catalog's tables change meaning; a catalog of another version is made anew. */
const CATALOG_VERSION = 1;

/** The index's tokenizer, as package files declare it (schema.ts): the catalog tokenizes query terms with it. */
const TOKENIZER = 'unicode61 remove_diacritics 2';

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
        const findLibrary = db.prepare('SELECT id FROM libraries WHERE file = ?').pluck();
        const addLibrary = db.prepare(
          'INSERT INTO libraries (file, mtime_ms, bytes, chunks, vectors) VALUES (?, ?, ?, ?, ?)',
        );
        const updateLibrary = db.prepare(
          'UPDATE libraries SET mtime_ms = ?, bytes = ?, chunks = ?, vectors = ? WHERE id = ?',
        );
        // The vocabulary arrives as one JSON array of [token, df] and is unpacked inside SQLite:
        // a row-by-row insert from JavaScript cost twice the whole record (docs/benchmarks.md).
        // A file recorded before (a package built again) keeps its id and its rows: only the
        // tokens and counts that changed are written, where deleting and inserting every row
        // cost most of an install's CPU (docs/benchmarks.md).
        const dropOldTerms = db.prepare(
          'DELETE FROM terms WHERE library = ? AND token NOT IN (SELECT value ->> 0 FROM json_each(?))',
        );
        // `WHERE true` tells SQLite's parser that the ON CONFLICT belongs to the INSERT, not to the SELECT.
        const putTerms = db.prepare(
          `INSERT INTO terms (token, library, df) SELECT value ->> 0, ?, value ->> 1 FROM json_each(?) WHERE true
           ON CONFLICT (token, library) DO UPDATE SET df = excluded.df WHERE df != excluded.df`,
        );
        for (const { pkg, summary } of summaries) {
          const name = path.basename(pkg.file);
          const known = findLibrary.get(name) as number | bigint | undefined;
          const vectors = summary.vectors ? 1 : 0;
          if (known === undefined) {
            const { lastInsertRowid } = addLibrary.run(name, pkg.mtimeMs, pkg.bytes, summary.chunks, vectors);
            putTerms.run(lastInsertRowid, summary.terms);
          } else {
            updateLibrary.run(pkg.mtimeMs, pkg.bytes, summary.chunks, vectors, known);
            dropOldTerms.run(known, summary.terms);
            putTerms.run(known, summary.terms);
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
      const rows = reading.termRows.all(JSON.stringify(tokens)) as Array<[string, number, number]>;
      for (const [token, library, df] of rows) counts.get(token)?.set(library, df);
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
        if (db.pragma('user_version', { simple: true }) !== CATALOG_VERSION) {
          db.close();
          return undefined;
        }
        const termRows = db
          .prepare('SELECT t.token, t.library, t.df FROM json_each(?) AS j JOIN terms AS t ON t.token = j.value')
          .raw();
        this.#reading = { db, ino, termRows, dataVersion: -1, libraries: new Map() };
      }
      const reading = this.#reading;
      const dataVersion = reading.db.pragma('data_version', { simple: true }) as number;
      if (dataVersion !== reading.dataVersion) {
        const rows = reading.db.prepare('SELECT * FROM libraries').all() as LibraryRow[];
        reading.libraries = new Map(rows.map((r) => [r.file, r]));
        reading.dataVersion = dataVersion;
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
  db.exec(`CREATE VIRTUAL TABLE q USING fts5(t, tokenize='${TOKENIZER}')`);
  db.exec('CREATE VIRTUAL TABLE qv USING fts5vocab(q, instance)');
  const insert = db.prepare('INSERT INTO q (rowid, t) VALUES (?, ?)');
  const read = db.prepare('SELECT doc, term FROM qv ORDER BY doc, "offset"').raw();
  const clear = db.prepare('DELETE FROM q');
  const tokenize = db.transaction((texts: readonly string[]) => {
    const phrases = texts.map((): string[] => []);
    for (const [i, text] of texts.entries()) insert.run(i + 1, text);
    for (const [doc, term] of read.all() as Array<[number, string]>) phrases[doc - 1]?.push(term);
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
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === CATALOG_VERSION) {
      db.prepare('SELECT id, file, mtime_ms, bytes, chunks, vectors FROM libraries LIMIT 0').all();
      db.prepare('SELECT token, library, df FROM terms LIMIT 0').all();
      return db;
    }
    const empty = (db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number) === 0;
    if (!empty) {
      db.close();
      return undefined;
    }
    db.transaction(() => {
      db.exec(`
        CREATE TABLE libraries (
          id INTEGER PRIMARY KEY,
          file TEXT NOT NULL UNIQUE,
          mtime_ms REAL NOT NULL,
          bytes INTEGER NOT NULL,
          chunks INTEGER NOT NULL,
          vectors INTEGER NOT NULL
        );
        CREATE TABLE terms (
          token TEXT NOT NULL,
          library INTEGER NOT NULL,
          df INTEGER NOT NULL,
          PRIMARY KEY (token, library)
        ) WITHOUT ROWID;
        CREATE INDEX terms_library ON terms (library);
      `);
      db.pragma(`user_version = ${CATALOG_VERSION}`);
    })();
    return db;
  } catch {
    db.close();
    return undefined;
  }
}

function forgetFile(db: Database.Database, name: string): void {
  db.prepare('DELETE FROM terms WHERE library IN (SELECT id FROM libraries WHERE file = ?)').run(name);
  db.prepare('DELETE FROM libraries WHERE file = ?').run(name);
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
    db.exec('CREATE VIRTUAL TABLE temp.catalog_vocabulary USING fts5vocab(main, chunks_fts, row)');
    // `[[token, df], …]` as JSON, made and read back by SQLite: no JavaScript value per term.
    const terms = db
      .prepare('SELECT json_group_array(json_array(term, doc)) FROM temp.catalog_vocabulary')
      .pluck()
      .get() as string;
    const chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    const vectors = (db.prepare('SELECT count(*) FROM embedder').pluck().get() as number) > 0;
    const now = statSync(pkg.file);
    if (now.size !== pkg.bytes || now.mtimeMs !== pkg.mtimeMs) return undefined;
    return { terms, chunks, vectors };
  } finally {
    db.close();
  }
}
