import { link, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocumentInput, type InstalledPackage, type PackageReader, PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeQuery, openModels, searchAll } from './index.js';
import { termAlternatives } from './terms.js';

// Packages made of real documentation: this repository's own pages, one library each, split at their headings.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let dir: string;
/** The libraries a store opened, by name: a library the catalog answers for is never opened. */
class CountingStore extends PackageStore {
  readonly opened = new Set<string>();
  override reader(pkg: InstalledPackage): PackageReader {
    this.opened.add(pkg.name);
    return super.reader(pkg);
  }
}

/** A store whose catalog answers for the libraries holding none of a question's words. */
let catalogued: CountingStore;
/** The same package files, linked into a store that has no catalog: every library is searched. */
let plain: PackageStore;
let vocabulary: string[];

function sections(markdown: string): DocumentInput['chunks'] {
  const chunks: Array<DocumentInput['chunks'][number]> = [];
  let trail: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    const content = lines.join('\n').trim();
    if (content)
      chunks.push({ breadcrumb: trail, level: trail.length, content, tokens: Math.ceil(content.length / 4) });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!heading) {
      lines.push(line);
      continue;
    }
    flush();
    trail = [...trail.slice(0, (heading[1] as string).length - 1), heading[2] as string];
  }
  flush();
  return chunks;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-catalog-search-'));
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    'docs/ranking.md',
    'docs/benchmarks.md',
    ...(await readdir(path.join(root, 'packages'))).map((p) => `packages/${p}/README.md`),
  ];
  catalogued = new CountingStore(path.join(dir, 'catalogued'));
  const words = new Set<string>();
  for (const [i, page] of pages.entries()) {
    const markdown = await readFile(path.join(root, page), 'utf8').catch(() => undefined);
    if (markdown === undefined) continue;
    const file = path.join(dir, `build-${i}.db`);
    const name = page.replaceAll('/', '-').replace(/\.md$/, '').toLowerCase();
    await writePackage(file, { name, version: '1.0.0' }, [
      { path: page, title: page, content: markdown, chunks: sections(markdown) },
    ]);
    await catalogued.install(file, { move: true });
    for (const w of analyzeQuery(markdown).terms) words.add(w);
  }
  vocabulary = [...words].sort();
  await mkdir(path.join(dir, 'plain'));
  for (const pkg of await catalogued.list()) await link(pkg.file, path.join(dir, 'plain', path.basename(pkg.file)));
  plain = new PackageStore(path.join(dir, 'plain'));
});

/** How many of the libraries the catalog says hold none of the terms. */
async function holdingNone(installed: readonly InstalledPackage[], terms: readonly string[]): Promise<number> {
  const entries = await catalogued.catalogEntries(installed, terms);
  return [...entries.values()].filter((e) => !e.holds.some(Boolean)).length;
}

afterAll(async () => {
  await catalogued.close();
  await plain.close();
  await rm(dir, { recursive: true, force: true });
});

describe('searchAll with the store catalog', () => {
  it('leaves out the libraries holding none of the words, and says so nowhere', async () => {
    const installed = await catalogued.list();
    expect(installed.length).toBeGreaterThan(4);
    // A word some pages use and others do not: those are answered from the catalog.
    let word: string | undefined;
    for (const w of vocabulary) {
      const size = await holdingNone(installed, [w]);
      if (size > 0 && size < installed.length - 1) {
        word = w;
        break;
      }
    }
    if (word === undefined) throw new Error('every word is in every page or in one');
    expect(await plain.catalogEntries(await plain.list(), [word])).toEqual(new Map());
    const answer = await searchAll(catalogued, word);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.searched).toHaveLength(installed.length);
    expect(answer).toEqual(await searchAll(plain, word));
  });

  it('does not open a library holding only a common word when another holds the question whole', async () => {
    const installed = await catalogued.list();
    const holders = async (w: string) => installed.length - (await holdingNone(installed, [w]));
    let common: string | undefined;
    for (const w of vocabulary) {
      // A word with synonyms matches any of them, and the catalog cannot count those exactly: such a library's
      // counts are read from its index (it is opened, though not scored: see lower-bound.test.ts). The law is about
      // a plain word.
      const plainWord = typeof termAlternatives(w) === 'string';
      if (/^[a-z]+$/.test(w) && plainWord && (await holders(w)) === installed.length) {
        common = w;
        break;
      }
    }
    if (common === undefined) throw new Error('no plain word in every page');
    // A word of one library that one of its sections holds together with the common word: that library holds the
    // question whole, which is what the law is about (these pages change, so the pair is looked for, not assumed).
    let rare: string | undefined;
    for (const w of vocabulary) {
      if (!/^[a-z]+$/.test(w) || (await holders(w)) !== 1) continue;
      const together = await Promise.all(
        installed.map(
          async (pkg) =>
            (await catalogued.reader(pkg).search({ terms: [w, common], mode: 'all' }, { limit: 1 })).length,
        ),
      );
      if (together.some((n) => n > 0)) {
        rare = w;
        break;
      }
    }
    if (rare === undefined) throw new Error('no word in one page only that a section holds with the common word');
    const question = `${rare} ${common}`;
    catalogued.opened.clear();
    const answer = await searchAll(catalogued, question);
    // The library holding both, and the few that could hold the most searched first to set the bar; not the rest.
    expect(catalogued.opened.size).toBeLessThanOrEqual(4);
    expect(answer.searched).toHaveLength(installed.length);
    expect(answer).toEqual(await searchAll(plain, question));
    // As `docs search` and `docs serve` ask: with models that name no embedder and no re-ranker.
    const models = openModels({});
    catalogued.opened.clear();
    expect(await searchAll(catalogued, question, { models })).toEqual(answer);
    expect(catalogued.opened.size).toBeLessThanOrEqual(4);
    await models.close();
  });

  it('answers exactly as searching every library does, whatever the question', async () => {
    const word = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...vocabulary) },
      // Words no library holds, synonyms' keys, dotted and joined names, and punctuation.
      fc.constantFrom('zebraquux', 'print', 'websocket', 'vi.usefaketimers', 'snake_case', 'err_code', '—', '"', 'OR'),
      fc.string({ maxLength: 8 }),
    );
    const installed = await catalogued.list();
    let skipping = 0;
    let unopened = 0;
    const question = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(
        question,
        fc.array(question, { maxLength: 2 }),
        fc.constantFrom('full' as const, 'index' as const),
        fc.constantFrom(undefined, 'lexical' as const),
        async (topic, alternatives, format, mode) => {
          const terms = analyzeQuery(topic).terms;
          if ((await holdingNone(installed, terms)) > 0) skipping++;
          catalogued.opened.clear();
          const options = { alternatives, format, ...(mode ? { mode } : {}) };
          const expected = await searchAll(plain, topic, options).catch((error: Error) => error.message);
          const actual = await searchAll(catalogued, topic, options).catch((error: Error) => error.message);
          if (typeof actual === 'string' || typeof expected === 'string' || !actual.totalIsLowerBound) {
            expect(actual).toEqual(expected);
          } else {
            // It stopped scoring libraries that could not reach the page (issue 48): the page is the same, and the
            // total counts at least what it says.
            const { total, message, totalIsLowerBound: _, ...page } = actual;
            const { total: all, message: _full, ...fullPage } = expected;
            expect(page).toEqual(fullPage);
            expect(total).toBeLessThanOrEqual(all);
            expect(message).toContain(`of at least ${total} results`);
          }
          // Libraries that hold a word yet cannot enter the answer (what the others found leaves them none).
          const holding = installed.length - (await holdingNone(installed, terms));
          if (alternatives.length === 0 && catalogued.opened.size < holding) unopened++;
        },
      ),
      // Since searchAll stops opening libraries once the page is settled, about one question in 35 leaves a library
      // holding a word unopened: 400 runs make "none at all" a chance of about one in 100,000 (150 made it one in 100).
      { numRuns: 400 },
    );
    // The property is about questions the catalog answers for some libraries: most of them are.
    expect(skipping).toBeGreaterThan(130);
    // Some leave a library holding one of the words unopened (see the test below for one that must).
    expect(unopened).toBeGreaterThan(0);
  });
});
