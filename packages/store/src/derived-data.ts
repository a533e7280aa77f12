import type Database from 'better-sqlite3';
import { derivedQueries, packageSchema, vectorQueries, writeQueries } from './compiled-queries.js';
import { indexHeadings, indexText, markdownWords } from './index-text.js';
import { rows, runOnce } from './statement.js';
import { loadTokenCounter } from './tokens.js';

// A package built elsewhere is data: its sections, their headings, its pages. What search computes from that data
// (the full-text index, each section's token count, how many pages link to a page) is made again here at install,
// never taken from the file: a corrupted index block that FTS5's own integrity check lets through, or a token count
// of 2^63 - 1, would otherwise break every search that reaches the package. Only what cannot be made again (the
// links between pages are not stored) is bounded instead.

/** The index's creation statement, from the package schema: the index made again is the one a build makes. */
const CREATE_INDEX = packageSchema.find((s) => s.sql.startsWith('CREATE VIRTUAL TABLE chunks_fts'));

/** Sections read and indexed at a time: a package of any size is indexed in bounded memory. */
const PAGE = 512;

/**
 * Drops a package's full-text index with its shadow tables, before anything reads them: SQLite's own integrity
 * check reads an FTS5 index too, and a package's index is never kept (see {@link rederivePackage}).
 */
export function dropIndex(database: Database.Database): void {
  runOnce(database, derivedQueries.dropIndex);
}

/**
 * Makes a package's derived data again from its rows, in place, on a private copy whose rows already keep the
 * format's rules (package-content.ts) and whose index {@link dropIndex} dropped: the full-text index is built from the
 * sections as stored (their document's title, their headings, their text), each section's `tokens` is counted from
 * its text and its own heading, and no page's inbound link count exceeds the number of other pages. One transaction: on an error the
 * copy is as it was, and the install refuses it.
 */
export async function rederivePackage(database: Database.Database): Promise<void> {
  if (!CREATE_INDEX) throw new TypeError('the package schema has no full-text index');
  const count = await loadTokenCounter();
  const sections = rows(vectorQueries.sectionsAfter).on(database);
  const setTokens = rows(derivedQueries.setTokens).on(database);
  database.transaction(() => {
    database.exec(CREATE_INDEX.sql);
    const indexChunk = rows(writeQueries.indexChunk).on(database);
    for (let after = 0; ; ) {
      const page = sections.all({ after, limit: PAGE });
      for (const section of page) {
        // Checked as a JSON array of strings by the content rules before this runs.
        const headings = JSON.parse(section.breadcrumb) as string[];
        indexChunk.run({
          id: section.id,
          title: section.title,
          ...indexHeadings(headings),
          body: indexText(markdownWords(section.content)),
        });
        // As a build counts them: the text, and the section's own heading, which every result of it carries.
        const heading = section.level === 0 ? undefined : headings.at(-1);
        setTokens.run({
          id: section.id,
          tokens: count(section.content) + (heading === undefined ? 0 : count(heading)),
        });
      }
      const last = page.at(-1);
      if (last === undefined || page.length < PAGE) break;
      after = last.id;
    }
    runOnce(database, derivedQueries.boundInboundLinks);
    runOnce(database, writeQueries.optimizeIndex);
  })();
}
