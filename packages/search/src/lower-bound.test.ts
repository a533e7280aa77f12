import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchResponse, searchAll } from './index.js';
import { termAlternatives } from './terms.js';

// Plain words (no synonyms, one token each), so the store's catalog knows each library's counts exactly and
// defers libraries: the case where a library that cannot reach the page is left unopened.
const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliett',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
].filter((w) => typeof termAlternatives(w) === 'string');

/** A store of libraries made from `seed`: random pages of random sections over WORDS, installed (with catalog). */
interface Stores {
  readonly catalogued: PackageStore;
  /** The same files without a catalog: every library is opened and scored. */
  readonly plain: PackageStore;
}

let dir: string;
const stores: Stores[] = [];

/** A small deterministic generator (mulberry32), so each store is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function makeStores(seed: number): Promise<Stores> {
  const next = random(seed);
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)] as string);
  const home = path.join(dir, `store-${seed}`);
  await mkdir(home, { recursive: true });
  const catalogued = new PackageStore(path.join(home, 'catalogued'));
  const libraries = 12 + Math.floor(next() * 12);
  for (let l = 0; l < libraries; l++) {
    // Each library writes mostly a few words of its own, so libraries differ in how much of a question they hold.
    const own = pick(4);
    const word = () => (next() < 0.85 ? (own[Math.floor(next() * own.length)] as string) : (pick(1)[0] as string));
    const pages = 1 + Math.floor(next() * 3);
    const documents = Array.from({ length: pages }, (_, p) => {
      const chunks = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, c) => {
        const words = Array.from({ length: 2 + Math.floor(next() * 6) }, word);
        const content = words.join(' ');
        return { breadcrumb: [`${pick(1)[0]} ${c}`], level: 1, content, tokens: words.length };
      });
      return {
        path: `page-${p}.md`,
        title: `Page ${p}`,
        content: chunks.map((c) => `# ${c.breadcrumb[0]}\n\n${c.content}`).join('\n\n'),
        chunks,
      };
    });
    const file = path.join(home, `build-${l}.db`);
    await writePackage(file, { name: `lib-${l}`, version: '1.0.0' }, documents);
    await catalogued.install(file, { move: true });
  }
  await mkdir(path.join(home, 'plain'));
  for (const pkg of await catalogued.list()) await link(pkg.file, path.join(home, 'plain', path.basename(pkg.file)));
  return { catalogued, plain: new PackageStore(path.join(home, 'plain')) };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-lower-bound-'));
  for (const seed of [1, 2, 3, 4]) stores.push(await makeStores(seed));
});

afterAll(async () => {
  for (const s of stores) {
    await s.catalogued.close();
    await s.plain.close();
  }
  await rm(dir, { recursive: true, force: true });
});

/** What a page shows: its results and where the next starts. */
const pageOf = (r: SearchResponse) => ({ results: r.results, nextOffset: r.nextOffset, status: r.status });

describe('a total that may be a lower bound', () => {
  it('shows the page scoring every library shows, and says when its total is a lower bound', async () => {
    let lowerBounds = 0;
    const question = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(
        fc.nat(stores.length - 1),
        question,
        fc.integer({ min: 1, max: 4 }),
        fc.nat(6),
        fc.constantFrom('full' as const, 'index' as const),
        async (s, topic, limit, offset, format) => {
          const { catalogued, plain } = stores[s] as Stores;
          const options = { limit, offset, format };
          const full = await searchAll(plain, topic, options);
          const answer = await searchAll(catalogued, topic, options);
          expect(pageOf(answer)).toEqual(pageOf(full));
          if (answer.totalIsLowerBound) {
            lowerBounds++;
            expect(answer.total).toBeLessThanOrEqual(full.total);
            expect(answer.message).toContain(`of at least ${answer.total} results`);
          } else {
            expect(answer.total).toBe(full.total);
            expect(answer.message).toBe(full.message);
          }
        },
      ),
      { numRuns: 120 },
    );
    // Not a law that holds by never applying: some answers did stop short of scoring every library.
    expect(lowerBounds).toBeGreaterThan(5);
  });

  it('visits every result once when paging on by nextOffset', async () => {
    const question = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.nat(stores.length - 1), question, fc.integer({ min: 1, max: 3 }), async (s, topic, limit) => {
        const { catalogued, plain } = stores[s] as Stores;
        const all = await searchAll(plain, topic, { limit: 1000, format: 'index' });
        const seen: string[] = [];
        let offset: number | undefined = 0;
        for (let pages = 0; offset !== undefined && pages < 1000; pages++) {
          const page: SearchResponse = await searchAll(catalogued, topic, { limit, offset, format: 'index' });
          for (const r of page.results) seen.push(`${r.library} ${r.path} ${r.breadcrumb.join('/')}`);
          offset = page.nextOffset;
        }
        expect(seen).toEqual(all.results.map((r) => `${r.library} ${r.path} ${r.breadcrumb.join('/')}`));
      }),
      { numRuns: 40 },
    );
  });
});
