import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocResult, getDocs, type SearchOptions, type SentSections, searchAll } from './index.js';

// A caller that remembers what it was sent (an MCP session) is not sent a section twice: a section it holds is
// listed without its content, costs nothing, and the budget goes to the sections after it; paging is unchanged.

let dir: string;
let store: PackageStore;

const words = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

function doc(file: string, title: string, sections: Array<[heading: string, content: string]>): DocumentInput {
  return {
    path: file,
    title,
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
  dir = await mkdtemp(path.join(tmpdir(), 'docs-sent-'));
  store = new PackageStore(path.join(dir, 'home'));
  const documents = [
    doc('guide/widgets.md', 'Widgets', [
      ['Widgets', `A widget draws itself. widget widget. ${words('intro', 25)}`],
      ['Widget size', `A widget has a size. widget. ${words('size', 10)}`],
      ['Widget state', `Widget state survives a redraw. widget widget. ${words('state', 55)}`],
    ]),
    doc('guide/layout.md', 'Layout', [
      ['Layout', `Layout places each widget. ${words('layout', 200)}`],
      ['Widget rows', `Rows of widget children. widget widget widget. ${words('row', 15)}`],
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
  await writePackage(file, { name: 'widgets', version: '1.0.0' }, documents);
  await store.install(file, { move: true });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A memory as a session keeps one, recording every call to it. */
function memory(): SentSections & { readonly keys: Map<string, number> } {
  const keys = new Map<string, number>();
  return { keys, has: (key) => keys.has(key), add: (key, tokens) => void keys.set(key, tokens) };
}

/** Each section a result shows, by its path and heading trail. */
const sectionsOf = (results: readonly DocResult[]) =>
  results.flatMap((r) => (r.sections ?? [r.breadcrumb]).map((b) => `${r.path} ${b.join(' > ')}`));
const withContent = (results: readonly DocResult[]) => sectionsOf(results.filter((r) => r.content !== undefined));

type Ask = (options: SearchOptions) => Promise<Awaited<ReturnType<typeof getDocs>>>;
const asks: Array<[string, Ask]> = [
  ['getDocs', (options) => getDocs(store, 'widgets', 'widget', options)],
  ['searchAll', (options) => searchAll(store, 'widget', options)],
];
/** Every matching section takes part, so the list is long. */
const every = { ranking: { drop: 0, samePageDecay: 1 } } as const;

describe.each(asks)('%s with what the caller was sent', (_, ask) => {
  it('lists a section sent before without its content, and gives its budget to the next ones', async () => {
    const sent = memory();
    const first = await ask({ ...every, tokens: 150, sent });
    const firstSent = withContent(first.results);
    expect(firstSent.length).toBeGreaterThan(0);
    expect(sent.keys.size).toBe(firstSent.length);

    const again = await ask({ ...every, tokens: 150, sent });
    const listed = again.results.filter((r) => r.sentEarlier);
    // Everything the first answer sent comes back first, listed by title and path only, and costs nothing.
    expect(sectionsOf(listed)).toEqual(firstSent);
    for (const r of listed) expect(r.content).toBeUndefined();
    expect(again.message).toContain(`${listed.length} of them sent earlier`);
    // The budget goes to sections the first answer did not send, and holds.
    const fresh = withContent(again.results);
    expect(fresh.length).toBeGreaterThan(0);
    for (const section of fresh) expect(firstSent).not.toContain(section);
    expect(again.totalTokens).toBeLessThanOrEqual(150);
    expect(again.totalTokens).toBe(again.results.reduce((sum, r) => sum + (r.content ? r.tokens : 0), 0));
    // Paging counts the listed sections as any: the answer is the same run of the list as without the memory.
    const plain = await ask({ ...every, tokens: 150, limit: again.results.length });
    expect(again.total).toBe(plain.total);
  });

  it('never sends a section twice, over any budget and limit, while each page continues after the last (property)', async () => {
    const all = sectionsOf((await ask({ ...every, format: 'index', limit: 1000, tokens: 0 })).results);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 8 }), async (tokens, limit) => {
        const sent = memory();
        const seen: string[] = [];
        // The same question again and again, from the first page: each time the next sections come in full.
        for (let call = 0; call < all.length; call++) {
          const answer = await ask({ ...every, tokens, limit, sent });
          const fresh = answer.results.filter((r) => r.content !== undefined && !r.truncated);
          for (const section of sectionsOf(fresh)) {
            expect(seen).not.toContain(section);
            seen.push(section);
          }
          if (answer.results.every((r) => r.sentEarlier)) break;
        }
        // And paging with a memory walks the same list as without one.
        const pages: string[] = [];
        for (let offset: number | undefined = 0; offset !== undefined; ) {
          const answer = await ask({ ...every, tokens, limit, offset, sent: memory() });
          pages.push(...sectionsOf(answer.results));
          offset = answer.nextOffset;
        }
        expect([...pages].sort()).toEqual([...all].sort());
      }),
      { numRuns: 25 },
    );
  });

  it('leaves the index format, which sends no content, as it is, and remembers nothing from it', async () => {
    const sent = memory();
    await ask({ ...every, tokens: 100, sent });
    const size = sent.keys.size;
    const index = await ask({ ...every, format: 'index', sent });
    expect(index).toEqual(await ask({ ...every, format: 'index' }));
    expect(sent.keys.size).toBe(size);
  });

  it('sends the first new section cut to fit rather than none, and does not remember a cut one', async () => {
    const sent = memory();
    // Every section sent in full, then the largest (300 words, over the budget below) forgotten.
    await ask({ ...every, tokens: 0, limit: 1000, sent });
    const [largest] = [...sent.keys].sort(([, a], [, b]) => b - a)[0] ?? [];
    sent.keys.delete(largest as string);
    const answer = await ask({ ...every, tokens: 50, limit: 1000, sent });
    const cut = answer.results.filter((r) => r.content !== undefined);
    expect(cut.map((r) => r.heading)).toEqual(['Widget focus']);
    expect(cut[0]?.truncated).toBe(true);
    expect(cut[0]?.tokens).toBeLessThanOrEqual(50);
    expect(sent.has(largest as string)).toBe(false);
  });
});
