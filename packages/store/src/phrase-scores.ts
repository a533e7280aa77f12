// BM25 over an OR of phrases, from one list per phrase.
//
// FTS5's bm25() is a sum over the query's phrases, in the order they appear, of a share that depends only on that
// phrase and the row (the phrase's IDF, its weighted count in the row, the row's length):
//
//   score = 0.0;  for each phrase i: score += idf[i] * (f[i] * (k1 + 1)) / (f[i] + k1 * (1 - b + b * D / avgdl))
//
// A phrase the row lacks adds exactly 0. So the score of a row for `"a" OR "b" OR "c"` is the shares FTS5 gives it
// for `"a"`, `"b"` and `"c"` asked alone, added in that order: the same operations on the same doubles, so the same
// bits. A package file never changes once installed, so each phrase's list is asked for once and kept; what a
// question costs is then adding a few lists, not scoring every row holding any of its words again (FTS5 spends about
// a microsecond a row on that, and a question of common words holds thousands).

import { StoreError } from './errors.js';
import { type ColumnWeights, ftsString } from './fts-query.js';

/** One phrase's rows in a package, ascending, and the share of each row's BM25 that comes from the phrase. */
export interface PhraseRows {
  /** Rowids as doubles: exact for any rowid SQLite allows a package file to hold. */
  readonly rows: Float64Array;
  /** Per column weights (as `weightsKey` names them, only those asked for): each row's share of its BM25. */
  readonly shares: Map<string, Float64Array>;
}

/** How a set of column weights is named in a {@link PhraseRows}. */
export function weightsKey(weights: Required<ColumnWeights>): string {
  return `${weights.title},${weights.headings},${weights.heading},${weights.body}`;
}

/**
 * The `limit` best rows of the sum of the lists' shares (the lists in phrase order), best first, ties by row:
 * the rows and order FTS5 gives `ORDER BY -bm25(...) DESC LIMIT limit` for the OR of the phrases, ties by rowid.
 */
export function topRows(
  lists: readonly { rows: Float64Array; shares: Float64Array }[],
  limit: number,
): Array<[number, number]> {
  if (limit <= 0) return [];
  const sums = summed(lists);
  // The best `limit` so far, worst last: most rows fall short of it and are looked at once.
  const best: Array<[number, number]> = [];
  for (const [row, score] of sums) {
    if (best.length === limit) {
      const worst = best[limit - 1] as [number, number];
      if (score < worst[1] || (score === worst[1] && row > worst[0])) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0) {
      const [r, s] = best[at - 1] as [number, number];
      if (s > score || (s === score && r < row)) break;
      at--;
    }
    best.splice(at, 0, [row, score]);
  }
  return best;
}

/** Rows below this are added up in a reused array (8 bytes a row); a package's chunk ids count from 1. */
const DENSE_ROWS = 2 ** 18;
let dense = new Float64Array(1024);
let stamps = new Uint32Array(1024);
let generation = 0;

/**
 * Each row's sum of shares over the lists, rows in the order first met. Added list by list, so each row's sum is
 * made in phrase order, as FTS5 makes it.
 */
function summed(lists: readonly { rows: Float64Array; shares: Float64Array }[]): Iterable<[number, number]> {
  let top = 0;
  for (const { rows } of lists) if (rows.length > 0) top = Math.max(top, rows[rows.length - 1] as number);
  if (top >= DENSE_ROWS || lists.some(({ rows }) => rows.length > 0 && !((rows[0] as number) >= 0))) {
    const sums = new Map<number, number>();
    for (const { rows, shares } of lists) {
      // FTS5 starts each row's score at 0.0; 0.0 + x is x, bit for bit.
      for (let i = 0; i < rows.length; i++)
        sums.set(rows[i] as number, (sums.get(rows[i] as number) ?? 0) + (shares[i] as number));
    }
    return sums;
  }
  if (dense.length <= top) {
    const size = Math.min(DENSE_ROWS, 2 ** Math.ceil(Math.log2(top + 1)));
    dense = new Float64Array(size);
    stamps = new Uint32Array(size);
  }
  // A row whose stamp is not this call's has not been met yet: nothing to clear between calls.
  generation = generation === 0xffffffff ? 1 : generation + 1;
  if (generation === 1) stamps.fill(0);
  const met: number[] = [];
  for (const { rows, shares } of lists) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as number;
      if (stamps[row] !== generation) {
        stamps[row] = generation;
        met.push(row);
        dense[row] = shares[i] as number;
      } else dense[row] = (dense[row] as number) + (shares[i] as number);
    }
  }
  return met.map((row) => [row, dense[row] as number]);
}

/** How many rows hold any of the lists' rows: the size of their union. */
export function unionSize(lists: readonly Float64Array[]): number {
  if (lists.length === 1) return (lists[0] as Float64Array).length;
  const seen = new Set<number>();
  for (const rows of lists) for (const row of rows) seen.add(row);
  return seen.size;
}

/** Whether the ascending `rows` hold `row`. */
export function holds(rows: Float64Array, row: number): boolean {
  return positionOf(rows, row) >= 0;
}

/** Where the ascending `rows` hold `row`, or -1. */
function positionOf(rows: Float64Array, row: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = rows[mid] as number;
    if (at === row) return mid;
    if (at < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The sum of shares over the lists (in phrase order, as FTS5 adds them) of each of `rows` that a list holds, as
 * [row, score]: what `-bm25(...)` gives those rows for the OR of the phrases, found in the kept lists instead of by
 * matching the whole index again. A row no list holds does not match and is left out.
 */
export function rowsAmong(
  lists: readonly { rows: Float64Array; shares: Float64Array }[],
  rows: readonly number[],
): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const row of rows) {
    let score: number | undefined;
    for (const list of lists) {
      const at = positionOf(list.rows, row);
      if (at < 0) continue;
      // FTS5 starts each row's score at 0.0; 0.0 + x is x, bit for bit (as summed starts it).
      score = score === undefined ? (list.shares[at] as number) : score + (list.shares[at] as number);
    }
    if (score !== undefined) found.push([row, score]);
  }
  return found;
}

/**
 * Phrase lists of every open reader, by reader and phrase, least recently used first: one budget for the process
 * (8 bytes a row, and 8 more per weighting), however many packages are open.
 */
export class PhraseCache {
  readonly #entries = new Map<string, PhraseRows>();
  readonly #budget: number;
  #size = 0;

  /** @param budget how many bytes of lists to keep at most. */
  constructor(budget: number) {
    this.#budget = budget;
  }

  get(key: string): PhraseRows | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      // Most recently used goes last: a Map iterates in insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps `entry` (or makes room for its grown size) unless it alone would take more than an eighth of the budget. */
  put(key: string, entry: PhraseRows): void {
    const bytes = bytesOf(entry);
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#size -= bytesOf(old);
    }
    if (bytes > this.#budget / 8) return;
    this.#entries.set(key, entry);
    this.#size += bytes;
    for (const [oldest, kept] of this.#entries) {
      if (this.#size <= this.#budget) break;
      this.#entries.delete(oldest);
      this.#size -= bytesOf(kept);
    }
  }

  /**
   * Whether a new list (at most an eighth of the budget) fits without letting another go. A full cache is not
   * made room in: over hundreds of libraries, lists let go before their next use would be made again and again,
   * each costing more than the OR query it replaces, while a server's recurring words fill a fraction of it (the
   * 60 dev questions over 12 libraries: 0.4 MB).
   */
  hasRoom(): boolean {
    return this.#budget > 0 && this.#size + this.#budget / 8 <= this.#budget;
  }

  /** Lets go of every list whose key starts with `prefix` (a closed reader's). */
  drop(prefix: string): void {
    for (const [key, entry] of this.#entries) {
      if (!key.startsWith(prefix)) continue;
      this.#entries.delete(key);
      this.#size -= bytesOf(entry);
    }
  }

  /** Lets go of every list. */
  clear(): void {
    this.#entries.clear();
    this.#size = 0;
  }

  /** Bytes held now. */
  get size(): number {
    return this.#size;
  }
}

/** What a reader's index answers for one FTS5 expression, through its connection. */
export interface PhraseSource {
  /** How messages name the package. */
  readonly label: string;
  /** The rowids the expression matches, ascending. */
  rowids(expression: string): number[];
  /** Each matching row's `-bm25()` under `weights`, by rowid ascending. */
  scores(expression: string, weights: Required<ColumnWeights>): number[];
}

/** How many phrases asked about once are remembered (forgotten all at once when full). */
const ASKED_ONCE = 65_536;

/**
 * The phrase lists of the readers that share them: a {@link PhraseCache} by reader and phrase, and the phrases asked
 * about once and not given a list yet. A phrase is given a list the second time a reader is asked about it, while
 * the cache has room (see PhraseCache.hasRoom), so a question asked once (the CLI asks one) costs what the OR query
 * costs, and a server's recurring words are scored once.
 */
export class PhraseLists {
  readonly #cache: PhraseCache;
  readonly #askedOnce = new Set<string>();

  /** @param budget - how many bytes of lists to keep at most. */
  constructor(budget: number) {
    this.#cache = new PhraseCache(budget);
  }

  /**
   * Each phrase's list under `weights` for reader `reader`, or undefined when one is not kept: then the OR query
   * answers. A list made here is made from `source` and kept.
   */
  lists(
    reader: number,
    phrases: readonly string[],
    weights: Required<ColumnWeights>,
    source: PhraseSource,
  ): Array<{ rows: Float64Array; shares: Float64Array }> | undefined {
    const key = weightsKey(weights);
    const lists: Array<{ rows: Float64Array; shares: Float64Array }> = [];
    let complete = true;
    for (const phrase of phrases) {
      const phraseKey = keyOf(reader, phrase);
      const kept = this.#cache.get(phraseKey);
      const shares = kept?.shares.get(key);
      if (kept && shares) lists.push({ rows: kept.rows, shares });
      else if (this.#cache.hasRoom() && this.#askedBefore(phraseKey)) {
        const made = this.#made(phraseKey, phrase, weights, kept, source);
        lists.push({ rows: made.rows, shares: made.shares.get(key) as Float64Array });
      } else complete = false;
    }
    return complete ? lists : undefined;
  }

  /** The rows of a phrase reader `reader` keeps a list of (a search made it), ascending. */
  rows(reader: number, phrase: string): Float64Array | undefined {
    return this.#cache.get(keyOf(reader, phrase))?.rows;
  }

  /** Lets go of a closed reader's lists. */
  drop(reader: number): void {
    this.#cache.drop(`${reader}\0`);
  }

  /** Bytes of lists kept now. */
  get bytes(): number {
    return this.#cache.size;
  }

  /** Lets go of every list, and of which phrases were asked about. */
  clear(): void {
    this.#cache.clear();
    this.#askedOnce.clear();
  }

  /** Whether `key` was asked about before; remembers that it now has been. */
  #askedBefore(key: string): boolean {
    if (this.#askedOnce.delete(key)) return true;
    if (this.#askedOnce.size >= ASKED_ONCE) this.#askedOnce.clear();
    this.#askedOnce.add(key);
    return false;
  }

  /**
   * One phrase's rows, ascending, and its share of their BM25 under `weights`, asked of the index and kept beside
   * what the cache held of it (`cached`: its rows, under other weights).
   */
  #made(
    key: string,
    phrase: string,
    weights: Required<ColumnWeights>,
    cached: PhraseRows | undefined,
    source: PhraseSource,
  ): PhraseRows {
    const quoted = ftsString(phrase);
    // Two plain lists in the same rowid order cost a third of one list of [rowid, score] pairs.
    const rows = cached?.rows ?? Float64Array.from(source.rowids(quoted));
    const scores = source.scores(quoted, weights);
    if (scores.length !== rows.length) {
      throw new StoreError('damaged-package', `${source.label}: its full-text index lists "${phrase}" in two ways`);
    }
    const shares = Float64Array.from(scores);
    const entry: PhraseRows = { rows, shares: new Map([...(cached?.shares ?? []), [weightsKey(weights), shares]]) };
    this.#cache.put(key, entry);
    return entry;
  }
}

/** A reader's phrase in the cache: the reader's number, then the phrase. */
function keyOf(reader: number, phrase: string): string {
  return `${reader}\0${phrase}`;
}

function bytesOf(entry: PhraseRows): number {
  return entry.rows.byteLength + [...entry.shares.values()].reduce((sum, s) => sum + s.byteLength, 0);
}
