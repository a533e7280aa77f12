import { copyFileSync, cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbedder } from '@docs/embed';
import { type DocumentInput, PackageStore, sectionPassage, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocs, openModels } from './index.js';

// The configured embedder runs its folder's int8 graph; a package whose vectors were made with the full-precision
// graph of the same model (every package embedded before) must still answer hybrid, with that graph. The fixture
// model of @docs/embed, laid out with a second graph (a copy), real packages and a real store.
const fixture = fileURLToPath(new URL('../../embed/fixtures/tiny-embedder', import.meta.url));

const cors: DocumentInput = {
  path: 'cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [
    { breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 10 },
    { breadcrumb: ['CORS', 'Options'], level: 2, content: 'Set allowed origins and methods.', tokens: 8 },
  ],
};

let dir: string;
let model: string;
let store: PackageStore;

/** Installs `name` with vectors made by `spec`; returns the id they carry. */
async function embedded(name: string, spec: string): Promise<string> {
  const file = path.join(dir, `${name}.db`);
  await writePackage(file, { name, version: '1.0.0' }, [cors]);
  const { installed } = await store.install(file, { move: true });
  const embedder = await openEmbedder(spec);
  try {
    const job = await store.vectorJob(installed, { id: embedder.id, dimensions: embedder.dimensions });
    const sections = job.next(100);
    const vectors = await embedder.embed(sections.map(sectionPassage), 'document');
    job.save(sections.map((s, i) => ({ id: s.id, vector: vectors[i] as Float32Array })));
    await job.finish();
    return embedder.id;
  } finally {
    await embedder.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-search-graphs-'));
  model = path.join(dir, 'models', 'tiny-embedder');
  cpSync(fixture, model, { recursive: true });
  copyFileSync(path.join(model, 'onnx', 'model.onnx'), path.join(model, 'onnx', 'model_quantized.onnx'));
  store = new PackageStore(path.join(dir, 'home'));
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('vectors of the configured model made with its other graph', () => {
  it('are searched with the graph they were made with', async () => {
    expect(await embedded('before', `${model}@fp32`)).toBe('transformers:tiny-embedder:32');
    expect(await embedded('after', model)).toBe('transformers:tiny-embedder@q8:32');
    const models = openModels({ embed: model, config: { modelsDir: path.join(dir, 'none'), env: {} } });
    try {
      for (const [library, id] of [
        ['before', 'transformers:tiny-embedder:32'],
        ['after', 'transformers:tiny-embedder@q8:32'],
      ] as const) {
        const response = await getDocs(store, library, 'enable CORS', { models });
        expect(response.retrieval).toEqual({ mode: 'hybrid', embedder: id });
      }
    } finally {
      await models.close();
    }
  });
});
