import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocResult, getDocs, type SearchOptions, type SearchResponse, searchAll } from './index.js';

// Paging under a token budget: following nextOffset from the first page shows every section of the answer exactly
// once, page after page in the order of one page holding them all, whatever the budget and the limit. Sections of
// very different sizes (so a budget leaves some out while smaller ones after them would fit), sections that follow
// each other in a page (joined into one result in the full format) and near-duplicates (moved down the list) are
// what used to make page 2 repeat or skip what page 1 showed.
let dir: string;
let store: PackageStore;

const words = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const repeated = `The widget cache keeps rendered widgets between frames. ${words('cache', 110)}`;

function doc(file: string, title: string, sections: Array<[heading: string, content: string]>): DocumentInput {
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
  dir = await mkdtemp(path.join(tmpdir(), 'docs-paging-'));
  store = new PackageStore(path.join(dir, 'home'));
  const docs = [
    doc('guide/widgets.md', 'Widgets', [
      ['Widgets', `A widget draws itself. widget widget. ${words('intro', 25)}`],
      ['Widget cache', repeated],
      ['Widget size', `A widget has a size. widget. ${words('size', 10)}`],
      ['Widget state', `Widget state survives a redraw. widget widget. ${words('state', 55)}`],
    ]),
    doc('guide/layout.md', 'Layout', [
      ['Layout', `Layout places each widget. ${words('layout', 200)}`],
      ['Widget rows', `Rows of widget children. widget widget widget. ${words('row', 15)}`],
      ['Widget columns', `Columns of widget children. widget. ${words('column', 40)}`],
    ]),
    doc('reference/cache.md', 'Cache reference', [
      ['Cache reference', `How the cache works. ${words('ref', 12)}`],
      ['Widget cache', repeated],
      ['Widget keys', `Keys name a widget in the cache. widget widget. ${words('key', 6)}`],
      ['Eviction', `Eviction drops a widget from the cache. ${words('evict', 75)}`],
    ]),
    doc('reference/events.md', 'Events', [
      ['Events', `A widget emits events. widget widget widget widget. ${words('event', 20)}`],
      ['Widget focus', `Focus moves between widget instances. ${words('focus', 300)}`],
    ]),
    doc('misc/faq.md', 'FAQ', [
      ['FAQ', `Questions about the widget. ${words('faq', 45)}`],
      ['Widget testing', `Test a widget with a fake renderer. widget widget. ${words('test', 30)}`],
    ]),
  ];
  const file = path.join(dir, 'widgets.db');
  await writePackage(file, { name: 'widgets', version: '1.0.0' }, docs);
  await store.install(file, { move: true });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Each section a result shows, by its path and heading trail, in the order shown. */
const sectionsOf = (results: readonly DocResult[]) =>
  results.flatMap((r) => (r.sections ?? [r.breadcrumb]).map((b) => `${r.path} ${b.join(' > ')}`));

type Ask = (options: SearchOptions) => Promise<SearchResponse>;
const asks: Array<[string, Ask]> = [
  ['getDocs', (options) => getDocs(store, 'widgets', 'widget', options)],
  ['searchAll', (options) => searchAll(store, 'widget', options)],
];
/** Every matching section takes part (no relevance drop, no spread over pages), so the list is long. */
const every = { ranking: { drop: 0, samePageDecay: 1 } } as const;

/** Every section of the answer, in its order: one page holding them all, with no budget. */
async function wholeList(ask: Ask, ranking: Pick<SearchOptions, 'ranking'>): Promise<string[]> {
  const one = await ask({ ...ranking, format: 'index', limit: 1000, tokens: 0 });
  expect(one.nextOffset).toBeUndefined();
  return sectionsOf(one.results);
}

/**
 * Follows nextOffset from the first page and checks that each page shows exactly the sections that come next in
 * `all` (a joined result lists its sections in page order, not rank order), keeps its results in rank order and
 * holds its budget, and that the walk ends exactly at the end of the list.
 */
async function walk(ask: Ask, all: readonly string[], options: SearchOptions): Promise<void> {
  let offset: number | undefined = 0;
  let position = 0;
  for (let pages = 0; offset !== undefined; pages++) {
    expect(pages).toBeLessThan(all.length + 1);
    const answer = await ask({ ...options, offset });
    expect(answer.total).toBe(all.length);
    const shown = sectionsOf(answer.results);
    expect(shown.length).toBeGreaterThan(0);
    expect([...shown].sort()).toEqual(all.slice(position, position + shown.length).sort());
    const firsts = answer.results.map((r) => all.indexOf(`${r.path} ${r.breadcrumb.join(' > ')}`));
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    if (options.tokens && options.format !== 'index') {
      const spent = answer.results.reduce((sum, r) => sum + r.tokens, 0);
      if (!answer.results[0]?.truncated) expect(spent).toBeLessThanOrEqual(options.tokens);
    }
    position += shown.length;
    offset = answer.nextOffset;
    if (offset !== undefined) expect(offset).toBe(position);
  }
  expect(position).toBe(all.length);
}

describe.each(asks)('%s: pages under a token budget', (_, ask) => {
  it('repeat nothing and skip nothing: each page continues exactly after the last result shown', async () => {
    const all = await wholeList(ask, every);
    expect(all.length).toBeGreaterThan(12);
    for (const tokens of [40, 100, 150, 250, 400]) await walk(ask, all, { ...every, tokens, limit: 10 });
  });

  it('list the sections in the same order whatever the page, the budget and the format', async () => {
    const all = await wholeList(ask, every);
    for (const limit of [1, 3, 10]) {
      for (const tokens of [0, 30, 2000]) await walk(ask, all, { ...every, format: 'index', limit, tokens });
    }
    // The near-duplicate goes below every section that is not one, however short the pages.
    expect(all.at(-1)).toMatch(/Cache/);
  });

  it('hold with the default ranking too', async () => {
    const all = await wholeList(ask, {});
    for (const tokens of [60, 300]) await walk(ask, all, { tokens, limit: 4 });
  });

  it('hold for any budget and limit (property)', async () => {
    const all = await wholeList(ask, every);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 12 }), async (tokens, limit) => {
        await walk(ask, all, { ...every, tokens, limit });
      }),
      { numRuns: 40 },
    );
  });
});
