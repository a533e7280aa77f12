import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { DOC_EXTENSIONS, findDocFiles, type SkippedFile } from '@docs/sources';
import { type DocumentInput, type PackageMeta, type WriteSummary, writePackage } from '@docs/store';
import { IngestError } from './errors.js';
import { processFiles } from './file-pool.js';
import { createLinkResolver } from './links.js';

/** How far a build has got; reported after each file. */
export interface BuildProgress {
  readonly files: number;
  readonly totalFiles: number;
  readonly sections: number;
  /** Source bytes read so far. */
  readonly bytes: number;
  readonly elapsedMs: number;
}

export interface BuildOptions extends PackageMeta {
  /** The documentation folder. */
  readonly root: string;
  /** Where to write the package file (written atomically). */
  readonly output: string;
  /** Sections longer than this are split at paragraph boundaries. @default 800 */
  readonly maxSectionTokens?: number;
  /** Sections smaller than this are folded into their parent section, heading kept. 0 keeps every section. @default 30 */
  readonly minSectionTokens?: number;
  /**
   * Worker threads that parse files; 0 parses on the calling thread. @default the process's pool when one runs, else
   * one worker per 2 MiB of source up to the cores, and none below two
   */
  readonly workers?: number;
  /** Files larger than this are skipped and reported. @default 20 MiB */
  readonly maxFileBytes?: number;
  readonly onProgress?: (progress: BuildProgress) => void;
  readonly signal?: AbortSignal;
}

/** What a build produced. */
export interface BuildSummary extends WriteSummary {
  readonly name: string;
  readonly version: string;
  readonly output: string;
  /** Bytes of documentation read. */
  readonly sourceBytes: number;
  readonly skipped: readonly SkippedFile[];
  /** Sections dropped because an identical one was already indexed. */
  readonly duplicates: number;
  readonly elapsedMs: number;
}

/**
 * Builds a documentation package from a folder of documentation files
 * (markdown, MDX, reStructuredText, AsciiDoc, HTML, plain text; other formats
 * are converted to markdown first): each file is parsed into sections (h1–h3, with breadcrumbs), token
 * counts are computed, and the package file is written in one streaming pass,
 * so memory holds one document at a time.
 *
 * @example
 * const summary = await buildPackage({ root: './docs', name: 'mylib', version: '1.2.0', output: './mylib@1.2.0.db' });
 */
export async function buildPackage(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const rootInfo = await stat(options.root).catch(() => undefined);
  if (!rootInfo) throw new IngestError('not-found', `folder not found: ${options.root}`);
  if (!rootInfo.isDirectory()) throw new IngestError('not-a-directory', `not a folder: ${options.root}`);
  const files = await findDocFiles(options.root);
  if (files.length === 0) {
    throw new IngestError(
      'no-documents',
      `no documentation files (${DOC_EXTENSIONS.join(', ')}) under ${options.root}`,
    );
  }
  const maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
  const skipped: SkippedFile[] = [];
  const seenSections = new Set<string>();
  let duplicates = 0;
  let sections = 0;
  let bytes = 0;
  let done = 0;
  // Every page is known before the first is parsed, so each page's links resolve as it is written.
  const linkTargets = createLinkResolver(files.map((file) => file.relativePath));

  async function* documents(): AsyncGenerator<DocumentInput> {
    const processed = processFiles(files, {
      ...(options.maxSectionTokens === undefined ? {} : { maxSectionTokens: options.maxSectionTokens }),
      minSectionTokens: options.minSectionTokens ?? 30,
      maxFileBytes,
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    for await (const { file, result } of processed) {
      options.signal?.throwIfAborted();
      done += 1;
      bytes += result.bytes;
      // Duplicates are found across the whole package, so here, in file order.
      const chunks =
        result.kind === 'document'
          ? result.chunks.filter((chunk) => {
              const key = createHash('sha1').update(chunk.content).digest('base64');
              if (seenSections.has(key)) {
                duplicates += 1;
                return false;
              }
              seenSections.add(key);
              return true;
            })
          : [];
      if (result.kind === 'skipped') {
        skipped.push({ path: file.relativePath, reason: result.reason });
      } else if (chunks.length === 0) {
        skipped.push({ path: file.relativePath, reason: 'no text to index' });
      } else {
        sections += chunks.length;
        yield {
          path: file.relativePath,
          title: result.title,
          content: result.content,
          chunks,
          links: linkTargets(file.relativePath, result.links),
        };
      }
      options.onProgress?.({
        files: done,
        totalFiles: files.length,
        sections,
        bytes,
        elapsedMs: performance.now() - started,
      });
    }
  }

  const meta: PackageMeta = {
    name: options.name,
    version: options.version,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };
  const written = await writePackage(
    options.output,
    meta,
    documents(),
    options.signal ? { signal: options.signal } : {},
  );
  if (written.chunks === 0) {
    throw new IngestError('no-documents', `no text to index in the ${files.length} files under ${options.root}`);
  }
  return {
    ...written,
    name: options.name,
    version: options.version,
    output: options.output,
    sourceBytes: bytes,
    skipped,
    duplicates,
    elapsedMs: performance.now() - started,
  };
}
