import { copyFile, link, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileIdentity, PackageStore, packageFileName, writePackage } from '@docs/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeQuery, searchAll } from './index.js';

// Libraries that are one file under several names (hard links) are scored once for all of them: the answers must be
// those of the same libraries as files of their own (copies).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PAGES = ['README.md', 'CONTRIBUTING.md', 'docs/ranking.md', 'packages/rank/README.md'];

let dir: string;
/** Each page's package under three names, the three one file. */
let linked: PackageStore;
/** The same, each name a file of its own. */
let copied: PackageStore;
let vocabulary: string[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-same-file-'));
  await mkdir(path.join(dir, 'linked'));
  await mkdir(path.join(dir, 'copied'));
  const words = new Set<string>();
  for (const [i, page] of PAGES.entries()) {
    const markdown = await readFile(path.join(root, page), 'utf8');
    const built = path.join(dir, `build-${i}.db`);
    const sections = markdown
      .split(/\n(?=#{1,3} )/)
      .map((content) => content.trim())
      .filter((content) => content !== '')
      .map((content) => {
        const heading = /^#{1,3} (.*)/.exec(content)?.[1] ?? page;
        return { breadcrumb: [heading], level: 1, content, tokens: Math.ceil(content.length / 4) };
      });
    await writePackage(built, { name: `page${i}`, version: '1.0.0' }, [
      { path: page, title: page, content: markdown, chunks: sections },
    ]);
    for (const copy of ['a', 'b', 'c']) {
      const name = packageFileName({ name: `page${i}-${copy}`, version: '1.0.0' });
      await link(built, path.join(dir, 'linked', name));
      await copyFile(built, path.join(dir, 'copied', name));
    }
    for (const w of analyzeQuery(markdown).terms) words.add(w);
  }
  vocabulary = [...words].sort();
  linked = new PackageStore(path.join(dir, 'linked'));
  copied = new PackageStore(path.join(dir, 'copied'));
});

afterAll(async () => {
  await linked.close();
  await copied.close();
  await rm(dir, { recursive: true, force: true });
});

describe('searchAll over libraries that are one file', () => {
  it('knows linked names for one file, and copies for files of their own', async () => {
    const [a, b] = await linked.list();
    expect(a && b && fileIdentity(a)).toBe(a && b && fileIdentity(b));
    const [c, d] = await copied.list();
    expect(c && d && fileIdentity(c)).not.toBe(c && d && fileIdentity(d));
  });

  it('answers as it does when each name is a file of its own, whatever the question', async () => {
    const word = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...vocabulary) }, fc.string({ maxLength: 8 }));
    const question = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(
        question,
        fc.array(question, { maxLength: 2 }),
        fc.constantFrom('full' as const, 'index' as const),
        fc.constantFrom(undefined, 'lexical' as const, 'hybrid' as const),
        fc.integer({ min: 0, max: 6 }),
        async (topic, alternatives, format, mode, offset) => {
          const options = { alternatives, format, offset, ...(mode ? { mode } : {}) };
          const expected = await searchAll(copied, topic, options).catch((error: Error) => error.message);
          expect(await searchAll(linked, topic, options).catch((error: Error) => error.message)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
