import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it, test } from 'vitest';
import { indexTokens, PackageStore, tokensContain, writePackage } from './index.js';

test.each([
  ['Fake Timers > vi.useFakeTimers', ['fake', 'timers', 'vi', 'usefaketimers']],
  ['Café — naïve façade', ['cafe', 'naive', 'facade']],
  ['`z.strictObject` {#strict}', ['z', 'strictobject', 'strict']],
  ['ERR_PNPM_IGNORED_BUILDS', ['err', 'pnpm', 'ignored', 'builds']],
  ['  ', []],
])('indexTokens(%j)', (text, tokens) => {
  expect(indexTokens(text)).toEqual(tokens);
});

test.each([
  ['vi.usefaketimers', true],
  ['fake timers', true],
  ['timers fake', false],
  [['nothing', 'timers'], true],
  ['"', false],
])('tokensContain(Fake Timers vi.useFakeTimers, %j) = %s', (term, expected) => {
  expect(tokensContain(indexTokens('Fake Timers vi.useFakeTimers'), term)).toBe(expected);
});

it('agrees with the index itself on which heading trails hold a term', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-tokens-'));
  const store = new PackageStore(path.join(dir, 'home'));
  const headings = [
    'Fake Timers',
    'vi.useFakeTimers',
    'Café crème',
    'ERR_PNPM_IGNORED_BUILDS',
    'Größe ändern',
    'naïve-approach',
    '日本語 テスト',
    'x2 y-3',
  ];
  const file = path.join(dir, 'p.db');
  await writePackage(file, { name: 'p', version: '1.0.0' }, [
    {
      path: 'a.md',
      title: 'A',
      content: 'a',
      chunks: headings.map((h) => ({ breadcrumb: [h], level: 1, content: 'body', tokens: 1 })),
    },
  ]);
  await store.install(file, { move: true });
  const found = await store.resolve('p');
  if (!found.ok) throw new Error('expected p');
  const reader = store.reader(found.value);
  const ids = headings.map((_, i) => i + 1);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(
        ...headings.flatMap((h) => [h, ...h.split(/\s+/)]),
        'timers',
        'cafe',
        'grosse',
        'naive approach',
        'y 3',
      ),
      async (term) => {
        const inIndex = await reader.termMatches([term], ids, { column: 'headings' });
        for (const [i, heading] of headings.entries()) {
          expect(tokensContain(indexTokens(heading), term), `${term} in ${heading}`).toBe(inIndex.has(i + 1));
        }
      },
    ),
    { numRuns: 60 },
  );
  await store.close();
  await rm(dir, { recursive: true, force: true });
});
