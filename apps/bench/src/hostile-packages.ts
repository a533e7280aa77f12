// Hostile package files: a real package, as `docs add` builds it, then changed
// at random the ways an attacker or a broken disk would change it. Used by
// `pnpm fuzz --hostile N` and, with a few cases, by the test suite.
//
// A mutation is data (a Mutation value): fast-check draws it from a seed, so
// a failing case is named by its seed and index and can be replayed.
import { open, stat, truncate } from 'node:fs/promises';
import { classify } from '@docs/errors';
import { getDocs, type SearchResponse, searchAll } from '@docs/search';
import { type DocumentInput, type PackageStore, writePackage } from '@docs/store';
import Database from 'better-sqlite3';
import fc from 'fast-check';

/** Words every generated package holds, so every query reaches every library. */
export const HOSTILE_WORDS = ['cors', 'timers', 'mock', 'query', 'schema', 'error', 'config', 'route'] as const;

/** Documents of a healthy package: a few pages, sections of different lengths, links between pages. */
export function healthyDocuments(pages: number, salt: number): DocumentInput[] {
  return Array.from({ length: pages }, (_, p) => {
    const words = (i: number) => HOSTILE_WORDS.filter((_, w) => (w + i + salt) % 3 === 0).join(' ');
    const chunks = Array.from({ length: 3 }, (_, c) => {
      const content = `${words(p + c)} ${'lorem ipsum '.repeat(1 + ((p * 7 + c) % 30))}`;
      return { breadcrumb: [`Page ${p}`, `Section ${c}`], level: 2, content, tokens: Math.ceil(content.length / 4) };
    });
    return {
      path: `guide/page-${p}.md`,
      title: `Page ${p} ${words(p)}`,
      content: `# Page ${p}`,
      chunks,
      links: [`guide/page-${(p + 1) % pages}.md`],
    };
  });
}

/** A value SQLite will store in a column of any type: numbers at the edges, long and hostile text, blobs. */
type Cell = number | bigint | string | Buffer | null;

const ESCAPES = '\u001b]0;owned\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31m\u009d0;x\u0007';

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constantFrom<Cell>(
    2n ** 63n - 1n,
    -(2n ** 63n),
    -1,
    0,
    1e308,
    -1e308,
    null,
    '',
    ESCAPES,
    '../../../../etc/passwd',
    'openai:text-embedding-3-small:4',
    'transformers:/tmp:32',
    'transformers:./model:32',
    '\u0000',
    '{"__proto__":{"x":1}}',
    'not a number',
  ),
  fc.integer(),
  fc.double(),
  // Long text: the budget must bound what an answer carries, whatever a row says its tokens are.
  fc.integer({ min: 10_000, max: 2_000_000 }).map((n) => `${ESCAPES}cors `.repeat(Math.ceil(n / 40))),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

/** One change to a package file. */
export type Mutation =
  /** Bytes overwritten at offsets given as fractions of the file's size. */
  | { readonly kind: 'bytes'; readonly at: readonly number[]; readonly bytes: readonly number[] }
  /** The file cut to this fraction of its size. */
  | { readonly kind: 'truncate'; readonly fraction: number }
  /** One column of one row (rows and columns picked by fraction of those present) set to a hostile value. */
  | {
      readonly kind: 'cell';
      readonly table: number;
      readonly row: number;
      readonly column: number;
      readonly value: Cell;
    }
  /** The same column of every row of a table set to a hostile value. */
  | { readonly kind: 'column'; readonly table: number; readonly column: number; readonly value: Cell }
  /** A block of the full-text index overwritten with random bytes (FTS5's integrity check may still pass). */
  | { readonly kind: 'fts-block'; readonly row: number; readonly bytes: readonly number[]; readonly at: number }
  /** Rows deleted from a table. */
  | { readonly kind: 'delete'; readonly table: number; readonly fraction: number }
  /** An embedder row naming a model, a path or an endpoint, with or without vectors. */
  | { readonly kind: 'embedder'; readonly id: string; readonly dimensions: number; readonly vectors: boolean }
  /** A text column of some rows padded to megabytes (escapes and a searched word), the counts beside it left as they were. */
  | { readonly kind: 'pad'; readonly column: (typeof PADDED)[number]; readonly rows: number; readonly length: number }
  /** Something added to the schema: a trigger, a view, a table, an index. */
  | { readonly kind: 'schema'; readonly statement: string };

/** Tables a mutation may pick from, by index: every table of a package, the index's own included. */
const TABLES = ['package', 'documents', 'chunks', 'embedder', 'chunk_vectors', 'chunks_fts_data', 'chunks_fts_docsize'];

/** Text columns an answer carries, as `table.column`. */
const PADDED = [
  'chunks.content',
  'chunks.breadcrumb',
  'documents.title',
  'documents.path',
  'package.description',
  'package.source',
] as const;

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('bytes' as const),
    at: fc.array(fraction, { minLength: 1, maxLength: 16 }),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), fraction }),
  fc.record({
    kind: fc.constant('cell' as const),
    table: fc.nat({ max: TABLES.length - 1 }),
    row: fraction,
    column: fraction,
    value: cell,
  }),
  fc.record({
    kind: fc.constant('column' as const),
    table: fc.nat({ max: 2 }),
    column: fraction,
    value: cell,
  }),
  fc.record({
    kind: fc.constant('fts-block' as const),
    row: fraction,
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }),
    at: fraction,
  }),
  fc.record({ kind: fc.constant('delete' as const), table: fc.nat({ max: TABLES.length - 1 }), fraction }),
  fc.record({
    kind: fc.constant('embedder' as const),
    id: fc.constantFrom(
      'openai:text-embedding-3-small:4',
      'transformers:/tmp:4',
      'transformers:./model:4',
      'transformers:../../x:4',
      'http://127.0.0.1:1/v1:4',
      'minilm:4',
    ),
    dimensions: fc.constantFrom(4, 0, -1, 2 ** 31),
    vectors: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('pad' as const),
    column: fc.constantFrom(...PADDED),
    rows: fraction,
    length: fc.integer({ min: 1_000, max: 4_000_000 }),
  }),
  fc.record({
    kind: fc.constant('schema' as const),
    statement: fc.constantFrom(
      'CREATE TRIGGER t AFTER INSERT ON chunks BEGIN DELETE FROM documents; END',
      'CREATE VIEW v AS SELECT * FROM chunks',
      'CREATE TABLE extra (x)',
      'CREATE INDEX extra_index ON chunks (tokens)',
      'PRAGMA user_version = 99',
      'PRAGMA journal_mode = WAL',
    ),
  }),
);

/** Hostile packages: one to three mutations each. */
export const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });

/** Picks the element at a fraction of a list's length. */
function at<T>(list: readonly T[], f: number): T | undefined {
  return list[Math.min(list.length - 1, Math.floor(f * list.length))];
}

/** Applies one mutation to a package file, as someone with a hex editor or the sqlite3 shell would. */
export async function mutate(file: string, m: Mutation): Promise<void> {
  if (m.kind === 'bytes') {
    const { size } = await stat(file);
    const handle = await open(file, 'r+');
    try {
      for (const [i, f] of m.at.entries())
        await handle.write(Buffer.from([m.bytes[i % m.bytes.length] ?? 0]), 0, 1, Math.floor(f * size));
    } finally {
      await handle.close();
    }
    return;
  }
  if (m.kind === 'truncate') {
    const { size } = await stat(file);
    await truncate(file, Math.floor(m.fraction * size));
    return;
  }
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch {
    return; // an earlier mutation left no database to edit: the file goes to install as it is
  }
  // Off SQLite's defensive mode, as the sqlite3 shell is: shadow tables and the schema can be written.
  db.unsafeMode(true);
  try {
    db.pragma('foreign_keys = OFF');
    editDatabase(db, m);
  } catch {
    // A constraint (NOT NULL, UNIQUE) or an earlier mutation refused this edit: the file stays as it was.
  } finally {
    db.close();
  }
}

function editDatabase(db: Database.Database, m: Exclude<Mutation, { kind: 'bytes' | 'truncate' }>): void {
  const columnsOf = (table: string) =>
    (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
  const rowidsOf = (table: string) => db.prepare(`SELECT rowid FROM "${table}"`).pluck().all() as number[];
  switch (m.kind) {
    case 'cell': {
      const table = TABLES[m.table] as string;
      const column = at(columnsOf(table), m.column);
      const row = at(rowidsOf(table), m.row);
      if (column === undefined || row === undefined) return;
      db.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE rowid = ?`).run(m.value, row);
      return;
    }
    case 'column': {
      const table = TABLES[m.table] as string;
      const column = at(columnsOf(table), m.column);
      if (column === undefined || column === 'id') return;
      db.prepare(`UPDATE "${table}" SET "${column}" = ?`).run(m.value);
      return;
    }
    case 'fts-block': {
      const row = at(rowidsOf('chunks_fts_data'), m.row);
      if (row === undefined) return;
      const block = db.prepare('SELECT block FROM chunks_fts_data WHERE rowid = ?').pluck().get(row) as Buffer | null;
      if (!Buffer.isBuffer(block) || block.length === 0) return;
      const start = Math.floor(m.at * block.length);
      for (const [i, b] of m.bytes.entries()) if (start + i < block.length) block[start + i] = b;
      db.prepare('UPDATE chunks_fts_data SET block = ? WHERE rowid = ?').run(block, row);
      return;
    }
    case 'delete': {
      const table = TABLES[m.table] as string;
      const rows = rowidsOf(table);
      const doomed = rows.slice(0, Math.ceil(m.fraction * rows.length));
      const remove = db.prepare(`DELETE FROM "${table}" WHERE rowid = ?`);
      for (const row of doomed) remove.run(row);
      return;
    }
    case 'embedder': {
      db.exec('DELETE FROM embedder');
      db.prepare('INSERT INTO embedder (id, dimensions) VALUES (?, ?)').run(m.id, m.dimensions);
      if (m.vectors) {
        const vector = Buffer.from(new Float32Array([0.5, 0.5, 0.5, 0.5]).buffer);
        const insert = db.prepare('INSERT OR REPLACE INTO chunk_vectors (chunk_id, vector) VALUES (?, ?)');
        for (const id of rowidsOf('chunks')) insert.run(id, vector);
      }
      return;
    }
    case 'pad': {
      const [table, column] = m.column.split('.') as [string, string];
      const rows = rowidsOf(table);
      const text = `${ESCAPES} cors mock timers `.repeat(Math.ceil(m.length / 80));
      // A breadcrumb is a JSON array of headings: a padded one stays one, so only its size is hostile.
      const value =
        column === 'breadcrumb' ? JSON.stringify([text, text]) : column === 'path' ? `guide/${text}.md` : text;
      const update = db.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE rowid = ?`);
      for (const row of rows.slice(0, Math.max(1, Math.ceil(m.rows * rows.length)))) update.run(value, row);
      return;
    }
    case 'schema':
      db.exec(m.statement);
      return;
  }
}

/** Writes a healthy package file for `name`, then applies `changes` to it. */
export async function hostilePackage(file: string, name: string, changes: readonly Mutation[]): Promise<void> {
  await writePackage(file, { name, version: '1.0.0', description: `${name} docs` }, healthyDocuments(12, 1));
  for (const change of changes) await mutate(file, change);
}

/**
 * The most bytes an answer with a token budget of `tokens` showing `sections` sections may take as JSON: the budget
 * bounds the content's bytes (BYTES_PER_TOKEN a token, as sent), each section's labels (title, path, headings) are
 * cut to a fixed size, and the fields every answer has (message, query, retrieval notes, libraries) take a few KB.
 */
export function answerByteBound(tokens: number, sections: number): number {
  return BYTES_PER_TOKEN * tokens + LABEL_BYTES * sections + 8_192;
}

/** How many bytes of content a token of budget may send (@docs/search's bound). */
export const BYTES_PER_TOKEN = 8;

/** Room for one section's labels: title, path and heading cut to 300 bytes, at most 8 headings of a breadcrumb. */
const LABEL_BYTES = 10_240;

/** What went wrong with one hostile package, if anything. */
export type HostileOutcome =
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'accepted' }
  | { readonly outcome: 'failed'; readonly problem: string };

/**
 * Installs a hostile package beside healthy ones and asks every question a user would: it must be refused with a
 * reason (an error that is not a bug), or installed with every search over all libraries still answering within
 * budget, and the healthy libraries still answering.
 */
export async function tryHostile(
  store: PackageStore,
  file: string,
  healthy: readonly string[],
  budgets: readonly number[],
): Promise<HostileOutcome> {
  try {
    await store.install(file);
  } catch (error) {
    const { blame, message } = classify(error);
    return blame === 'bug'
      ? { outcome: 'failed', problem: `install: unexpected error: ${message}` }
      : { outcome: 'refused' };
  }
  const installed = await store.list();
  const others = installed.map((p) => p.name).filter((name) => !healthy.includes(name));
  for (const tokens of budgets) {
    for (const word of HOSTILE_WORDS.slice(0, 3)) {
      const asked: Array<[string, boolean, () => Promise<SearchResponse>]> = [
        [`searchAll "${word}"`, true, () => searchAll(store, word, { tokens })],
        ...healthy.map((lib): [string, boolean, () => Promise<SearchResponse>] => [
          `getDocs ${lib} "${word}"`,
          true,
          () => getDocs(store, lib, word, { tokens }),
        ]),
        // The hostile library itself may answer nothing, or refuse with a reason; never a bug, never over budget.
        ...others.map((lib): [string, boolean, () => Promise<SearchResponse>] => [
          `getDocs ${lib} "${word}"`,
          false,
          () => getDocs(store, lib, word, { tokens }),
        ]),
      ];
      for (const [what, answers, ask] of asked) {
        let response: SearchResponse;
        try {
          response = await ask();
        } catch (error) {
          const { blame, message } = classify(error);
          if (!answers && blame !== 'bug') continue;
          return { outcome: 'failed', problem: `${what} --tokens ${tokens}: ${message}` };
        }
        const bytes = Buffer.byteLength(JSON.stringify(response));
        const sections = response.results.reduce((sum, r) => sum + Math.max(1, r.sections?.length ?? 1), 0);
        if (tokens > 0 && bytes > answerByteBound(tokens, sections))
          return { outcome: 'failed', problem: `${what} --tokens ${tokens}: ${bytes} bytes` };
        // One broken library never breaks an answer about the others: every healthy library holds the word.
        if (answers && (response.status !== 'ok' || response.results.length === 0))
          return { outcome: 'failed', problem: `${what} --tokens ${tokens}: ${response.status}: ${response.message}` };
      }
    }
  }
  try {
    await store.list();
  } catch (error) {
    return { outcome: 'failed', problem: `list: ${classify(error).message}` };
  }
  return { outcome: 'accepted' };
}
