// o200k_base token counts from a byte table read on first use, the same counts as gpt-tokenizer's countTokens.
//
// gpt-tokenizer keeps its 200,000 ranks as a 2.4 MB JavaScript array literal and builds a Map of them when imported:
// about 350 ms of CPU in every thread that counts (a build's main thread and each worker, in every `docs add`
// process), more than counting a small library's pages. The same ranks as bytes (dist/o200k.bin, written from
// gpt-tokenizer's own at build time, scripts/o200k-table.mjs) load in a few milliseconds; counting follows
// gpt-tokenizer's steps exactly (its split pattern, a whole piece looked up as a string, else its byte-pair merge
// order), so every count is the same (o200k.test.ts compares them).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/**
 * The ranks as bytes: token `r` is `bytes[offsets[r]..offsets[r + 1])`, a string token (kind 1) or one whose bytes
 * are not a string (kind 2); `slots` finds a rank from its kind and bytes.
 */
export interface RankTable {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
  readonly kinds: Uint8Array;
  /** Open addressing on FNV-1a of the bytes: rank + 1, 0 for an empty slot. */
  readonly slots: Int32Array;
}

const STRING = 1;
const BYTES = 2;
const MAGIC = 0x4b323032; // "202K" little-endian: o200k, version 2 of this layout
const HEADER_BYTES = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The file form of a table, every number a little-endian u32: magic, token count, slot count, byte count, the
 * `count + 1` offsets, the slots; then the kinds and the bytes. On a little-endian machine (all that Node runs on
 * but a few) loading it is a few views on the file, not a rebuild.
 */
export function serializeRanks(table: RankTable): Uint8Array {
  const count = table.offsets.length - 1;
  const words = 4 + (count + 1) + table.slots.length;
  const out = new Uint8Array(4 * words + count + table.bytes.byteLength);
  const view = new DataView(out.buffer);
  const header = [MAGIC, count, table.slots.length, table.bytes.byteLength];
  for (const [i, value] of header.entries()) view.setUint32(4 * i, value, true);
  for (const [i, value] of table.offsets.entries()) view.setUint32(HEADER_BYTES + 4 * i, value, true);
  const slotsAt = HEADER_BYTES + 4 * (count + 1);
  for (const [i, value] of table.slots.entries()) view.setInt32(slotsAt + 4 * i, value, true);
  out.set(table.kinds, 4 * words);
  out.set(table.bytes, 4 * words + count);
  return out;
}

/** A table from its file form (see {@link serializeRanks}); throws on anything else. */
export function deserializeRanks(file: Uint8Array): RankTable {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength < HEADER_BYTES || view.getUint32(0, true) !== MAGIC) throw new Error('not an o200k rank table');
  const count = view.getUint32(4, true);
  const slotCount = view.getUint32(8, true);
  const byteCount = view.getUint32(12, true);
  const words = 4 + (count + 1) + slotCount;
  if (file.byteLength !== 4 * words + count + byteCount || (slotCount & (slotCount - 1)) !== 0) {
    throw new Error('o200k rank table: wrong size');
  }
  // One copy, aligned, that the typed arrays below view.
  const buffer = new Uint8Array(file).buffer;
  const words32 = (at: number, length: number) => {
    if (LITTLE_ENDIAN) return new Uint32Array(buffer, at, length);
    const out = new Uint32Array(length);
    for (let i = 0; i < length; i++) out[i] = view.getUint32(at + 4 * i, true);
    return out;
  };
  const offsets = words32(HEADER_BYTES, count + 1);
  const slotWords = words32(HEADER_BYTES + 4 * (count + 1), slotCount);
  const slots = new Int32Array(slotWords.buffer, slotWords.byteOffset, slotCount);
  const kinds = new Uint8Array(buffer, 4 * words, count);
  const bytes = new Uint8Array(buffer, 4 * words + count, byteCount);
  return { bytes, offsets, kinds, slots };
}

/**
 * A table from gpt-tokenizer's rank list (each rank a string, or the bytes of a token stored as bytes). Throws if
 * two byte tokens are equal (gpt-tokenizer's binary search would then find either).
 */
export function ranksToTable(ranks: readonly (string | readonly number[])[]): RankTable {
  const encoder = new TextEncoder();
  const parts = ranks.map((rank) => (typeof rank === 'string' ? encoder.encode(rank) : Uint8Array.from(rank)));
  const kinds = Uint8Array.from(ranks, (rank) => (typeof rank === 'string' ? STRING : BYTES));
  const offsets = new Uint32Array(parts.length + 1);
  for (let i = 0; i < parts.length; i++) offsets[i + 1] = (offsets[i] as number) + (parts[i] as Uint8Array).length;
  const bytes = new Uint8Array(offsets[parts.length] as number);
  for (let i = 0; i < parts.length; i++) bytes.set(parts[i] as Uint8Array, offsets[i] as number);
  const slots = buildSlots(bytes, offsets, kinds);
  const table = { bytes, offsets, kinds, slots };
  for (let rank = 0; rank < parts.length; rank++) {
    if (kinds[rank] !== BYTES) continue;
    const found = lookup(table, BYTES, bytes, offsets[rank] as number, offsets[rank + 1] as number);
    if (found !== rank) throw new Error(`o200k rank ${rank} has the same bytes as rank ${found}`);
  }
  return table;
}

function buildSlots(bytes: Uint8Array, offsets: Uint32Array, kinds: Uint8Array): Int32Array {
  const count = offsets.length - 1;
  let size = 1;
  while (size < count * 2.5) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let rank = 0; rank < count; rank++) {
    const from = offsets[rank] as number;
    const to = offsets[rank + 1] as number;
    const kind = kinds[rank] as number;
    let slot = (hash(bytes, from, to) + kind) & mask;
    // Two equal strings: the later rank takes the slot, as gpt-tokenizer's Map keeps the last one set.
    while (slots[slot] !== 0) {
      const other = (slots[slot] as number) - 1;
      if (
        kinds[other] === kind &&
        equal(bytes, offsets[other] as number, offsets[other + 1] as number, bytes, from, to)
      )
        break;
      slot = (slot + 1) & mask;
    }
    if (slots[slot] === 0 || kind === STRING) slots[slot] = rank + 1;
  }
  return slots;
}

function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function equal(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array, bFrom: number, bTo: number): boolean {
  if (aTo - aFrom !== bTo - bFrom) return false;
  for (let i = 0; i < aTo - aFrom; i++) if (a[aFrom + i] !== b[bFrom + i]) return false;
  return true;
}

/** The rank of the token of `kind` whose bytes are `key[from..to)`, or -1. */
function lookup(table: RankTable, kind: number, key: Uint8Array, from: number, to: number): number {
  const { bytes, offsets, kinds, slots } = table;
  const mask = slots.length - 1;
  let slot = (hash(key, from, to) + kind) & mask;
  for (;;) {
    const entry = slots[slot] as number;
    if (entry === 0) return -1;
    const rank = entry - 1;
    if (kinds[rank] === kind && equal(bytes, offsets[rank] as number, offsets[rank + 1] as number, key, from, to))
      return rank;
    slot = (slot + 1) & mask;
  }
}

/**
 * The rank gpt-tokenizer's getBpeRankFromBytes gives `key[from..to)` within a merge: valid UTF-8 is decoded (a
 * leading byte order mark dropped, as TextDecoder does) and looked up among the strings; anything else among the
 * byte tokens.
 */
function mergeRank(table: RankTable, key: Uint8Array, from: number, to: number, ascii: boolean): number {
  if (ascii) return lookup(table, STRING, key, from, to);
  if (!validUtf8(key, from, to)) return lookup(table, BYTES, key, from, to);
  const bom = to - from >= 3 && key[from] === 0xef && key[from + 1] === 0xbb && key[from + 2] === 0xbf;
  return lookup(table, STRING, key, bom ? from + 3 : from, to);
}

/** gpt-tokenizer's isValidUTF8 over `bytes[from..to)`: no overlong forms, surrogates or code points past U+10FFFF. */
function validUtf8(bytes: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const first = bytes[i] as number;
    let size: number;
    let code: number;
    if (first <= 0x7f) {
      i += 1;
      continue;
    }
    if ((first & 0xe0) === 0xc0) {
      if (first <= 0xc1) return false;
      size = 2;
      code = first & 0x1f;
    } else if ((first & 0xf0) === 0xe0) {
      size = 3;
      code = first & 0x0f;
    } else if ((first & 0xf8) === 0xf0) {
      if (first > 0xf4) return false;
      size = 4;
      code = first & 0x07;
    } else return false;
    if (i + size > to) return false;
    for (let j = 1; j < size; j++) {
      const next = bytes[i + j] as number;
      if ((next & 0xc0) !== 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    if ((size === 3 && code < 0x800) || (size === 4 && code < 0x10000)) return false;
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    i += size;
  }
  return true;
}

/** Counts o200k_base tokens with one table; special-token strings count as plain text, as the build has them. */
export class O200kCounter {
  readonly #table: RankTable;
  readonly #split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
  readonly #encoder = new TextEncoder();
  #scratch = new Uint8Array(1024);
  // Pieces that are no single token, by their merged token count (gpt-tokenizer caches the same, 100,000 at most).
  readonly #merged = new Map<string, number>();

  constructor(table: RankTable) {
    this.#table = table;
  }

  /** Tokens in `text`. */
  count(text: string): number {
    if (text.length === 0) return 0;
    const split = this.#split;
    split.lastIndex = 0;
    let total = 0;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const piece = match[0];
      // Every alternative of the pattern takes a character at least; this only guards against a loop.
      if (piece.length === 0) {
        split.lastIndex += 1;
        continue;
      }
      total += this.#countPiece(piece);
    }
    return total;
  }

  #countPiece(piece: string): number {
    const length = piece.length;
    if (this.#scratch.length < length * 3) this.#scratch = new Uint8Array(length * 3);
    const scratch = this.#scratch;
    let ascii = true;
    for (let i = 0; i < length; i++) {
      const code = piece.charCodeAt(i);
      if (code >= 0x80) {
        ascii = false;
        break;
      }
      scratch[i] = code;
    }
    // Every ASCII character is a token of its own.
    if (ascii && length === 1) return 1;
    const size = ascii ? length : this.#encoder.encodeInto(piece, scratch).written;
    // gpt-tokenizer looks the whole piece up as a string: one with a lone surrogate is never found whole, and its
    // bytes (U+FFFD in its place, as TextEncoder writes them) go to the merge.
    if ((ascii || wellFormed(piece)) && lookup(this.#table, STRING, scratch, 0, size) >= 0) return 1;
    const known = this.#merged.get(piece);
    if (known !== undefined) return known;
    const count = this.#mergeCount(scratch, size, ascii);
    if (this.#merged.size >= 100_000) this.#merged.delete(this.#merged.keys().next().value as string);
    this.#merged.set(piece, count);
    return count;
  }

  /** gpt-tokenizer's bytePairMerge, counting the parts: the lowest-ranked adjacent pair merges first, leftmost on ties. */
  #mergeCount(piece: Uint8Array, size: number, ascii: boolean): number {
    const table = this.#table;
    const starts: number[] = [];
    const ranks: number[] = [];
    const rankAt = (index: number): number => {
      const from = starts[index];
      const to = starts[index + 2];
      if (from === undefined || to === undefined) return Number.POSITIVE_INFINITY;
      const rank = mergeRank(table, piece, from, to, ascii);
      return rank < 0 ? Number.POSITIVE_INFINITY : rank;
    };
    for (let i = 0; i <= size; i++) {
      starts.push(i);
      if (i < size - 1) {
        const rank = mergeRank(table, piece, i, i + 2, ascii);
        ranks.push(rank < 0 ? Number.POSITIVE_INFINITY : rank);
      } else ranks.push(Number.POSITIVE_INFINITY);
    }
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        const rank = ranks[i] as number;
        if (rank < lowest) {
          lowest = rank;
          at = i;
        }
      }
      if (lowest === Number.POSITIVE_INFINITY || at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = rankAt(at);
      if (at > 0) ranks[at - 1] = rankAt(at - 1);
    }
    return starts.length - 1;
  }
}

/** Whether `text` has no lone surrogate (String.prototype.isWellFormed, which Node 20's types do not name). */
function wellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code > 0xdbff) return false;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

let counter: O200kCounter | undefined;

/**
 * The counter of this thread, made on first use: from dist/o200k.bin beside the compiled module, or, where there is
 * none (running from the TypeScript sources), from gpt-tokenizer's own rank list.
 */
export function o200kCounter(): O200kCounter {
  counter ??= new O200kCounter(loadTable());
  return counter;
}

function loadTable(): RankTable {
  let file: Uint8Array | undefined;
  try {
    file = readFileSync(new URL('./o200k.bin', import.meta.url));
  } catch {
    file = undefined;
  }
  if (file !== undefined) return deserializeRanks(file);
  const require = createRequire(import.meta.url);
  const ranks = (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: (string | number[])[] }).default;
  return ranksToTable(ranks);
}
