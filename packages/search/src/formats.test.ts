import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocResult, getDocs, type SearchOptions, searchAll } from './index.js';

// The full and index formats answer from one ranked list of sections: the same
// sections in the same order, counted the same way; the full format joins a
// section with those after it in its document, labelled by and starting at the best.
let dir: string;
let store: PackageStore;

const filler = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

function page(file: string, title: string, sections: Array<[string, string]>): DocumentInput {
  return {
    path: file,
    title,
    links: [],
    content: sections.map(([, text]) => text).join('\n\n'),
    chunks: sections.map(([heading, content], i) => ({
      breadcrumb: i === 0 ? [title] : [title, heading],
      level: i === 0 ? 1 : 2,
      content,
      tokens: content.split(/\s+/).length,
    })),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-formats-'));
  store = new PackageStore(path.join(dir, 'home'));
  const timers = page('api/vi.md', 'Vi', [
    ['Vi', `The vi helper controls timers and modules. ${filler('intro', 40)}`],
    ['runAllTimers', `runAllTimers runs every pending timer until none are left. ${filler('run', 120)}`],
    ['advanceTimersByTime', `advanceTimersByTime moves the timers forward. ${filler('advance', 120)}`],
    ['useFakeTimers', 'useFakeTimers: to mock timers, call vi.useFakeTimers before the code that sets timers.'],
    ['useRealTimers', `useRealTimers puts the real timers back after mocked timers. ${filler('real', 60)}`],
    // Long enough to rank below useRealTimers (a heading's identifier words are indexed: both headings say "timers"),
    // so it joins the block after it rather than starting one of its own.
    ['isFakeTimers', `isFakeTimers says whether fake timers are on. ${filler('fake', 150)}`],
  ]);
  const guide = page('guide/mocking.md', 'Mocking', [
    ['Mocking', `Mock functions record their calls. ${filler('mock', 30)}`],
    ['Timers', `Timers can be mocked: see useFakeTimers. ${filler('guide', 30)}`],
  ]);
  const output = path.join(dir, 'vitest.db');
  await writePackage(output, { name: 'vitest', version: '1.0.0' }, [timers, guide]);
  await store.install(output, { move: true });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Each section a result shows, by its heading trail, in the order shown. */
const sectionsOf = (results: readonly DocResult[]) =>
  results.flatMap((r) => (r.sections ?? [r.breadcrumb]).map((b) => `${r.path} ${b.join(' > ')}`));
const labelOf = (r: DocResult) => `${r.path} ${r.breadcrumb.join(' > ')}`;
/** Every matching section takes part: no relevance drop, no spread over pages (they come before either format). */
const every = { ranking: { drop: 0, samePageDecay: 1 } } as const;

describe('full and index formats', () => {
  it('label a joined block by its best section and start it there', async () => {
    const full = await getDocs(store, 'vitest', 'mock timers', { ...every, tokens: 0 });
    const first = full.results[0] as DocResult;
    expect(first.heading).toBe('useFakeTimers');
    expect(first.content?.startsWith('useFakeTimers: to mock timers')).toBe(true);
    // The sections after it in the page that ranked follow it; the one before it is a result of its own.
    expect(first.sections?.map((s) => s.at(-1))).toEqual(['useFakeTimers', 'useRealTimers', 'isFakeTimers']);
    expect(full.results.some((r) => r.heading === 'advanceTimersByTime')).toBe(true);
  });

  it('keep the best section whole when the budget cuts its block, and go on with the rest on the next page', async () => {
    const cut = await getDocs(store, 'vitest', 'mock timers', { ...every, tokens: 40 });
    const first = cut.results[0] as DocResult;
    expect(first.heading).toBe('useFakeTimers');
    expect(first.truncated).toBe(false);
    expect(first.content).toBe(
      'useFakeTimers: to mock timers, call vi.useFakeTimers before the code that sets timers.',
    );
    expect(cut.results).toHaveLength(1);
    expect(cut.nextOffset).toBe(1);
    const next = await getDocs(store, 'vitest', 'mock timers', { ...every, tokens: 0, offset: 1 });
    expect(sectionsOf(next.results)).not.toContain('api/vi.md Vi > useFakeTimers');
    // A best section larger than the whole budget is cut to fit, from its start.
    const small = await getDocs(store, 'vitest', 'mock timers', { ...every, tokens: 8 });
    expect(small.results).toHaveLength(1);
    expect(small.results[0]).toMatchObject({ heading: 'useFakeTimers', truncated: true });
    expect(small.results[0]?.content?.startsWith('useFakeTimers: to mock timers')).toBe(true);
    expect(small.nextOffset).toBe(1);
  });

  it.each([
    ['getDocs', (options: SearchOptions) => getDocs(store, 'vitest', 'mock timers', { ...every, ...options })],
    ['searchAll', (options: SearchOptions) => searchAll(store, 'timers', { ...every, ...options })],
  ])('%s: rank the same sections in the same order, and count them the same way', async (_, ask) => {
    const index = await ask({ format: 'index' });
    const full = await ask({ tokens: 0 });
    expect(full.total).toBe(index.total);
    expect(index.results.length).toBeGreaterThan(3);
    // The same sections on the page; the full format's results in the index's order of their first sections.
    expect([...sectionsOf(full.results)].sort()).toEqual([...sectionsOf(index.results)].sort());
    const order = index.results.map(labelOf);
    const firsts = full.results.map((r) => order.indexOf(labelOf(r)));
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    expect(firsts.every((i) => i >= 0)).toBe(true);
    expect(full.message).toMatch(new RegExp(`^${index.results.length} of ${index.total} results`));
    if (full.results.some((r) => r.sections)) expect(full.message).toContain('sections that follow each other joined');
  });

  it('page over sections: following nextOffset shows every section, whatever the budget leaves out', async () => {
    const all = sectionsOf(
      (await getDocs(store, 'vitest', 'timers', { ...every, format: 'index', limit: 50 })).results,
    );
    expect(all.length).toBeGreaterThan(5);
    for (const tokens of [0, 60, 200]) {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      for (let pages = 0; offset !== undefined && pages < 50; pages++) {
        const answer = await getDocs(store, 'vitest', 'timers', { ...every, limit: 3, tokens, offset });
        expect(answer.total).toBe(all.length);
        seen.push(...sectionsOf(answer.results));
        if (answer.nextOffset !== undefined) expect(answer.nextOffset).toBeGreaterThan(offset);
        offset = answer.nextOffset;
      }
      expect(new Set(seen)).toEqual(new Set(all));
    }
  });
});
