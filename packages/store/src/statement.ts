import type Database from 'better-sqlite3';
import type { Compilable, RawBuilder } from 'kysely';

// Kysely builds, the driver runs. Every statement of the store is a Kysely query over the database's types, written
// in one of the *-queries.ts modules as a builder: a function of a Kysely instance and the statement's parameters.
// Kysely compiles each one once, ahead of time: compiled-queries.ts holds the SQL (written by its test, which
// compiles the builders again and fails when the two differ), typed by the builder it came from. The store prepares
// that SQL once per connection, on first use, and runs it through better-sqlite3; no builder runs, and Kysely is never
// loaded, when a statement runs (loading it costs more than a whole search: see compiled-queries.test.ts).

/** A statement's builder: a Kysely query from a Kysely instance and the statement's named parameters, if any. */
export type QueryBuilder = (db: never, params: never) => Compilable<unknown> | RawBuilder<unknown>;

/** The row a builder's query returns. */
export type RowOf<B extends QueryBuilder> =
  ReturnType<B> extends Compilable<infer O> ? O : ReturnType<B> extends RawBuilder<infer O> ? O : never;

/** The named parameters a builder's query takes: its second argument (none when it has one argument). */
export type ParamsOf<B extends QueryBuilder> = Parameters<B> extends [unknown, infer P] ? P : Record<never, never>;

declare const types: unique symbol;

/**
 * A statement as Kysely compiled it: its SQL, with a named parameter (`@name`) for each of `Params`, returning
 * `Row`s whose columns are `Columns`, in that order.
 */
export interface Query<Row, Params, Columns extends readonly (keyof Row)[]> {
  readonly sql: string;
  /** Types only, never set. */
  readonly [types]?: { readonly row: Row; readonly params: Params; readonly columns: Columns };
}

/** The compiled SQL of builder `B`, typed by it; `Columns` are its result columns in order (compiled-queries.ts). */
export function compiled<B extends QueryBuilder, Columns extends readonly (keyof RowOf<B>)[] = []>(
  sql: string,
): Query<RowOf<B>, ParamsOf<B>, Columns> {
  return { sql };
}

/** The arguments a statement is run with: its parameters as one object, or none. */
type Bind<Params> = keyof Params extends never ? [] : [Params];

/** A prepared statement, typed by its query. */
export interface Statement<Result, Params> {
  all(...params: Bind<Params>): Result[];
  get(...params: Bind<Params>): Result | undefined;
  iterate(...params: Bind<Params>): IterableIterator<Result>;
  run(...params: Bind<Params>): Database.RunResult;
}

/** A row as an array of its columns' values, in the query's order (better-sqlite3's raw mode). */
export type Tuple<Row, Columns extends readonly (keyof Row)[]> = { -readonly [I in keyof Columns]: Row[Columns[I]] };

/** The value of a query's first column (better-sqlite3's pluck mode). */
export type FirstValue<Row, Columns extends readonly (keyof Row)[]> = Columns extends readonly [
  infer First extends keyof Row,
  ...unknown[],
]
  ? Row[First]
  : never;

/**
 * A query's statement on a connection, prepared the first time it is asked for on that connection (a reader opened
 * again after eviction prepares it anew) and kept: what a hot path asks for on every call.
 */
export class Prepared<Result, Params> {
  readonly #sql: string;
  readonly #mode: 'rows' | 'tuples' | 'values';
  #database: Database.Database | undefined;
  #statement: Database.Statement<unknown[], Result> | undefined;

  constructor(sql: string, mode: 'rows' | 'tuples' | 'values') {
    this.#sql = sql;
    this.#mode = mode;
  }

  /** The statement on `database`. */
  on(database: Database.Database): Statement<Result, Params> {
    if (this.#statement === undefined || this.#database !== database) {
      const statement = database.prepare<unknown[], Result>(this.#sql);
      if (this.#mode === 'tuples') statement.raw(true);
      else if (this.#mode === 'values') statement.pluck(true);
      this.#statement = statement;
      this.#database = database;
    }
    return this.#statement;
  }
}

/** A query whose rows are objects by column name. */
export function rows<Row, Params, Columns extends readonly (keyof Row)[]>(
  query: Query<Row, Params, Columns>,
): Prepared<Row, Params> {
  return new Prepared(query.sql, 'rows');
}

/** A query whose rows are arrays of their columns' values, in the query's order: no object made per row. */
export function tuples<Row, Params, Columns extends readonly (keyof Row)[]>(
  query: Query<Row, Params, Columns>,
): Prepared<Tuple<Row, Columns>, Params> {
  return new Prepared(query.sql, 'tuples');
}

/** A query whose rows are the value of their first column. */
export function values<Row, Params, Columns extends readonly (keyof Row)[]>(
  query: Query<Row, Params, Columns>,
): Prepared<FirstValue<Row, Columns>, Params> {
  return new Prepared(query.sql, 'values');
}

/** Prepares and runs a statement once (a schema's, a command's): what is not run again on the connection. */
export function runOnce<Row, Params, Columns extends readonly (keyof Row)[]>(
  database: Database.Database,
  query: Query<Row, Params, Columns>,
  ...params: Bind<Params>
): Database.RunResult {
  return rows(query)
    .on(database)
    .run(...params);
}
