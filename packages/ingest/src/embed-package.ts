import type { Embedder } from '@docs/embed';
import { type InstalledPackage, type PackageStore, sectionPassage } from '@docs/store';

/** How far an embedding has got; reported after each batch. */
export interface EmbedProgress {
  /** Sections with a vector, from this run and any interrupted one before it. */
  readonly done: number;
  readonly total: number;
  /** Sections embedded by this run. */
  readonly embedded: number;
  readonly elapsedMs: number;
}

export interface EmbedPackageOptions {
  /** Sections per call to the embedder, and per commit: what a crash can lose at most. @default 32 */
  readonly batchSize?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: EmbedProgress) => void;
}

/** What an embedding did. */
export interface EmbedSummary {
  /** The package as installed now (replaced by the copy holding the vectors). */
  readonly installed: InstalledPackage;
  /** The embedder's id, now recorded in the package. */
  readonly embedder: string;
  readonly total: number;
  /** Sections embedded by this run (0 when the package already had this embedder's vectors). */
  readonly embedded: number;
  /** Sections an interrupted run had embedded already, carried on from. */
  readonly resumed: number;
  readonly elapsedMs: number;
}

/**
 * Adds a vector per section to an installed package, from its stored
 * sections (nothing is parsed again), each read as `sectionPassage` gives it.
 * Batches are committed as they come, so a run stopped by a signal, Ctrl-C or
 * a crash loses at most one batch, and the next run carries on; the package
 * keeps answering as before and is replaced, whole, only at the end. A
 * package that already has this embedder's vectors is left as it is.
 *
 * @example
 * const embedder = await openEmbedder('./models/bge-small-en-v1.5');
 * await embedPackage(store, pkg, embedder, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
 */
export async function embedPackage(
  store: PackageStore,
  pkg: InstalledPackage,
  embedder: Pick<Embedder, 'id' | 'dimensions' | 'embed'>,
  options: EmbedPackageOptions = {},
): Promise<EmbedSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 32;
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) {
    throw new RangeError(`batchSize must be a whole number ≥ 1, got ${batchSize}`);
  }
  const reader = store.reader(pkg);
  if ((await reader.embedder())?.id === embedder.id) {
    const { chunks } = await reader.stats();
    return { installed: pkg, embedder: embedder.id, total: chunks, embedded: 0, resumed: chunks, elapsedMs: 0 };
  }
  const job = await store.vectorJob(pkg, { id: embedder.id, dimensions: embedder.dimensions });
  const resumed = job.done;
  let embedded = 0;
  const elapsedMs = () => performance.now() - started;
  try {
    options.onProgress?.({ done: job.done, total: job.total, embedded, elapsedMs: elapsedMs() });
    for (let batch = job.next(batchSize); batch.length > 0; batch = job.next(batchSize)) {
      options.signal?.throwIfAborted();
      const vectors = await embedder.embed(
        batch.map(sectionPassage),
        'document',
        options.signal ? { signal: options.signal } : {},
      );
      if (vectors.length !== batch.length) {
        throw new RangeError(`${embedder.id} gave ${vectors.length} vectors for ${batch.length} sections`);
      }
      job.save(batch.map((section, i) => ({ id: section.id, vector: vectors[i] as Float32Array })));
      embedded += batch.length;
      options.onProgress?.({ done: job.done, total: job.total, embedded, elapsedMs: elapsedMs() });
    }
    options.signal?.throwIfAborted();
    const installed = await job.finish();
    return { installed, embedder: embedder.id, total: job.total, embedded, resumed, elapsedMs: elapsedMs() };
  } finally {
    await job.close();
  }
}
