import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type InstalledPackage, type PackageReader, PackageStore, writePackage } from '@docs/store';
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

// Words of several forms: synonyms (a library may hold `req` where the question says `request`) and names of two
// tokens (`snake_case` is a phrase to the index). The catalog's per-token counts cannot tell how many chunks hold
// such a term, so these libraries' counts are read from their own index before they are deferred (countedExactly).
const FORMS = [
  ...WORDS.slice(0, 8),
  'req',
  'request',
  'db',
  'database',
  'databases',
  'fail',
  'failed',
  'failure',
  'snake_case',
  'snake',
  'case',
];

/** A store of libraries made from `seed`: random pages of random sections over WORDS, installed (with catalog). */
interface Stores {
  readonly catalogued: PackageStore;
  /** The same files without a catalog: every library is opened and scored. */
  readonly plain: PackageStore;
  /** The words its libraries are written in. */
  readonly words: readonly string[];
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

async function makeStores(seed: number, words: readonly string[]): Promise<Stores> {
  const next = random(seed);
  const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)] as string);
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
  return { catalogued, plain: new PackageStore(path.join(home, 'plain')), words };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-lower-bound-'));
  for (const seed of [1, 2, 3, 4]) stores.push(await makeStores(seed, WORDS));
  for (const seed of [5, 6, 7]) stores.push(await makeStores(seed, FORMS));
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
    let formsLowerBounds = 0;
    const storeAndQuestion = fc.nat(stores.length - 1).chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc
          .array(fc.constantFrom(...(stores[s] as Stores).words), { minLength: 1, maxLength: 4 })
          .map((w) => w.join(' ')),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        storeAndQuestion,
        fc.integer({ min: 1, max: 4 }),
        fc.nat(6),
        fc.constantFrom('full' as const, 'index' as const),
        async ([s, topic], limit, offset, format) => {
          const { catalogued, plain, words } = stores[s] as Stores;
          const options = { limit, offset, format };
          const full = await searchAll(plain, topic, options);
          const answer = await searchAll(catalogued, topic, options);
          expect(pageOf(answer)).toEqual(pageOf(full));
          if (answer.totalIsLowerBound) {
            lowerBounds++;
            if (words === FORMS) formsLowerBounds++;
            expect(answer.total).toBeLessThanOrEqual(full.total);
            expect(answer.message).toContain(`of at least ${answer.total} results`);
          } else {
            expect(answer.total).toBe(full.total);
            expect(answer.message).toBe(full.message);
          }
        },
      ),
      { numRuns: 200 },
    );
    // Not a law that holds by never applying: some answers did stop short of scoring every library, among them
    // some whose words have several forms.
    expect(lowerBounds).toBeGreaterThan(5);
    expect(formsLowerBounds).toBeGreaterThan(2);
  });

  it('visits every result once when paging on by nextOffset', async () => {
    const storeAndQuestion = fc.nat(stores.length - 1).chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc
          .array(fc.constantFrom(...(stores[s] as Stores).words), { minLength: 1, maxLength: 3 })
          .map((w) => w.join(' ')),
      ),
    );
    await fc.assert(
      fc.asyncProperty(storeAndQuestion, fc.integer({ min: 1, max: 3 }), async ([s, topic], limit) => {
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

  it('leaves unscored a library whose words have several forms, as one whose counts the catalog knows', async () => {
    // Each library holds `request` and `req` (one term to a search: synonyms) in chunks of their own, so the catalog
    // cannot tell how many chunks hold the term; one library holds the question whole.
    const home = path.join(dir, 'forms');
    await mkdir(home, { recursive: true });
    const store = new ScoringStore(path.join(home, 'catalogued'));
    const chunk = (content: string) => ({ breadcrumb: [content], level: 1, content, tokens: 2 });
    for (let l = 0; l < 12; l++) {
      const contents = l === 5 ? ['zulu request', 'alpha', 'bravo'] : ['request alpha', 'req bravo', 'charlie'];
      const documents = contents.map((content, p) => ({
        path: `page-${p}.md`,
        title: `Page ${p}`,
        content: `# ${content}\n\n${content}`,
        chunks: [chunk(content)],
      }));
      const file = path.join(home, `build-${l}.db`);
      await writePackage(file, { name: `lib-${l}`, version: '1.0.0' }, documents);
      await store.install(file, { move: true });
    }
    await mkdir(path.join(home, 'plain'));
    for (const pkg of await store.list()) await link(pkg.file, path.join(home, 'plain', path.basename(pkg.file)));
    const plain = new PackageStore(path.join(home, 'plain'));
    try {
      const question = 'zulu request';
      expect(typeof termAlternatives('request')).not.toBe('string');
      const full = await searchAll(plain, question, { limit: 1 });
      const answer = await searchAll(store, question, { limit: 1 });
      expect(pageOf(answer)).toEqual(pageOf(full));
      expect(answer.results[0]?.library).toBe('lib-5@1.0.0');
      // The library holding the question whole and the few that could hold the most, scored first to set the bar;
      // the others' counts read, not scored.
      expect(store.scored.size).toBeLessThanOrEqual(5);
      expect(store.scored.has('lib-5')).toBe(true);
      expect(answer.total).toBe(full.total);
    } finally {
      await store.close();
      await plain.close();
    }
  });
});

/** A store that notes which libraries were scored (searched for their best sections), as against only counted. */
class ScoringStore extends PackageStore {
  readonly scored = new Set<string>();
  override reader(pkg: InstalledPackage): PackageReader {
    const reader = super.reader(pkg);
    const scored = this.scored;
    return new Proxy(reader, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'search') scored.add(pkg.name);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}
