// Hybrid retrieval, measured for speed only: the models given are random-weight
// models of a real model's shape (see packages/embed/scripts), so their vectors
// and scores mean nothing and quality cannot be measured with them; their CPU
// time and memory are those of the real model.
import { link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Embedder, openEmbedder, openReranker } from '@docs/embed';
import { embedPackage } from '@docs/ingest';
import { getDocs, heldModels, searchAll } from '@docs/search';
import { type InstalledPackage, PackageStore, sectionPassage, writePackage } from '@docs/store';

interface Question {
  readonly query: string;
  readonly library: string | null;
}

export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly n: number;
}

type Measure = (samples: readonly number[]) => Latency;
type Timed = (fn: () => Promise<unknown>) => Promise<number>;

const rssMb = () => process.memoryUsage().rss / 1e6;

/**
 * One embedding model's rows: `docs embed` throughput on one library, query
 * embedding, hybrid getDocs and searchAll over every library (their vectors
 * filled with random unit vectors of the model's size under the model's id:
 * a search's cost does not depend on the values), re-ranking 20 and 50
 * passages, and the memory the model and the vectors take.
 */
export async function benchHybrid(options: {
  readonly installed: readonly InstalledPackage[];
  readonly work: string;
  readonly questions: readonly Question[];
  readonly embed: string;
  readonly rerank: string | undefined;
  readonly runs: number;
  readonly latency: Measure;
  readonly timed: Timed;
  readonly table: Array<[string, string]>;
}): Promise<Record<string, unknown>> {
  const { installed, questions, runs, latency, timed, table } = options;
  const label = path.basename(options.embed);
  const home = path.join(options.work, `hybrid-${label}`);
  await mkdir(home, { recursive: true });
  for (const pkg of installed) await link(pkg.file, path.join(home, path.basename(pkg.file)));
  const store = new PackageStore(home);
  const results: Record<string, unknown> = { model: options.embed };
  const before = rssMb();
  const embedder = await openEmbedder(options.embed);
  try {
    await embedder.embed(['warm up'], 'query');
    results.modelRssMb = rssMb() - before;

    // `docs embed` on the smallest library: the real path, job and all.
    const sized = [];
    for (const pkg of await store.list()) sized.push({ pkg, sections: (await store.reader(pkg).stats()).chunks });
    sized.sort((a, b) => a.sections - b.sections);
    const smallest = sized[0];
    if (!smallest) throw new Error('no packages to embed');
    const embedded = await embedPackage(store, smallest.pkg, embedder);
    const perSecond = embedded.embedded / (embedded.elapsedMs / 1000);
    results.embed = { library: smallest.pkg.name, sections: embedded.embedded, ms: embedded.elapsedMs, perSecond };
    table.push([
      `${label}: docs embed`,
      `${perSecond.toFixed(1)} sections/s (${smallest.pkg.name}, ${embedded.embedded} sections in ${(embedded.elapsedMs / 1000).toFixed(1)} s)`,
    ]);

    // The other libraries get random unit vectors under the same id: searching them costs what real ones would.
    for (const { pkg } of sized.slice(1)) await fillRandom(store, pkg, embedder);
    const sections = sized.reduce((sum, s) => sum + s.sections, 0);

    const queries = questions.map((q) => q.query);
    for (const q of queries.slice(0, 3)) await embedder.embed([q], 'query');
    const queryMs: number[] = [];
    for (let run = 0; run < runs; run++)
      for (const q of queries) queryMs.push(await timed(() => embedder.embed([q], 'query')));
    const query = latency(queryMs);
    results.queryEmbedding = query;
    table.push([`${label}: embed one query`, `p50 ${query.p50.toFixed(1)} ms, p95 ${query.p95.toFixed(1)} ms`]);

    const models = heldModels({ embedder });
    const single = questions.filter((q): q is Question & { library: string } => q.library !== null);
    const beforeVectors = rssMb();
    for (const q of questions) await searchAll(store, q.query, { models });
    results.vectorsRssMb = rssMb() - beforeVectors;
    const getMs: number[] = [];
    const allMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      for (const q of single) getMs.push(await timed(() => getDocs(store, q.library, q.query, { models })));
      for (const q of questions) allMs.push(await timed(() => searchAll(store, q.query, { models })));
    }
    const answer = await searchAll(store, questions[0]?.query ?? 'x', { models });
    if (answer.retrieval.mode !== 'hybrid')
      throw new Error(`hybrid did not answer: ${JSON.stringify(answer.retrieval)}`);
    const get = latency(getMs);
    const all = latency(allMs);
    results.getDocs = get;
    results.searchAll = { libraries: sized.length, sections, ...all };
    table.push([
      `${label}: hybrid getDocs`,
      `p50 ${get.p50.toFixed(1)} ms, p95 ${get.p95.toFixed(1)} ms (query embedding included)`,
    ]);
    table.push([
      `${label}: hybrid searchAll, ${sized.length} libraries`,
      `p50 ${all.p50.toFixed(1)} ms, p95 ${all.p95.toFixed(1)} ms (${sections} sections)`,
    ]);
    table.push([
      `${label}: memory`,
      `model ${Number(results.modelRssMb).toFixed(0)} MB, vectors of ${sections} sections ${Number(results.vectorsRssMb).toFixed(0)} MB (RSS growth)`,
    ]);
  } finally {
    await embedder.close();
    await store.close();
  }
  if (options.rerank) results.rerank = await benchRerank(options.rerank, installed, runs, latency, timed, table);
  return results;
}

async function benchRerank(
  spec: string,
  installed: readonly InstalledPackage[],
  runs: number,
  latency: Measure,
  timed: Timed,
  table: Array<[string, string]>,
): Promise<Record<string, unknown>> {
  const label = path.basename(spec);
  const store = new PackageStore(path.dirname(installed[0]?.file ?? '.'));
  const first = installed[0];
  if (!first) throw new Error('no packages');
  const reader = store.reader(first);
  const hits = await reader.chunkHits(Array.from({ length: 50 }, (_, i) => i + 1));
  const contents = await reader.chunkContents(hits.map((h) => h.id));
  const passages = hits.map((h) =>
    sectionPassage({ title: h.title, breadcrumb: h.breadcrumb, content: contents.get(h.id) ?? '' }),
  );
  await store.close();
  const reranker = await openReranker(spec);
  const results: Record<string, unknown> = { model: spec };
  try {
    await reranker.score('warm up', passages.slice(0, 2));
    for (const n of [20, 50]) {
      const samples: number[] = [];
      for (let run = 0; run < Math.max(3, runs); run++) {
        samples.push(
          await timed(() => reranker.score('how do I configure retries for failed requests', passages.slice(0, n))),
        );
      }
      const measured = latency(samples);
      results[`top${n}`] = measured;
      table.push([
        `${label}: re-rank ${n} candidates`,
        `p50 ${measured.p50.toFixed(0)} ms, p95 ${measured.p95.toFixed(0)} ms`,
      ]);
    }
  } finally {
    await reranker.close();
  }
  return results;
}

async function fillRandom(store: PackageStore, pkg: InstalledPackage, embedder: Embedder): Promise<void> {
  const job = await store.vectorJob(pkg, { id: embedder.id, dimensions: embedder.dimensions });
  for (let batch = job.next(1000); batch.length > 0; batch = job.next(1000)) {
    job.save(batch.map((s) => ({ id: s.id, vector: randomUnit(embedder.dimensions) })));
  }
  await job.finish();
}

function randomUnit(dimensions: number): Float32Array {
  const vector = Float32Array.from({ length: dimensions }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...vector);
  return vector.map((v) => v / norm);
}

/**
 * Brute-force cosine over one package of `sections` random vectors of
 * `dimensions`: the first search (reading every vector) and a warm one, and
 * the memory the vectors take. Where this gets slow is where an index
 * (sqlite-vec, HNSW) would pay.
 */
export async function benchBruteForce(options: {
  readonly work: string;
  readonly sizes: readonly number[];
  readonly dimensions: number;
  readonly latency: Measure;
  readonly timed: Timed;
  readonly table: Array<[string, string]>;
}): Promise<Record<string, unknown>> {
  const { dimensions, latency, timed, table } = options;
  const results: Record<string, unknown> = {};
  for (const size of options.sizes) {
    const home = path.join(options.work, `brute-${size}`);
    const store = new PackageStore(home);
    await mkdir(home, { recursive: true });
    const file = path.join(options.work, `brute-${size}.db`);
    const perDocument = 50;
    await writePackage(
      file,
      { name: `synthetic${size}`, version: '1.0.0' },
      (function* () {
        for (let d = 0; d < size / perDocument; d++) {
          yield {
            path: `page-${d}.md`,
            title: `Page ${d}`,
            content: '',
            chunks: Array.from({ length: perDocument }, (_, c) => ({
              breadcrumb: [`Section ${c}`],
              level: 1,
              content: `Section ${c} of page ${d}.`,
              tokens: 6,
            })),
          };
        }
      })(),
    );
    const { installed } = await store.install(file, { move: true });
    const id = `random:synthetic:${dimensions}`;
    await fillRandom(store, installed, { id, dimensions } as Embedder);
    const pkg = (await store.list())[0] as InstalledPackage;
    const query = randomUnit(dimensions);
    const before = rssMb();
    const firstMs = await timed(() => store.reader(pkg).nearest(query, { limit: 50 }));
    const memory = rssMb() - before;
    const samples: number[] = [];
    for (let run = 0; run < 20; run++)
      samples.push(await timed(() => store.reader(pkg).nearest(randomUnit(dimensions), { limit: 50 })));
    const warm = latency(samples);
    results[size] = { firstMs, warm, vectorsRssMb: memory, fileMb: pkg.bytes / 1e6 };
    table.push([
      `brute-force cosine, ${size} × ${dimensions}`,
      `warm p50 ${warm.p50.toFixed(1)} ms, first (reads the vectors) ${firstMs.toFixed(0)} ms, +${memory.toFixed(0)} MB RSS, package ${(pkg.bytes / 1e6).toFixed(0)} MB`,
    ]);
    await store.close();
  }
  return results;
}
