import { damagedPackage } from './damage.js';
import type { StoreError } from './errors.js';

// The fields of a package's chunks a search hit carries, read once and kept: the same sections answer question after
// question, and a package file never changes once installed (a reader of a replaced file is a new reader).

/** A chunk's stored fields, as a search hit carries them beside its score. */
export interface ChunkFields {
  readonly id: number;
  readonly documentId: number;
  readonly ord: number;
  readonly path: string;
  readonly title: string;
  readonly breadcrumb: readonly string[];
  readonly level: number;
  readonly tokens: number;
  /** How many other documents of the package link to the chunk's document. */
  readonly inboundLinks: number;
}

/**
 * A chunk's row as read: id, document_id, ord, path, title, breadcrumb, level, tokens, inbound_links. The values
 * after the ids are unknown until checked: the file may have been changed since it was installed.
 */
export type ChunkRow = readonly [number, number, unknown, unknown, unknown, unknown, unknown, unknown, unknown];

/**
 * The chunks' fields readers have returned, oldest first, up to a number of chunks: one budget for every reader
 * that shares it (~750 bytes a chunk), however many packages are open, since a search over hundreds of libraries
 * opens many readers but finds few sections in most. Dropping the oldest first, a cache smaller than what a
 * server's run of questions reads again misses every time: the 60 questions of the eval read ~4,500 chunks over 12
 * libraries, and at 4,096 spent a sixth of their time reading fields again. At 16,384, a search over 100 libraries
 * held ~40 MB more than at 8,192.
 *
 * A chunk is kept the second time it is read lately (while it is among the last `size` to `2 × size` chunks read and
 * not kept), as a phrase list is made the second time it is asked for (phrase-scores.ts): a search over more
 * libraries than the cache holds reads each of their chunks once per question, and kept at first sight they replaced
 * every chunk kept with ones let go of before they were read again, each living long enough to be collected with
 * the old generation of the JavaScript heap, and with it the fields of nearly every chunk read (1,000 synthetic
 * libraries: ~160 MB of fields a run of 20 questions; the heap's peak 190–220 → 136–196 MB, docs/benchmarks.md).
 */
export class ChunkFieldsCache {
  /** By {@link chunkKey}, oldest first (a Map iterates in insertion order). */
  readonly #entries = new Map<number, ChunkFields>();
  readonly #size: number;
  /** Keys of chunks read and not kept, the newer generation first, each up to #size keys. */
  #readLately = new Set<number>();
  #readBefore = new Set<number>();

  /** @param size - how many chunks' fields to keep at most (0: none). */
  constructor(size: number) {
    this.#size = size;
  }

  /** The fields of chunk `id` of reader `reader`, if kept. */
  get(reader: number, id: number): ChunkFields | undefined {
    const key = chunkKey(reader, id);
    return key === undefined ? undefined : this.#entries.get(key);
  }

  /** Keeps a chunk's fields if it was read lately (see the class), letting the oldest go when full. */
  set(reader: number, fields: ChunkFields): void {
    const key = chunkKey(reader, fields.id);
    if (key === undefined || this.#size === 0) return;
    if (!this.#readLately.has(key) && !this.#readBefore.has(key)) {
      this.#remember(key);
      return;
    }
    if (this.#entries.size >= this.#size) this.#entries.delete(this.#entries.keys().next().value as number);
    this.#entries.set(key, fields);
  }

  /** Lets go of every chunk, and of which were read lately. */
  clear(): void {
    this.#entries.clear();
    this.#readLately.clear();
    this.#readBefore.clear();
  }

  /** How many chunks' fields are kept now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Remembers a chunk read and not kept, forgetting the older generation when the newer is full. */
  #remember(key: number): void {
    if (this.#readLately.size >= this.#size) {
      this.#readBefore = this.#readLately;
      this.#readLately = new Set();
    }
    this.#readLately.add(key);
  }
}

/** Reader numbers a {@link ChunkFieldsCache} tells apart: keys stay exact doubles below 2^21 × 2^32. */
export const CHUNK_READERS = 2 ** 21;

/** A chunk's key: its reader's number and its id, as one number exact below 2^53; undefined beyond. */
function chunkKey(reader: number, id: number): number | undefined {
  return Number.isInteger(id) && id >= 0 && id < 2 ** 32 ? reader * 2 ** 32 + id : undefined;
}

/**
 * The fields of each chunk id (unknown ids are absent): from `cache` where it holds them, the rest read in one go
 * with `read`, checked, and kept in `cache`. `label` names the package in what a damaged row throws.
 */
export function chunkFields(
  ids: readonly number[],
  cache: ChunkFieldsCache,
  reader: number,
  label: string,
  read: (missing: readonly number[]) => readonly ChunkRow[],
): Map<number, ChunkFields> {
  const found = new Map<number, ChunkFields>();
  const missing: number[] = [];
  for (const id of ids) {
    const fields = cache.get(reader, id);
    if (fields) found.set(id, fields);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  for (const row of read(missing)) {
    const fields = checkedFields(row, label);
    found.set(fields.id, fields);
    cache.set(reader, fields);
  }
  return found;
}

// Installs check every row (package-content.ts); these checks guard the rows a search
// reads against a file changed after it was installed, so bad data is named as such
// rather than surfacing as a ranking function's complaint about its arguments.

function checkedFields(
  [id, documentId, ord, path, title, breadcrumb, level, tokens, inboundLinks]: ChunkRow,
  label: string,
): ChunkFields {
  return {
    id,
    documentId,
    ord: wholeNumber(ord, 0, 'ord', id, label),
    path: checkedText(path, 'path', id, label),
    title: checkedText(title, 'title', id, label),
    breadcrumb: Object.freeze(checkedBreadcrumb(breadcrumb, id, label)),
    level: wholeNumber(level, 0, 'level', id, label, 6),
    tokens: wholeNumber(tokens, 0, 'tokens', id, label),
    inboundLinks: wholeNumber(inboundLinks, 0, 'inbound_links', id, label),
  };
}

/** The error for a chunk whose stored `column` breaks the format, naming the package by `label`. */
function damaged(problem: string, chunk: number, label: string): StoreError {
  return damagedPackage(label, `chunk ${chunk}: ${problem}`);
}

function wholeNumber(
  value: unknown,
  min: number,
  column: string,
  chunk: number,
  label: string,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw damaged(`${column} is ${String(value)}`, chunk, label);
  }
  return value;
}

/** A chunk's stored `column` when it is text; a `damaged-package` StoreError otherwise. */
export function checkedText(value: unknown, column: string, chunk: number, label: string): string {
  if (typeof value !== 'string') throw damaged(`${column} is not text`, chunk, label);
  return value;
}

function checkedBreadcrumb(value: unknown, chunk: number, label: string): string[] {
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((h) => typeof h === 'string')) {
    throw damaged('breadcrumb is not a JSON array of strings', chunk, label);
  }
  return parsed;
}
