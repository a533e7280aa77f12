import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDependency } from './dependencies.js';
import { stageDependencyDocs } from './dependency-docs.js';

// Each part of a package's docs (README, docs folder, API pages, the @types join) fails alone: installed packages
// laid out on disk, one per way a part breaks, staged as sync stages them.
let dir: string;

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

const GOOD_TYPES = '/** Says hello. */\nexport declare function hello(): void;\n';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-stage-parts-'));
  await write(path.join(dir, 'node_modules'), {
    // A manifest TypeScript cannot read: the API pages fail, the README and docs folder do not.
    'broken/package.json': '{ "name": "broken", "version": "1.0.0", ',
    'broken/README.md': '# broken\n\nUse `broken()` to break things.\n',
    'broken/docs/guide.md': '# Guide\n\nHow to break things.\n',
    'broken/index.d.ts': GOOD_TYPES,
    // Its @types package cannot be read: the package's own declarations still make its API page.
    'typed/package.json': JSON.stringify({ name: 'typed', version: '2.0.0', types: 'index.d.ts' }),
    'typed/index.d.ts': GOOD_TYPES,
    '@types/typed/package.json': '{ not json',
    '@types/typed/index.d.ts': '/** From the types package. */\nexport declare function typed(): void;\n',
    // Nothing but a manifest that cannot be read: nothing to build, and the reason is the failure, not "no docs".
    'bare/package.json': '{',
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function dependency(name: string, types?: string): InstalledDependency {
  const at = (n: string) => path.join(dir, 'node_modules', ...n.split('/'));
  return {
    name,
    version: '1.0.0',
    dir: at(name),
    ecosystem: 'npm',
    dev: false,
    ...(types ? { types: { name: types, version: '1.0.0', dir: at(types) } } : {}),
  };
}

async function filesOf(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('stageDependencyDocs, part by part', () => {
  it('keeps the README and docs folder when the API pages throw, and says what was left out and why', async () => {
    const staged = await stageDependencyDocs(dependency('broken'));
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(await filesOf(staged.value.root)).toEqual(['README.md', 'docs/guide.md']);
      expect(await readFile(path.join(staged.value.root, 'README.md'), 'utf8')).toContain('Use `broken()`');
      expect(staged.value.warnings).toHaveLength(1);
      expect(staged.value.warnings[0]).toMatch(/^its API pages were left out: .*JSON/);
    } finally {
      await staged.value.dispose();
    }
  });

  it('builds the API from the package itself when its @types package fails', async () => {
    const staged = await stageDependencyDocs(dependency('typed', '@types/typed'));
    if (!staged.ok) throw new Error(staged.error);
    try {
      const api = await readFile(path.join(staged.value.root, 'api/index.md'), 'utf8');
      expect(api).toContain('## hello');
      expect(api).not.toContain('From the types package');
      // The provenance names only what it was built from.
      expect(staged.value.source).toBe('npm:typed@1.0.0');
      expect(staged.value.warnings).toHaveLength(1);
      expect(staged.value.warnings[0]).toMatch(/^the API from @types\/typed was left out: .*JSON/);
    } finally {
      await staged.value.dispose();
    }
  });

  it('gives the failures as the reason when no part could be staged', async () => {
    const staged = await stageDependencyDocs(dependency('bare'));
    expect(staged.ok).toBe(false);
    if (staged.ok) return;
    expect(staged.error).toMatch(/^its API pages were left out: .*JSON/);
  });
});
