import { copyFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { vectorQueries, workQueries, workSchema } from './compiled-queries.js';
import { StoreError } from './errors.js';
import type { InstalledPackage } from './installed-package.js';
import { formatPackageId, type PackageId, packageFileName } from './names.js';
import type { PackageInfo } from './package-file.js';
import { createSchema } from './sqlite.js';
import { rows, runOnce, values } from './statement.js';
import type { PackageEmbedder } from './vector-search.js';
import { rememberWritten } from './written-here.js';

/** What an embedder is given for one section: where it sits, and what it says. */
export interface SectionText {
  readonly id: number;
  /** The document's title. */
  readonly title: string;
  /** Heading texts, outermost first. */
  readonly breadcrumb: readonly string[];
  readonly content: string;
}

/** One section's vector, as the embedder made it. */
export interface SectionVector {
  readonly id: number;
  readonly vector: Float32Array;
}

/** What a job asks of the store it works in (a PackageStore): the package's metadata, a place to write, an install. */
export interface VectorJobStore {
  readonly dir: string;
  reader(pkg: InstalledPackage): { info(): Promise<PackageInfo> };
  partialPath(id: PackageId): string;
  install(file: string, options: { move: boolean }): Promise<{ installed: InstalledPackage }>;
}

/**
 * Adds one vector per section to an installed package, in steps a process may
 * be killed between. Vectors are committed to a work file next to the package
 * (`.<name>@<version>.db.<embedder hash>.vectors`) after every step, so a new
 * job for the same package and embedder carries on where the last one
 * stopped. The package itself is only replaced by `finish`, atomically, with
 * a copy that holds every vector: until then it answers as it did, and no
 * reader ever sees a package with part of its vectors.
 *
 * The store knows nothing of models: it keeps the blobs and the id the
 * embedder gave itself.
 *
 * @example
 * const job = await store.vectorJob(pkg, { id: embedder.id, dimensions: embedder.dimensions });
 * for (let batch = job.next(32); batch.length > 0; batch = job.next(32)) {
 *   const vectors = await embedder.embed(batch.map(textOf), 'document');
 *   job.save(batch.map((s, i) => ({ id: s.id, vector: vectors[i] })));
 * }
 * await job.finish();
 */
export class VectorJob {
  /** The package being embedded. */
  readonly pkg: InstalledPackage;
  readonly embedder: PackageEmbedder;
  /** Sections in the package. */
  readonly total: number;
  readonly #store: VectorJobStore;
  readonly #workFile: string;
  readonly #package: Database.Database;
  readonly #work: Database.Database;
  #after: number;
  #done: number;

  private constructor(
    store: VectorJobStore,
    pkg: InstalledPackage,
    embedder: PackageEmbedder,
    handles: { workFile: string; package: Database.Database; work: Database.Database; total: number },
  ) {
    this.#store = store;
    this.pkg = pkg;
    this.embedder = embedder;
    this.#workFile = handles.workFile;
    this.#package = handles.package;
    this.#work = handles.work;
    this.total = handles.total;
    this.#done = 0;
    this.#after = 0;
    this.#readProgress();
  }

  /** How many sections have a vector saved, and the last of them. */
  #readProgress(): void {
    const saved = rows(workQueries.progress).on(this.#work).get();
    this.#done = saved?.done ?? 0;
    this.#after = saved?.after ?? 0;
  }

  /** @internal Use PackageStore.vectorJob. */
  static async open(store: VectorJobStore, pkg: InstalledPackage, embedder: PackageEmbedder): Promise<VectorJob> {
    if (!(Number.isInteger(embedder.dimensions) && embedder.dimensions > 0)) {
      throw new RangeError(`dimensions must be a whole number ≥ 1, got ${embedder.dimensions}`);
    }
    if (embedder.id.trim() === '') throw new RangeError('an embedder id must not be empty');
    // Validates the format too: an older package is refused here, as by any reader.
    const info = await store.reader(pkg).info();
    // Asked for here, not imported: a search never loads node:crypto (~2.5 ms of a `docs search` start).
    const { createHash } = process.getBuiltinModule('node:crypto');
    const hash = createHash('sha256').update(embedder.id).digest('hex').slice(0, 12);
    const workFile = path.join(store.dir, `${workFilePrefix(pkg)}${hash}.vectors`);
    const database = new Database(pkg.file, { readonly: true, fileMustExist: true });
    let work: Database.Database | undefined;
    try {
      const total = values(vectorQueries.chunkCount).on(database).get() ?? 0;
      // What the work was done for: a package rebuilt since (another build time or size) starts again.
      const owner = JSON.stringify({ package: formatPackageId(pkg), builtAt: info.builtAt, bytes: pkg.bytes, total });
      work = new Database(workFile);
      createSchema(work, workSchema);
      const job = rows(workQueries.job).on(work).get();
      if (!job || job.owner !== owner || job.embedder !== embedder.id || job.dimensions !== embedder.dimensions) {
        rows(workQueries.deleteJob).on(work).run();
        rows(workQueries.deleteVectors).on(work).run();
        rows(workQueries.insertJob).on(work).run({ owner, embedder: embedder.id, dimensions: embedder.dimensions });
      }
      return new VectorJob(store, pkg, embedder, { workFile, package: database, work, total });
    } catch (error) {
      database.close();
      work?.close();
      throw error;
    }
  }

  /** Sections saved so far, this run and earlier ones. */
  get done(): number {
    return this.#done;
  }

  /** The next `limit` sections without a vector, in package order; [] when all have one. */
  next(limit: number): SectionText[] {
    const sections = rows(vectorQueries.sectionsAfter)
      .on(this.#package)
      .all({ after: this.#after, limit: Math.max(0, Math.floor(limit)) });
    return sections.map((r) => ({
      id: r.id,
      title: r.title,
      breadcrumb: JSON.parse(r.breadcrumb) as string[],
      content: r.content,
    }));
  }

  /**
   * Commits vectors for the sections `next` gave, in one transaction: after a
   * crash, either all of them are kept or none.
   *
   * @throws {RangeError} for a vector of another dimension or with a value that is not finite.
   */
  save(vectors: readonly SectionVector[]): void {
    for (const { id, vector } of vectors) {
      if (vector.length !== this.embedder.dimensions) {
        throw new RangeError(
          `the vector for section ${id} has ${vector.length} dimensions; ${this.embedder.id} should give ${this.embedder.dimensions}`,
        );
      }
      if (!vector.every(Number.isFinite))
        throw new RangeError(`the vector for section ${id} holds a value that is not finite`);
    }
    const insert = rows(workQueries.saveVector).on(this.#work);
    const commit = this.#work.transaction(() => {
      for (const { id, vector } of vectors) insert.run({ id, vector: vectorBlob(vector) });
    });
    commit();
    this.#readProgress();
  }

  /**
   * Writes a copy of the package holding every vector and the embedder's id,
   * checks it, and installs it in place of the package in one rename; then
   * removes the work file. Closes the job.
   *
   * @throws {StoreError} `io` when sections are still missing a vector, or the
   *   package was replaced while the job ran (its work is then of no use).
   */
  async finish(): Promise<InstalledPackage> {
    if (this.#done !== this.total) {
      await this.close();
      throw new StoreError(
        'io',
        `${formatPackageId(this.pkg)}: ${this.total - this.#done} sections have no vector yet`,
      );
    }
    this.#package.close();
    this.#work.close();
    const partial = this.#store.partialPath(this.pkg);
    try {
      await copyFile(this.pkg.file, partial);
      const copy = new Database(partial);
      try {
        copy.pragma('journal_mode = OFF');
        copy.pragma('synchronous = OFF');
        const hadVectors = (values(vectorQueries.embedderCount).on(copy).get() ?? 0) > 0;
        runOnce(copy, vectorQueries.attachWork, { file: this.#workFile });
        copy.transaction(() => {
          runOnce(copy, vectorQueries.deleteVectors);
          runOnce(copy, vectorQueries.deleteEmbedder);
          runOnce(copy, vectorQueries.insertEmbedder, { id: this.embedder.id, dimensions: this.embedder.dimensions });
          runOnce(copy, vectorQueries.copyWorkVectors);
        })();
        runOnce(copy, vectorQueries.detachWork);
        // Vectors of another model leave free pages behind; a package is read-only from here, so compact it.
        if (hadVectors) runOnce(copy, vectorQueries.vacuum);
        copy.pragma('journal_mode = DELETE');
      } finally {
        copy.close();
      }
      const now = await stat(this.pkg.file).catch(() => undefined);
      if (!now || now.mtimeMs !== this.pkg.mtimeMs || now.size !== this.pkg.bytes) {
        throw new StoreError(
          'io',
          `${formatPackageId(this.pkg)} was replaced while its vectors were made; run the embedding again`,
        );
      }
      // Its rows are an installed package's and its vectors were made here: checked at install, not indexed again.
      rememberWritten(partial, 'derived');
      const { installed } = await this.#store.install(partial, { move: true });
      await removeWorkFile(this.#workFile);
      return installed;
    } finally {
      await rm(partial, { force: true });
    }
  }

  /** Closes the job, keeping its work for the next one. */
  async close(): Promise<void> {
    if (this.#package.open) this.#package.close();
    if (this.#work.open) this.#work.close();
  }
}

/** The bytes stored for a vector: its float32 values, little-endian (the byte order of every platform Node runs on). */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** What every work file of `pkg` is named with: one per embedder id follows it (12 hex digits, `.vectors`). */
function workFilePrefix(pkg: PackageId): string {
  return `.${packageFileName(pkg)}.`;
}

const WORK_FILE_TAIL = /^[0-9a-f]{12}\.vectors(?:-journal)?$/;

/**
 * Removes the work files vector jobs of `pkg` left in `dir` (a `docs embed` killed midway, or one of another
 * embedder): called when the package is removed, whose work nothing can finish any more.
 */
export async function removeWorkFiles(dir: string, pkg: PackageId): Promise<void> {
  const prefix = workFilePrefix(pkg);
  const entries = await readdir(dir).catch(() => [] as string[]);
  const work = entries.filter((e) => e.startsWith(prefix) && WORK_FILE_TAIL.test(e.slice(prefix.length)));
  await Promise.all(work.map((e) => rm(path.join(dir, e), { force: true })));
}

async function removeWorkFile(file: string): Promise<void> {
  await rm(file, { force: true });
  await rm(`${file}-journal`, { force: true });
}
