import fc from 'fast-check';
import { expect, test } from 'vitest';
import { demoteNearDuplicates } from './near-duplicates.js';

const router = 'Create a tRPC router with a query procedure that returns the greeting for the given name.';

test('a near repeat moves below the distinct results, which keep their order', () => {
  const items = [
    `${router} Then export it.`,
    router,
    'Enable CORS with the cors middleware on another origin.',
    'Short.',
  ];
  expect(demoteNearDuplicates(items, (t) => t, { threshold: 0.6 })).toEqual([items[0], items[2], items[3], items[1]]);
});

test('a near repeat that says more than the copy above it stays: the copy that says less is never the one kept', () => {
  // kysely's `Transaction.transaction` (which throws) above `Kysely.transaction` with the same comment and more.
  const items = [router, `${router} Then export it.`, 'Enable CORS with the cors middleware on another origin.'];
  expect(demoteNearDuplicates(items, (t) => t, { threshold: 0.6 })).toEqual(items);
});

test('distinct texts and texts too short to compare stay where they are', () => {
  const items = [
    'one two',
    'one two',
    'Fake timers replace setTimeout and setInterval in tests.',
    'Mock whole modules with a factory function in tests.',
  ];
  expect(demoteNearDuplicates(items, (t) => t, { threshold: 0.6 })).toEqual(items);
});

test('with sizes, items too far apart in size are never compared, and their texts never read', () => {
  const items = [
    { text: `${router} Then export it.`, size: 23 },
    { text: router, size: 20 },
    { text: 'A long page about something else entirely. '.repeat(20), size: 180 },
  ];
  const read: string[] = [];
  const textOf = (item: { text: string }) => {
    read.push(item.text);
    return item.text;
  };
  const out = demoteNearDuplicates(items, textOf, { threshold: 0.6, sizeOf: (item) => item.size });
  expect(out).toEqual([items[0], items[2], items[1]]);
  expect(read).not.toContain(items[2]?.text);
});

/** The check as first written: each text's 3-grams as a set of joined words, Jaccard over the sets. */
function reference(items: readonly string[], threshold: number): string[] {
  const grams = (text: string) => {
    const words = text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '');
    return new Set(words.slice(2).map((w, i) => `${words[i]} ${words[i + 1]} ${w}`));
  };
  const jaccard = (a: Set<string>, b: Set<string>) => {
    const shared = [...a].filter((g) => b.has(g)).length;
    const union = a.size + b.size - shared;
    return union === 0 ? 0 : shared / union;
  };
  const kept: string[] = [];
  const repeats: string[] = [];
  for (const item of items) {
    const own = grams(item);
    const repeat = kept.some((k) => own.size >= 5 && own.size <= grams(k).size && jaccard(grams(k), own) >= threshold);
    if (repeat) repeats.push(item);
    else kept.push(item);
  }
  return [...kept, ...repeats];
}

test('moves the same items as a plain set-based Jaccard check, asked once or again (its grams then cached)', () => {
  // Few words, so texts share many 3-grams, repeat some within themselves and land on both sides of the threshold.
  const text = fc
    .array(fc.constantFrom('fake', 'Fake', 'timers', 'vi'), { maxLength: 24 })
    .map((words) => words.join(' '));
  fc.assert(
    fc.property(fc.array(text, { maxLength: 8 }), fc.constantFrom(0.2, 0.4, 0.6, 0.8, 1), (items, threshold) => {
      const expected = reference(items, threshold);
      expect(demoteNearDuplicates(items, (t) => t, { threshold })).toEqual(expected);
      expect(demoteNearDuplicates(items, (t) => t, { threshold })).toEqual(expected);
    }),
    { numRuns: 300 },
  );
});
