import type Database from 'better-sqlite3';
import { checkQueries, contentRules } from './compiled-queries.js';
import { rows, values } from './statement.js';

// The rules every row of a package keeps are written with their queries in package-queries.ts (contentRules): each
// a query that returns the id of the first row breaking it (or nothing), so a check reads the table once and stops
// at the first bad row.

/**
 * The first problem with the rows of a package whose schema is already known
 * to be right, or undefined when every row keeps every rule and (with `index`)
 * the search index holds exactly the chunks and passes FTS5's own integrity check. The schema check alone lets
 * through a file whose rows would break every search that reaches them.
 */
export function contentProblem(
  database: Database.Database,
  options: {
    /** Check the search index too; off where it is about to be made again from the rows (derived-data.ts). */
    readonly index: boolean;
  },
): string | undefined {
  for (const rule of contentRules) {
    const id = values(rule.query).on(database).get();
    if (id !== undefined) return `${rule.table} row ${id}: ${rule.problem}`;
  }
  if (!options.index) return undefined;
  const unindexed = values(checkQueries.unindexedChunk).on(database).get();
  if (unindexed !== undefined) return `chunks row ${unindexed}: is missing from the search index`;
  const orphan = values(checkQueries.orphanIndexRow).on(database).get();
  if (orphan !== undefined) return `chunks_fts row ${orphan}: is indexed but has no chunk`;
  try {
    // Reads the index only; the INSERT form is how FTS5 takes commands. Needs a writable connection.
    rows(checkQueries.indexIntegrity).on(database).run();
  } catch (error) {
    return `the search index is damaged (${(error as Error).message})`;
  }
  return undefined;
}
