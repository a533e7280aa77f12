// A word becomes a 17-bit hash and a 3-gram the number a + b·K + c·K², exact
// below 2^53: numbers, not joined strings, keep this check cheap beside the
// search itself. A rare hash collision can only make two grams look alike.
const K = 2 ** 17;

function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h >>> 0) % K;
}

/** Word 3-grams of a text, sorted, each once: what two passages share when one repeats the other. */
function shingles(text: string): Float64Array {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const grams: number[] = [];
  let a = -1;
  let b = -1;
  for (const word of words) {
    if (word === '') continue;
    const c = wordHash(word);
    if (a >= 0) grams.push(a + b * K + c * K * K);
    a = b;
    b = c;
  }
  const sorted = Float64Array.from(grams).sort();
  let size = 0;
  for (const gram of sorted) if (size === 0 || gram !== sorted[size - 1]) sorted[size++] = gram;
  return sorted.slice(0, size);
}

/**
 * Texts' 3-grams, by text: the sections that answer one question are mostly those that answered the last,
 * and a package's text never changes. Bounded by the grams held (8 bytes each) and by the texts.
 */
const cached = new Map<string, Float64Array>();
let cachedGrams = 0;
const MAX_CACHED_GRAMS = 131_072;
const MAX_CACHED_TEXTS = 512;

function cachedShingles(text: string): Float64Array {
  let grams = cached.get(text);
  if (!grams) {
    grams = shingles(text);
    if (cached.size >= MAX_CACHED_TEXTS || cachedGrams + grams.length > MAX_CACHED_GRAMS) {
      cached.clear();
      cachedGrams = 0;
    }
    cached.set(text, grams);
    cachedGrams += grams.length;
  }
  return grams;
}

/** Jaccard similarity of two sorted sets, or 0 when it cannot reach `threshold`: the smaller set bounds what is shared. */
function similarity(a: Float64Array, b: Float64Array, threshold: number): number {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  if (small.length < threshold * large.length) return 0;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < small.length && j < large.length) {
    const x = small[i] as number;
    const y = large[j] as number;
    if (x === y) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  const union = a.length + b.length - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * Moves each item that nearly repeats an item above it (the same passage in
 * a guide and a reference, the same step in two tutorials) to the end of the
 * list, keeping order otherwise, so repeats do not fill the top. Texts too
 * short to compare are never moved, nor is an item that says more than the
 * one it nearly repeats (more distinct 3-grams): the copy that says less is
 * never the one kept.
 *
 * `sizeOf` (e.g. a token count already known) lets two items whose sizes are
 * too far apart to be repeats skip the comparison, and a text that is never
 * compared is never read: it must grow with the text's length.
 *
 * @example
 * demoteNearDuplicates(results, (r) => r.content, { threshold: 0.6 })
 */
export function demoteNearDuplicates<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  options: { threshold: number; sizeOf?: (item: T) => number },
): T[] {
  const isRepeat = nearRepeats(textOf, options);
  const kept: T[] = [];
  const repeats: T[] = [];
  for (const item of items) (isRepeat(item) ? repeats : kept).push(item);
  return [...kept, ...repeats];
}

/**
 * The check {@link demoteNearDuplicates} makes, one item at a time, best
 * first: whether an item nearly repeats one of the items given before it that
 * were not repeats themselves. An item's answer depends only on the items
 * before it, so a caller may stop as soon as it has kept enough, and the items
 * it kept are the first ones the whole list would keep.
 *
 * @example
 * const isRepeat = nearRepeats((r: Result) => r.content, { threshold: 0.8 });
 * const firstTen = [];
 * for (const r of ranked) if (!isRepeat(r) && firstTen.push(r) === 10) break;
 */
export function nearRepeats<T>(
  textOf: (item: T) => string,
  options: { threshold: number; sizeOf?: (item: T) => number },
): (item: T) => boolean {
  const { threshold, sizeOf } = options;
  const cache = new Map<T, Float64Array>();
  const gramsOf = (item: T) => {
    let grams = cache.get(item);
    if (!grams) {
      grams = cachedShingles(textOf(item));
      cache.set(item, grams);
    }
    return grams;
  };
  // Sizes are an estimate of the 3-gram counts, so the bound is kept loose (half the threshold).
  const closeInSize = (a: T, b: T) => {
    if (!sizeOf) return true;
    const [x, y] = [sizeOf(a), sizeOf(b)];
    return Math.min(x, y) >= (threshold / 2) * Math.max(x, y);
  };
  const kept: T[] = [];
  return (item) => {
    const repeat = kept.some((k) => {
      if (!closeInSize(k, item)) return false;
      const grams = gramsOf(item);
      // A copy that says more than the one above it (more distinct 3-grams) is not its repeat: moving it down
      // would keep the copy that says less.
      const above = gramsOf(k);
      return grams.length >= 5 && grams.length <= above.length && similarity(above, grams, threshold) >= threshold;
    });
    if (!repeat) kept.push(item);
    return repeat;
  };
}
