import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentInput, type InstalledPackage, inspectPackageFile, PackageStore, writePackage } from './index.js';

let dir: string;
let store: PackageStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-vectors-'));
  store = new PackageStore(path.join(dir, 'home'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const chunk = (content: string) => ({ breadcrumb: [content.split(' ')[0] as string], level: 1, content, tokens: 3 });
const docs: DocumentInput[] = [
  { path: 'a.md', title: 'A', content: 'a', chunks: [chunk('alpha one'), chunk('alpha two')] },
  { path: 'b.md', title: 'B', content: 'b', chunks: [chunk('beta one'), chunk('beta two'), chunk('beta three')] },
];

async function installed(): Promise<InstalledPackage> {
  const file = path.join(dir, 'build.db');
  await writePackage(file, { name: 'demo', version: '1.0.0' }, docs);
  return (await store.install(file)).installed;
}

/** A 3-dimensional vector per section id, different for each: the store only keeps and compares them. */
const vectorOf = (id: number) => Float32Array.from([Math.cos(id), Math.sin(id), id % 2]);
const embedder = { id: 'test:axes:3', dimensions: 3 };

async function embedAll(pkg: InstalledPackage, batch = 2): Promise<InstalledPackage> {
  const job = await store.vectorJob(pkg, embedder);
  for (let sections = job.next(batch); sections.length > 0; sections = job.next(batch)) {
    job.save(sections.map((s) => ({ id: s.id, vector: vectorOf(s.id) })));
  }
  return job.finish();
}

describe('vectors in a package', () => {
  it('a new package has none; a finished job installs one per section with the embedder id', async () => {
    const pkg = await installed();
    expect(await store.reader(pkg).embedder()).toBeUndefined();
    const embedded = await embedAll(pkg);
    const reader = store.reader(embedded);
    expect(await reader.embedder()).toEqual(embedder);
    expect(await inspectPackageFile(embedded.file)).toMatchObject({ name: 'demo', formatVersion: 3 });
    // Nothing of the job is left beside the package.
    expect((await readdir(store.dir)).filter((f) => f !== '.catalog')).toEqual(['demo@1.0.0.db']);
    const nearest = await reader.nearest(vectorOf(4), { limit: 2 });
    expect(nearest[0]).toMatchObject({ id: 4 });
    expect(nearest[0]?.similarity).toBeCloseTo(1, 5);
    expect(nearest).toHaveLength(2);
    expect((nearest[0]?.similarity ?? 0) >= (nearest[1]?.similarity ?? 0)).toBe(true);
    const all = await reader.nearest(vectorOf(1), { limit: 99 });
    expect(all.map((h) => h.id).sort()).toEqual([1, 2, 3, 4, 5]);
    const similarities = await reader.similarities(vectorOf(2), [2, 5, 77]);
    expect([...similarities.keys()]).toEqual([2, 5]);
    expect(similarities.get(2)).toBeCloseTo(1, 5);
    await expect(reader.nearest(Float32Array.from([1, 0]), { limit: 1 })).rejects.toThrow(/2 dimensions.*3/);
    expect(await reader.chunkHits([5, 1, 404])).toMatchObject([
      { id: 5, path: 'b.md', breadcrumb: ['beta'], score: 0 },
      { id: 1, path: 'a.md', score: 0 },
    ]);
  });

  it('the package answers as before while a job runs, and a job carries on where a closed one stopped', async () => {
    const pkg = await installed();
    const first = await store.vectorJob(pkg, embedder);
    expect(first.total).toBe(5);
    const sections = first.next(3);
    expect(sections.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(sections[2]).toEqual({ id: 3, title: 'B', breadcrumb: ['beta'], content: 'beta one' });
    first.save(sections.map((s) => ({ id: s.id, vector: vectorOf(s.id) })));
    await first.close();
    expect(await store.reader(pkg).embedder()).toBeUndefined();
    const second = await store.vectorJob(pkg, embedder);
    expect(second.done).toBe(3);
    expect(second.next(10).map((s) => s.id)).toEqual([4, 5]);
    await expect(second.finish()).rejects.toThrow(/2 sections have no vector yet/);
    expect((await readdir(store.dir)).filter((f) => f.endsWith('.vectors'))).toHaveLength(1);
    // Another embedder does not inherit the work.
    const other = await store.vectorJob(pkg, { id: 'test:other:3', dimensions: 3 });
    expect(other.done).toBe(0);
    await other.close();
  });

  it('refuses a vector of the wrong size or with a value that is not finite, keeping what was saved', async () => {
    const pkg = await installed();
    const job = await store.vectorJob(pkg, embedder);
    expect(() => job.save([{ id: 1, vector: Float32Array.from([1, 0]) }])).toThrow(/2 dimensions.*should give 3/);
    expect(() => job.save([{ id: 1, vector: Float32Array.from([1, Number.NaN, 0]) }])).toThrow(/not finite/);
    expect(job.done).toBe(0);
    await job.close();
    await expect(store.vectorJob(pkg, { id: 'x', dimensions: 0 })).rejects.toThrow(/dimensions/);
  });

  it('embedding again with another model replaces the vectors', async () => {
    const pkg = await embedAll(await installed());
    const job = await store.vectorJob(pkg, { id: 'test:flat:2', dimensions: 2 });
    job.save(job.next(10).map((s) => ({ id: s.id, vector: Float32Array.from([1, s.id]) })));
    const replaced = await job.finish();
    expect(await store.reader(replaced).embedder()).toEqual({ id: 'test:flat:2', dimensions: 2 });
  });

  it.each([
    [
      'a vector of the wrong length',
      'UPDATE chunk_vectors SET vector = zeroblob(8) WHERE chunk_id = 2',
      /section 2 is not 3/,
    ],
    [
      'a value that is not finite',
      "UPDATE chunk_vectors SET vector = x'0000c07f0000803f0000803f' WHERE chunk_id = 3",
      /not finite/,
    ],
    ['a section without a vector', 'DELETE FROM chunk_vectors WHERE chunk_id = 1', /1 sections have no vector/],
    ['vectors without an embedder', 'DELETE FROM embedder', /5 vectors but no embedder/],
    ['two embedders', "INSERT INTO embedder VALUES ('b', 3)", /2 embedder rows/],
  ])('a package file with %s is refused', async (_case, statement, reason) => {
    const pkg = await embedAll(await installed());
    const file = path.join(dir, 'broken.db');
    await copyFile(pkg.file, file);
    const raw = new Database(file);
    raw.exec(statement);
    raw.close();
    await expect(inspectPackageFile(file)).rejects.toThrow(reason);
  });
});

describe('removing a package', () => {
  it('removes the work file a vector job left unfinished (as a killed docs embed leaves it)', async () => {
    const pkg = await installed();
    const job = await store.vectorJob(pkg, embedder);
    const sections = job.next(2);
    job.save(sections.map((s) => ({ id: s.id, vector: vectorOf(s.id) })));
    await job.close();
    const home = path.join(dir, 'home');
    expect((await readdir(home)).filter((f) => f.includes('.vectors'))).toHaveLength(1);
    await store.remove('demo@1.0.0');
    expect((await readdir(home)).filter((f) => f.includes('demo'))).toEqual([]);
  });

  it("keeps another package's work files, even one whose name starts the same", async () => {
    const pkg = await installed();
    const other = path.join(dir, 'other.db');
    await writePackage(other, { name: 'demo', version: '1.0.0-rc.1' }, docs);
    const rc = (await store.install(other)).installed;
    for (const p of [pkg, rc]) {
      const job = await store.vectorJob(p, embedder);
      job.save(job.next(1).map((s) => ({ id: s.id, vector: vectorOf(s.id) })));
      await job.close();
    }
    await store.remove('demo@1.0.0');
    const left = (await readdir(path.join(dir, 'home'))).filter((f) => f.includes('.vectors'));
    expect(left).toEqual([expect.stringMatching(/^\.demo@1\.0\.0-rc\.1\.db\.[0-9a-f]{12}\.vectors$/)]);
  });
});
