import { expect, test } from 'vitest';
import { demoteNearDuplicates } from './near-duplicates.js';

const router = 'Create a tRPC router with a query procedure that returns the greeting for the given name.';

test('a near repeat moves below the distinct results, which keep their order', () => {
  const items = [
    router,
    `${router} Then export it.`,
    'Enable CORS with the cors middleware on another origin.',
    'Short.',
  ];
  expect(demoteNearDuplicates(items, (t) => t, { threshold: 0.6 })).toEqual([items[0], items[2], items[3], items[1]]);
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
    { text: router, size: 20 },
    { text: `${router} Then export it.`, size: 23 },
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
