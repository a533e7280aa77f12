import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';
import { assertValidName, assertValidVersion } from './names.js';
import { partialTag } from './partial-files.js';
import { createPackageSchema, PACKAGE_FORMAT_VERSION } from './schema.js';
import { openPackageForWriting } from './sqlite.js';
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
  // The writer's pid in the name lets a later store operation remove it if this process is killed.
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${partialTag()}.partial`);
  const { db, database } = await openPackageForWriting(partial);
  let closed = false;
  try {
    // A build is all or nothing (the file is renamed only when complete), so
    // durability during the build buys nothing: skip the journal and syncs.
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    await createPackageSchema(db);
    let documentCount = 0;
    let chunkCount = 0;
    let tokenCount = 0;
    // Inbound links per path, counted once per linking document; written when every path is known.
    const inbound = new Map<string, number>();
    // Prepared once and run per row: building each insert through Kysely compiled and
    // prepared it anew every time, which cost 2.5x the whole write (docs/benchmarks.md).
    const insertDocument = database.prepare('INSERT INTO documents (id, path, title, content) VALUES (?, ?, ?, ?)');
    const insertChunk = database.prepare(
      'INSERT INTO chunks (id, document_id, ord, breadcrumb, level, content, tokens) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const indexChunk = database.prepare(
      'INSERT INTO chunks_fts (rowid, title, headings, heading, body) VALUES (?, ?, ?, ?, ?)',
    );
    const setInbound = database.prepare('UPDATE documents SET inbound_links = ? WHERE path = ?');
    // One transaction around an async stream: BEGIN/COMMIT by hand, since
    // better-sqlite3's transaction() cannot span an await.
    database.exec('BEGIN');
    try {
      database
        .prepare(
          'INSERT INTO package (name, version, description, source, built_at, format_version) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          meta.name,
          meta.version,
          meta.description ?? '',
          meta.source ?? '',
          new Date().toISOString(),
          PACKAGE_FORMAT_VERSION,
        );
      for await (const doc of documents) {
        options.signal?.throwIfAborted();
        documentCount += 1;
        const documentId = documentCount;
        for (const target of new Set(doc.links ?? [])) {
          if (target !== doc.path) inbound.set(target, (inbound.get(target) ?? 0) + 1);
        }
        insertDocument.run(documentId, doc.path, doc.title, doc.content);
        for (const [ord, chunk] of doc.chunks.entries()) {
          chunkCount += 1;
          insertChunk.run(
            chunkCount,
            documentId,
            ord,
            JSON.stringify(chunk.breadcrumb),
            chunk.level,
            chunk.content,
            chunk.tokens,
          );
          indexChunk.run(
            chunkCount,
            doc.title,
            chunk.breadcrumb.join(' '),
            chunk.breadcrumb.at(-1) ?? '',
            chunk.indexText ?? chunk.content,
          );
          tokenCount += chunk.tokens;
        }
      }
      // A path no document has matches no row: a link out of the package changes nothing.
      for (const [target, count] of inbound) setInbound.run(count, target);
      database.exec('COMMIT');
    } catch (error) {
      if (database.inTransaction) database.exec('ROLLBACK');
      throw error;
    }
    options.signal?.throwIfAborted();
    // Merge the index b-trees once: smaller file, faster queries, and the file is read-only from here on.
    database.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')");
    database.pragma('journal_mode = DELETE');
    await db.destroy();
    closed = true;
    await rename(partial, file);
    rememberWritten(file);
    const { size } = await stat(file);
    return { documents: documentCount, chunks: chunkCount, tokens: tokenCount, bytes: size };
  } catch (error) {
    if (!closed) await db.destroy().catch(() => {});
    await rm(partial, { force: true });
    if (error instanceof StoreError || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw new StoreError('io', `could not write package ${meta.name}@${meta.version}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
