import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocs, searchAll } from './index.js';

// A thin package (a README build of the newest version) beside a rich one
// (the full docs of an older version), as `docs sync` leaves them.
let dir: string;
let store: PackageStore;

function doc(file: string, title: string, text: string): DocumentInput {
  return {
    path: file,
    title,
    content: `# ${title}\n\n${text}`,
    chunks: [{ breadcrumb: [title], level: 1, content: text, tokens: Math.ceil(text.length / 4) }],
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-versions-'));
  store = new PackageStore(path.join(dir, 'home'));
  const thin = [doc('README.md', 'schema', 'Install schema and parse input. Validation errors are thrown on install.')];
  const rich = [
    doc('api/discriminated-union.md', 'Discriminated unions', 'Use discriminatedUnion to pick a schema by a key.'),
    ...Array.from({ length: 150 }, (_, i) =>
      doc(
        `guide/page-${i}.md`,
        `Guide ${i}`,
        `Install step ${i}: how to install and configure schema number ${i}. `.repeat(20),
      ),
    ),
  ];
  const packages: Array<[string, DocumentInput[]]> = [
    ['4.6.7', thin],
    ['4.4.3', rich],
  ];
  for (const [version, docs] of packages) {
    const file = path.join(dir, `schema-${version}.db`);
    await writePackage(file, { name: 'schema', version }, docs);
    await store.install(file, { move: true });
  }
  const other = path.join(dir, 'other.db');
  await writePackage(other, { name: 'other', version: '1.0.0' }, [doc('README.md', 'other', 'Nothing to see.')]);
  await store.install(other, { move: true });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('thin and rich versions', () => {
  it('names the installed version that matches when the one chosen matches nothing', async () => {
    const answer = await getDocs(store, 'schema', 'discriminatedUnion');
    expect(answer.status).toBe('no-match');
    expect(answer.searched).toEqual(['schema@4.6.7']);
    expect(answer.otherVersions).toEqual([{ library: 'schema@4.4.3', total: 1 }]);
    expect(answer.message).toContain('Another installed version matches: schema@4.4.3 (1 matching section)');
  });

  it('names a far richer version that matches far more, even when the chosen one matches a little', async () => {
    const answer = await getDocs(store, 'schema', 'install');
    expect(answer.status).toBe('ok');
    expect(answer.results.every((r) => r.library === 'schema@4.6.7')).toBe(true);
    expect(answer.otherVersions?.[0]?.library).toBe('schema@4.4.3');
    expect(answer.otherVersions?.[0]?.total).toBeGreaterThanOrEqual(2 * answer.total);
    expect(answer.message).toContain('Another installed version has fuller docs: schema@4.4.3');
  });

  it('adds nothing when the richer version is the one asked for, or the answer is as good', async () => {
    const rich = await getDocs(store, 'schema@4.4.3', 'discriminatedUnion');
    expect(rich.otherVersions).toBeUndefined();
    expect(rich.project).toBeUndefined();
    const single = await getDocs(store, 'other', 'nothing');
    expect(single.otherVersions).toBeUndefined();
  });
});

describe('the version the project installs', () => {
  it('answers a bare name from the version the project installs when it is installed', async () => {
    const answer = await getDocs(store, 'schema', 'discriminatedUnion', { projectVersion: '4.4.3' });
    expect(answer.searched).toEqual(['schema@4.4.3']);
    expect(answer.results[0]?.path).toBe('api/discriminated-union.md');
    expect(answer.project).toBeUndefined();
  });

  it('keeps a version asked for explicitly', async () => {
    const answer = await getDocs(store, 'schema@4.6.7', 'install', { projectVersion: '4.4.3' });
    expect(answer.searched).toEqual(['schema@4.6.7']);
  });

  it('answers from the highest when the project version is not installed, and says how to add it', async () => {
    const answer = await getDocs(store, 'schema', 'install', { projectVersion: '5.0.0' });
    expect(answer.searched).toEqual(['schema@4.6.7']);
    expect(answer.project).toEqual({ library: 'schema@5.0.0', installed: false });
    expect(answer.message).toContain(
      'The project uses schema@5.0.0, which is not installed (answered from schema@4.6.7): add it with docs sync, or docs add.',
    );
  });

  it('searches every library at the version the project installs', async () => {
    const projectVersions = new Map([['schema', '4.4.3']]);
    expect((await searchAll(store, 'discriminatedUnion', { projectVersions })).searched).toEqual([
      'other@1.0.0',
      'schema@4.4.3',
    ]);
    expect((await searchAll(store, 'discriminatedUnion')).searched).toEqual(['other@1.0.0', 'schema@4.6.7']);
    const named = await searchAll(store, 'discriminatedUnion', { libraries: ['schema'], projectVersions });
    expect(named.searched).toEqual(['schema@4.4.3']);
  });
});
