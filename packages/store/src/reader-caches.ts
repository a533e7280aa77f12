import { CHUNK_READERS, ChunkFieldsCache } from './chunk-fields.js';
import { PhraseLists } from './phrase-scores.js';

/** How much the readers of a store keep of what they read; see {@link ReaderCaches}. */
export interface ReaderCacheSizes {
  /** How many chunks' fields (path, title, breadcrumb and counts; ~750 bytes a chunk) to keep. @default 8192 */
  readonly chunkFields?: number;
  /** How many bytes of phrase lists (each phrase's rows and their BM25 shares) to keep. @default 4 MiB */
  readonly phraseListBytes?: number;
}

/**
 * What readers keep of what they read, with one budget for all of them however many packages are open: the chunks'
 * fields (chunk-fields.ts) and the phrase lists (phrase-scores.ts), and the numbers that tell the readers apart in
 * both. A reader's number is its own among the readers numbered in the same generation; when the numbers run out
 * (the chunk cache tells 2^21 apart), every entry is let go and a new generation begins, in which a reader of an
 * older one takes a new number before it next uses the caches (see {@link ReaderNumber}). A server that opens
 * readers over and over (a search over more libraries than stay open opens most of them anew) runs out in time,
 * while the readers it uses most stay open.
 */
export class ReaderCaches {
  readonly chunkFields: ChunkFieldsCache;
  readonly phraseLists: PhraseLists;
  readonly #numbers: number;
  #next = 0;
  #generation = 0;

  /** @param numbers - how many reader numbers a generation has (fewer only to test running out). */
  constructor(sizes: ReaderCacheSizes = {}, numbers: number = CHUNK_READERS) {
    this.chunkFields = new ChunkFieldsCache(wholeNumber(sizes.chunkFields ?? 8192, 'chunkFields'));
    this.phraseLists = new PhraseLists(wholeNumber(sizes.phraseListBytes ?? 4 * 2 ** 20, 'phraseListBytes'));
    this.#numbers = Math.min(numbers, CHUNK_READERS);
  }

  /** A reader's number, valid while {@link generation} is the one it was taken in. */
  takeNumber(): ReaderNumber {
    if (this.#next === this.#numbers) {
      this.#next = 0;
      this.#generation += 1;
      this.chunkFields.clear();
      this.phraseLists.clear();
    }
    return { number: this.#next++, generation: this.#generation };
  }

  /** The generation numbers are taken in now. */
  get generation(): number {
    return this.#generation;
  }
}

/** A reader's number in a {@link ReaderCaches}, and the generation it belongs to. */
export interface ReaderNumber {
  readonly number: number;
  readonly generation: number;
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

let shared: ReaderCaches | undefined;

/** The caches of every store of the process that sets no sizes of its own: one budget for the process. */
export function sharedReaderCaches(): ReaderCaches {
  shared ??= new ReaderCaches();
  return shared;
}
