import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as catalog from './catalog-queries.js';
import * as compiledQueries from './compiled-queries.js';
import * as pkg from './package-queries.js';
import * as work from './vector-job-queries.js';

// compiled-queries.ts is what Kysely compiles each builder of the *-queries.ts modules to (see statement.ts): this
// test compiles them again and fails when the file differs. After changing a builder, write it anew with
//
//   npx vitest run packages/store/src/compiled-queries.test.ts -u
//
// Compiled ahead of time because Kysely costs more to load than a search takes: on a shared 2-core machine (Node 20,
// 2026-11-26), importing it as the CLI's bundle does took 26-33 ms, ~11 ms with V8's code cache, and its ES modules
// unbundled (as `docs mcp` loads @docs/store) 220-450 ms; a one-shot `docs search` is ~86 ms in all on a quiet one.

/** A value a statement binds when it runs: compiled as `@name`, which better-sqlite3 binds from an object's key. */
class Param {
  constructor(readonly name: string) {}
}

/** SQLite's compiler, writing each parameter by its name; any other value in a query is a mistake (use sql.lit). */
class NamedParameterCompiler extends SqliteQueryCompiler {
  protected override appendValue(value: unknown): void {
    if (!(value instanceof Param)) {
      throw new Error(`a value in a query must be a parameter or a literal (sql.lit): ${String(value)}`);
    }
    this.append(`@${value.name}`);
  }
}

/** A Kysely that compiles without a connection. */
const kysely = new Kysely<never>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new NamedParameterCompiler(),
  },
});

/** Every parameter a builder asks for, by name. */
const params = new Proxy({}, { get: (_, name) => (typeof name === 'string' ? new Param(name) : undefined) }) as Record<
  string,
  Param
>;

type Builder = (db: Kysely<never>, params: Record<string, Param>) => { compile(db: Kysely<never>): { sql: string } };

function isBuilder(value: unknown): value is Builder {
  return typeof value === 'function';
}

function sqlOf(builder: Builder): string {
  const { sql } = builder(kysely, params).compile(kysely);
  if (sql.includes('`') || sql.includes('${')) throw new Error(`cannot be written in a template literal: ${sql}`);
  return sql;
}

/** A connection holding what one module's statements name, where each is prepared to find its result's columns. */
interface Target {
  readonly database: Database.Database;
  /** The statements that make it, run first. */
  readonly schema: readonly Builder[];
}

function packageTarget(): Target {
  const database = new Database(':memory:');
  database.exec(`ATTACH ':memory:' AS work; CREATE TABLE work.vectors (chunk_id INTEGER PRIMARY KEY, vector BLOB)`);
  return { database, schema: pkg.packageSchema as readonly Builder[] };
}

/**
 * The statement's result columns, in order ([] for one returning no rows), as SQLite reports them from `database`.
 * A statement that creates something is run, so the statements after it can name what it made.
 */
function columnsOf(database: Database.Database, sql: string): string[] {
  const statement = database.prepare(sql);
  if (/^create /i.test(sql)) statement.run();
  return statement.reader ? statement.columns().map((c) => c.name) : [];
}

function literal(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A compiled statement as compiled-queries.ts writes it: the SQL, typed by its builder and its columns. */
function entry(type: string, sql: string, columns: readonly string[]): string {
  const typeArguments = columns.length > 0 ? `${type}, [${columns.map(literal).join(', ')}]` : type;
  return `compiled<${typeArguments}>(\`${sql}\`)`;
}

/** One export of a *-queries.ts module, compiled: a list of builders, a list of content rules, or builders by name. */
function exported(alias: string, name: string, value: unknown, database: Database.Database): string {
  if (Array.isArray(value) && value.every(isBuilder)) {
    // A schema: run first (see compiledSource), returning no rows.
    const type = `(typeof ${alias}.${name})[number]`;
    const items = value.map((b) => `  ${entry(type, sqlOf(b), [])},`);
    return `export const ${name} = [\n${items.join('\n')}\n];`;
  }
  if (Array.isArray(value)) {
    const items = (value as readonly pkg.ContentRuleQuery[]).map((rule) => {
      const sql = sqlOf(rule.query as unknown as Builder);
      const query = entry(`(typeof ${alias}.${name})[number]['query']`, sql, columnsOf(database, sql));
      return `  { table: ${literal(rule.table)}, problem: ${literal(rule.problem)}, query: ${query} },`;
    });
    return `export const ${name} = [\n${items.join('\n')}\n];`;
  }
  const items = Object.entries(value as Record<string, unknown>).map(([key, builder]) => {
    if (!isBuilder(builder)) throw new Error(`${name}.${key} is not a builder`);
    const sql = sqlOf(builder);
    return `  ${key}: ${entry(`typeof ${alias}.${name}.${key}`, sql, columnsOf(database, sql))},`;
  });
  return `export const ${name} = {\n${items.join('\n')}\n};`;
}

/** The modules, in the order compiled-queries.ts holds them, each with where its statements are prepared. */
function modules(): Array<{ alias: string; file: string; exports: Record<string, unknown>; target: Target }> {
  const memory = (schema: readonly unknown[]): Target => ({
    database: new Database(':memory:'),
    schema: schema as readonly Builder[],
  });
  return [
    { alias: 'pkg', file: './package-queries.js', exports: { ...pkg }, target: packageTarget() },
    { alias: 'catalog', file: './catalog-queries.js', exports: { ...catalog }, target: memory(catalog.catalogSchema) },
    { alias: 'work', file: './vector-job-queries.js', exports: { ...work }, target: memory(work.workSchema) },
  ];
}

/** compiled-queries.ts as the builders make it now. */
function compiledSource(): string {
  const sections: string[] = [];
  for (const { alias, exports, target } of modules()) {
    try {
      for (const builder of target.schema) target.database.exec(sqlOf(builder));
      for (const [name, value] of Object.entries(exports)) {
        if (typeof value === 'object' && value !== null) sections.push(exported(alias, name, value, target.database));
      }
    } finally {
      target.database.close();
    }
  }
  const imports = modules()
    .map(({ alias, file }) => `import type * as ${alias} from '${file}';`)
    .sort();
  return [
    '// Written by compiled-queries.test.ts: the SQL Kysely compiles each builder of the *-queries.ts modules to, typed by',
    '// the builder and the columns SQLite reports (see statement.ts). Do not edit: change the builder, then run',
    '// npx vitest run packages/store/src/compiled-queries.test.ts -u',
    ...imports,
    "import { compiled } from './statement.js';",
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

describe('compiled-queries.ts', () => {
  it('is what Kysely compiles the builders to, each statement prepared against the database it names', async () => {
    await expect(compiledSource()).toMatchFileSnapshot('./compiled-queries.ts');
  });

  it('makes the package schema of format 3, as every file written before holds it', () => {
    const database = new Database(':memory:');
    try {
      for (const { sql } of compiledQueries.packageSchema) database.exec(sql);
      const objects = database.prepare("SELECT sql FROM sqlite_master WHERE name NOT LIKE 'chunks_fts_%'").pluck();
      expect(objects.all()).toEqual(FORMAT_3_SCHEMA);
      expect(database.pragma('user_version', { simple: true })).toBe(3);
    } finally {
      database.close();
    }
  });

  it('makes the catalog tables a catalog made before has, column for column', () => {
    const made = new Database(':memory:');
    const before = new Database(':memory:');
    try {
      for (const { sql } of compiledQueries.catalogSchema) made.exec(sql);
      before.exec(CATALOG_1_SCHEMA);
      for (const table of ['libraries', 'terms']) {
        expect(made.pragma(`table_info(${table})`)).toEqual(before.pragma(`table_info(${table})`));
        expect(made.pragma(`index_list(${table})`)).toEqual(before.pragma(`index_list(${table})`));
      }
      expect(made.pragma('user_version', { simple: true })).toBe(1);
    } finally {
      made.close();
      before.close();
    }
  });
});

describe('the store at run time', () => {
  it('never loads Kysely: no module index.ts loads imports it but for types', () => {
    const loaded = new Set<string>();
    const reached: string[] = [];
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      // `import type` and `export type` are erased; any other import or re-export is loaded.
      for (const [, specifier] of source.matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)';/gms)) {
        if (specifier?.startsWith('./')) visit(specifier.replace(/\.js$/, '.ts'));
        else if (specifier === 'kysely') reached.push(file);
      }
    };
    visit('./index.ts');
    expect(loaded.has('./compiled-queries.ts')).toBe(true);
    expect(reached).toEqual([]);
  });
});

/** The schema objects of a package file of format 3 (the index's shadow tables aside), as docs has written them. */
const FORMAT_3_SCHEMA = [
  'CREATE TABLE "package" ("name" text not null, "version" text not null, "description" text not null, "source" text not null, "built_at" text not null, "format_version" integer not null)',
  'CREATE TABLE "documents" ("id" integer primary key, "path" text not null unique, "title" text not null, "content" text not null, "inbound_links" integer default 0 not null)',
  null,
  'CREATE TABLE "chunks" ("id" integer primary key, "document_id" integer not null references "documents" ("id"), "ord" integer not null, "breadcrumb" text not null, "level" integer not null, "content" text not null, "tokens" integer not null)',
  'CREATE TABLE "embedder" ("id" text not null, "dimensions" integer not null)',
  'CREATE TABLE "chunk_vectors" ("chunk_id" integer primary key references "chunks" ("id"), "vector" blob not null)',
  'CREATE UNIQUE INDEX "chunks_document_ord" on "chunks" ("document_id", "ord")',
  "CREATE VIRTUAL TABLE chunks_fts USING fts5(title, headings, heading, body, content='', tokenize='unicode61 remove_diacritics 2')",
];

/** The catalog's tables as version 1 wrote them by hand. */
const CATALOG_1_SCHEMA = `
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
`;
