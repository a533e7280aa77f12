import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageStore } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from './build.js';
import { countTokens } from './tokens.js';

// A section's stored tokens are what a search charges for it: an answer carries its heading beside its content,
// so the heading is counted too, or an honest build of a page with a 210 KB heading says "14 tokens".

describe('a section stored by a build', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docs-heading-tokens-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts its own heading in its tokens, however long the heading', async () => {
    const root = path.join(dir, 'docs');
    await mkdir(root, { recursive: true });
    const long = `Options ${'very long heading '.repeat(12_000)}`.trim();
    await writeFile(path.join(root, 'page.md'), `# Page\n\nIntro text here.\n\n## ${long}\n\nSet the option.\n`);
    const output = path.join(dir, 'headings@1.0.0.db');
    await buildPackage({ root, name: 'headings', version: '1.0.0', output, minSectionTokens: 0, workers: 0 });
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(output);
    const found = await store.resolve('headings');
    if (!found.ok) throw new Error('expected the package');
    const hits = await store.reader(found.value).search({ terms: ['option', 'intro'], mode: 'any' }, { limit: 10 });
    await store.close();
    const byLevel = (level: number) => hits.find((h) => h.level === level);
    expect(long.length).toBeGreaterThan(200_000);
    const section = byLevel(2);
    // Stored cut to a line (a longer one is refused where the package is shared), and counted as stored.
    const stored = section?.breadcrumb.at(-1) ?? '';
    expect(stored.length).toBeLessThanOrEqual(1000);
    expect(long.startsWith(stored.slice(0, -1))).toBe(true);
    expect(section?.tokens).toBe(countTokens('Set the option.') + countTokens(stored));
    expect(section?.tokens).toBeGreaterThan(150);
    const intro = byLevel(1);
    expect(intro?.tokens).toBe(countTokens('Intro text here.') + countTokens('Page'));
  });
});
