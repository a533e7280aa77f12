import type Database from 'better-sqlite3';

/**
 * One rule every row of a table must keep. `firstViolation` is a query that
 * returns the id of the first row breaking it (or nothing), so a check reads
 * the table once and stops at the first bad row. A new table (a format bump)
 * adds its rules here; nothing else changes.
 */
interface ContentRule {
  readonly table: string;
  /** What a row breaking the rule has, for the refusal: "breadcrumb is not a JSON array of strings". */
  readonly problem: string;
  readonly firstViolation: string;
}

/** A column SQLite holds as text (NULL, a number or a blob is not). */
const text = (table: string, column: string, id = 'id'): ContentRule => ({
  table,
  problem: `${column} is not text`,
  firstViolation: `SELECT ${id} FROM ${table} WHERE typeof(${column}) != 'text' LIMIT 1`,
});

/** A whole number in [min, max]. */
const wholeNumber = (table: string, column: string, min: number, max?: number): ContentRule => ({
  table,
  problem: `${column} is not a whole number ${max === undefined ? `≥ ${min}` : `from ${min} to ${max}`}`,
  firstViolation: `SELECT id FROM ${table} WHERE typeof(${column}) != 'integer' OR ${column} < ${min}${max === undefined ? '' : ` OR ${column} > ${max}`} LIMIT 1`,
});

const RULES: readonly ContentRule[] = [
  ...['name', 'version', 'description', 'source', 'built_at'].map((c) => text('package', c, 'rowid')),
  text('documents', 'path'),
  text('documents', 'title'),
  text('documents', 'content'),
  wholeNumber('documents', 'inbound_links', 0),
  text('chunks', 'content'),
  wholeNumber('chunks', 'document_id', 1),
  wholeNumber('chunks', 'ord', 0),
  // Markdown has six heading levels; 0 is the text before the first heading.
  wholeNumber('chunks', 'level', 0, 6),
  wholeNumber('chunks', 'tokens', 0),
  {
    table: 'chunks',
    problem: 'breadcrumb is not a JSON array of strings',
    firstViolation: `SELECT id FROM chunks
      WHERE typeof(breadcrumb) != 'text' OR NOT json_valid(breadcrumb) OR json_type(breadcrumb) != 'array'
        OR EXISTS (SELECT 1 FROM json_each(chunks.breadcrumb) WHERE json_each.type != 'text')
      LIMIT 1`,
  },
  {
    table: 'chunks',
    problem: 'document_id names no document',
    firstViolation:
      'SELECT c.id FROM chunks c LEFT JOIN documents d ON d.id = c.document_id WHERE d.id IS NULL LIMIT 1',
  },
  // The index is contentless: its docsize table has one row per indexed chunk, so
  // the two id sets must be the same, or searches find chunks that are not there
  // (or miss ones that are).
  {
    table: 'chunks',
    problem: 'is missing from the search index',
    firstViolation:
      'SELECT c.id FROM chunks c LEFT JOIN chunks_fts_docsize f ON f.id = c.id WHERE f.id IS NULL LIMIT 1',
  },
  {
    table: 'chunks_fts',
    problem: 'is indexed but has no chunk',
    firstViolation:
      'SELECT f.id FROM chunks_fts_docsize f LEFT JOIN chunks c ON c.id = f.id WHERE c.id IS NULL LIMIT 1',
  },
];

/**
 * The first problem with the rows of a package whose schema is already known
 * to be right, or undefined when every row keeps every rule and the search
 * index passes FTS5's own integrity check. The schema check alone lets
 * through a file whose rows would break every search that reaches them.
 */
export function contentProblem(database: Database.Database): string | undefined {
  for (const rule of RULES) {
    const id = database.prepare(rule.firstViolation).pluck().get() as number | bigint | undefined;
    if (id !== undefined) return `${rule.table} row ${id}: ${rule.problem}`;
  }
  try {
    // Reads the index only; the INSERT form is how FTS5 takes commands. Needs a writable connection.
    database.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 0)").run();
  } catch (error) {
    return `the search index is damaged (${(error as Error).message})`;
  }
  return undefined;
}
