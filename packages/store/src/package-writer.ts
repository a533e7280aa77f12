import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { packageSchema, writeQueries } from './compiled-queries.js';
import { StoreError } from './errors.js';
import { indexHeadings } from './index-text.js';
import { fitBreadcrumb, fitLine } from './lines.js';
import { assertFileNameFits, assertValidName, assertValidVersion } from './names.js';
import { partialName } from './partial-files.js';
import { MAX_LINE, PACKAGE_FORMAT_VERSION } from './schema.js';
import { createSchema } from './sqlite.js';
import { rows } from './statement.js';
import { rememberWritten } from './written-here.js';

/** What a package says about itself. */
export interface PackageMeta {
  readonly name: string;
  readonly version: string;
  /** One line about the library. @default "" */
  readonly description?: string;
  /** Where the docs came from: a folder, a URL, a repository and commit. @default "" */
  readonly source?: string;
}

/** One chunk (section or part of one) of a document. */
export interface ChunkInput {
  /** Heading texts, outermost first; [] before the first heading. */
  readonly breadcrumb: readonly string[];
  /** Level of the chunk's own heading; 0 before the first heading. */
  readonly level: number;
  /** What a reader is shown. */
  readonly content: string;
  /** Token count of `content`, computed by the builder. */
  readonly tokens: number;
  /** The text to index for the body column. @default content */
  readonly indexText?: string;
}

/** One source document and its chunks, in reading order. */
export interface DocumentInput {
  /** Relative to the docs root, `/`-separated; unique within the package. */
  readonly path: string;
  readonly title: string;
  /** The whole page. */
  readonly content: string;
  readonly chunks: readonly ChunkInput[];
  /**
   * Paths (as in `path`) of the other documents of the package this page
   * links to. Each document's inbound link count is stored, and search takes a
   * much-linked page as a central one. Links to itself or to paths the package
   * does not hold are ignored. @default []
   */
  readonly links?: readonly string[];
}

/** Totals of a written package. */
export interface WriteSummary {
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
  /** Size of the package file. */
  readonly bytes: number;
}

export interface WritePackageOptions {
  /** Stops the build between documents; nothing is left behind. */
  readonly signal?: AbortSignal;
}

/**
 * Writes a package file from a stream of documents. The file is written under
 * a temporary name next to `file` and renamed into place only when complete,
 * so a crash or an abort never leaves a half-written package at `file`.
 *
 * @example
 * await writePackage('/tmp/demo@1.0.0.db', { name: 'demo', version: '1.0.0' }, [
 *   { path: 'intro.md', title: 'Intro', content: 'Hello', chunks: [{ breadcrumb: ['Intro'], level: 1, content: 'Hello', tokens: 1 }] },
 * ]);
 */
export async function writePackage(
  file: string,
  meta: PackageMeta,
  documents: AsyncIterable<DocumentInput> | Iterable<DocumentInput>,
  options: WritePackageOptions = {},
): Promise<WriteSummary> {
  assertValidName(meta.name);
  assertValidVersion(meta.version);
  assertFileNameFits(meta);
  // The writer's pid in the name lets a later store operation remove it if this process is killed.
  const partial = path.join(path.dirname(file), partialName(path.basename(file)));
  const database = new Database(partial);
  let closed = false;
  try {
    // A build is all or nothing (the file is renamed only when complete), so
    // durability during the build buys nothing: skip the journal and syncs.
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    createSchema(database, packageSchema);
    let documentCount = 0;
    let chunkCount = 0;
    let tokenCount = 0;
    // Inbound links per path, counted once per linking document; written when every path is known.
    const inbound = new Map<string, number>();
    // Prepared once and run per row, as Kysely compiled them ahead of time: building each insert
    // through Kysely compiled and prepared it anew every time, which cost 2.5x the whole write (docs/benchmarks.md).
    const insertDocument = rows(writeQueries.insertDocument).on(database);
    const insertChunk = rows(writeQueries.insertChunk).on(database);
    const indexChunk = rows(writeQueries.indexChunk).on(database);
    const setInbound = rows(writeQueries.setInboundLinks).on(database);
    // One transaction around an async stream: BEGIN/COMMIT by hand, since
    // better-sqlite3's transaction() cannot span an await.
    database.exec('BEGIN');
    try {
      rows(writeQueries.insertPackage)
        .on(database)
        .run({
          name: meta.name,
          version: meta.version,
          description: meta.description ?? '',
          source: meta.source ?? '',
          builtAt: new Date().toISOString(),
          formatVersion: PACKAGE_FORMAT_VERSION,
        });
      for await (const doc of documents) {
        options.signal?.throwIfAborted();
        documentCount += 1;
        const documentId = documentCount;
        for (const target of new Set(doc.links ?? [])) {
          if (target !== doc.path) inbound.set(target, (inbound.get(target) ?? 0) + 1);
        }
        const title = fitLine(doc.title, MAX_LINE);
        insertDocument.run({ id: documentId, path: doc.path, title, content: doc.content });
        for (const [ord, chunk] of doc.chunks.entries()) {
          chunkCount += 1;
          insertChunk.run({
            id: chunkCount,
            documentId,
            ord,
            breadcrumb: JSON.stringify(fitBreadcrumb(chunk.breadcrumb)),
            level: chunk.level,
            content: chunk.content,
            tokens: chunk.tokens,
          });
          indexChunk.run({
            id: chunkCount,
            title,
            ...indexHeadings(chunk.breadcrumb),
            body: chunk.indexText ?? chunk.content,
          });
          tokenCount += chunk.tokens;
        }
      }
      // A path no document has matches no row: a link out of the package changes nothing.
      for (const [target, count] of inbound) setInbound.run({ count, path: target });
      database.exec('COMMIT');
    } catch (error) {
      if (database.inTransaction) database.exec('ROLLBACK');
      throw error;
    }
    options.signal?.throwIfAborted();
    // Merge the index b-trees once: smaller file, faster queries, and the file is read-only from here on.
    rows(writeQueries.optimizeIndex).on(database).run();
    database.pragma('journal_mode = DELETE');
    database.close();
    closed = true;
    await rename(partial, file);
    rememberWritten(file);
    const { size } = await stat(file);
    return { documents: documentCount, chunks: chunkCount, tokens: tokenCount, bytes: size };
  } catch (error) {
    if (!closed) database.close();
    await rm(partial, { force: true });
    if (error instanceof StoreError || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw new StoreError('io', `could not write package ${meta.name}@${meta.version}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
