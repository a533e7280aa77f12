/** Word 3-grams of a text: what two passages share when one repeats the other. */
function shingles(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) grams.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return grams;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * Moves each item that nearly repeats an item above it (the same passage in
 * a guide and a reference, the same step in two tutorials) to the end of the
 * list, keeping order otherwise, so repeats do not fill the top. Texts too
 * short to compare are never moved.
 *
 * @example
 * demoteNearDuplicates(results, (r) => r.content, { threshold: 0.6 })
 */
export function demoteNearDuplicates<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  options: { threshold: number },
): T[] {
  const kept: Array<{ item: T; grams: Set<string> }> = [];
  const repeats: T[] = [];
  for (const item of items) {
    const grams = shingles(textOf(item));
    const repeat = grams.size >= 5 && kept.some((k) => jaccard(k.grams, grams) >= options.threshold);
    if (repeat) repeats.push(item);
    else kept.push({ item, grams });
  }
  return [...kept.map((k) => k.item), ...repeats];
}
