import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';
import { assertValidName, assertValidVersion } from './names.js';
import { partialTag } from './partial-files.js';
import { createPackageSchema, PACKAGE_FORMAT_VERSION } from './schema.js';
import { openPackageForWriting } from './sqlite.js';

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
  const { sql } = await import('kysely');
  const db = await openPackageForWriting(partial);
  let closed = false;
  try {
    // A build is all or nothing (the file is renamed only when complete), so
    // durability during the build buys nothing: skip the journal and syncs.
    await sql`PRAGMA journal_mode = OFF`.execute(db);
    await sql`PRAGMA synchronous = OFF`.execute(db);
    await createPackageSchema(db);
    let documentCount = 0;
    let chunkCount = 0;
    let tokenCount = 0;
    // Inbound links per path, counted once per linking document; written when every path is known.
    const inbound = new Map<string, number>();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('package')
        .values({
          name: meta.name,
          version: meta.version,
          description: meta.description ?? '',
          source: meta.source ?? '',
          built_at: new Date().toISOString(),
          format_version: PACKAGE_FORMAT_VERSION,
        })
        .execute();
      for await (const doc of documents) {
        options.signal?.throwIfAborted();
        documentCount += 1;
        const documentId = documentCount;
        for (const target of new Set(doc.links ?? [])) {
          if (target !== doc.path) inbound.set(target, (inbound.get(target) ?? 0) + 1);
        }
        await trx
          .insertInto('documents')
          .values({ id: documentId, path: doc.path, title: doc.title, content: doc.content })
          .execute();
        const headingsOf = (chunk: ChunkInput) => chunk.breadcrumb.join(' ');
        const headingOf = (chunk: ChunkInput) => chunk.breadcrumb.at(-1) ?? '';
        // Multi-row inserts in batches stay well under SQLite's variable limit.
        for (let start = 0; start < doc.chunks.length; start += 200) {
          const batch = doc.chunks.slice(start, start + 200);
          const rows = batch.map((chunk, i) => ({
            id: chunkCount + i + 1,
            document_id: documentId,
            ord: start + i,
            breadcrumb: JSON.stringify(chunk.breadcrumb),
            level: chunk.level,
            content: chunk.content,
            tokens: chunk.tokens,
          }));
          await trx.insertInto('chunks').values(rows).execute();
          const ftsRows = sql.join(
            batch.map(
              (chunk, i) =>
                sql`(${chunkCount + i + 1}, ${doc.title}, ${headingsOf(chunk)}, ${headingOf(chunk)}, ${chunk.indexText ?? chunk.content})`,
            ),
          );
          await sql`INSERT INTO chunks_fts (rowid, title, headings, heading, body) VALUES ${ftsRows}`.execute(trx);
          chunkCount += batch.length;
          for (const chunk of batch) tokenCount += chunk.tokens;
        }
      }
      // A path no document has matches no row: a link out of the package changes nothing.
      for (const [target, count] of inbound) {
        await trx.updateTable('documents').set({ inbound_links: count }).where('path', '=', target).execute();
      }
    });
    options.signal?.throwIfAborted();
    // Merge the index b-trees once: smaller file, faster queries, and the file is read-only from here on.
    await sql`INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')`.execute(db);
    await sql`PRAGMA journal_mode = DELETE`.execute(db);
    await db.destroy();
    closed = true;
    await rename(partial, file);
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
