import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EmbedError, localEmbedderWithId, openEmbedder, specForGraphOf } from './index.js';

// Which ONNX graph a local embedder runs, and that its id says so: the fixture model laid out with a second graph,
// a real one (a copy) or one that cannot load (so a test sees which file was opened).
const fixture = fileURLToPath(new URL('../fixtures/tiny-embedder', import.meta.url));
let root: string;

/** A models directory holding tiny-embedder with `onnx/model_quantized.onnx` as given. */
function modelsWith(name: string, quantized: 'copy' | 'broken' | 'none'): { models: string; dir: string } {
  const models = path.join(root, name);
  const dir = path.join(models, 'tiny-embedder');
  mkdirSync(models, { recursive: true });
  cpSync(fixture, dir, { recursive: true });
  const file = path.join(dir, 'onnx', 'model_quantized.onnx');
  if (quantized === 'copy') copyFileSync(path.join(dir, 'onnx', 'model.onnx'), file);
  if (quantized === 'broken') writeFileSync(file, 'not an ONNX graph');
  return { models, dir };
}

async function idOf(spec: string, models: string): Promise<string> {
  const embedder = await openEmbedder(spec, { modelsDir: models, env: {} });
  try {
    expect((await embedder.embed(['a section'], 'document'))[0]?.length).toBe(32);
    return embedder.id;
  } finally {
    await embedder.close();
  }
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'docs-embed-graphs-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the ONNX graph of a local embedder', () => {
  test('a folder with an int8 graph runs it by default, and the id names it', async () => {
    const { models, dir } = modelsWith('both', 'copy');
    expect(await idOf(dir, models)).toBe('transformers:tiny-embedder@q8:32');
    expect(await idOf('tiny-embedder', models)).toBe('transformers:tiny-embedder@q8:32');
    // Its stored id opens the same graph again, and so does the spec the search finds for it.
    expect(await idOf('transformers:tiny-embedder@q8:32', models)).toBe('transformers:tiny-embedder@q8:32');
    const found = localEmbedderWithId('transformers:tiny-embedder@q8:32', { modelsDir: models, env: {} });
    expect(found).toBe(`transformers:${dir}@q8:32`);
    expect(await idOf(found as string, models)).toBe('transformers:tiny-embedder@q8:32');
  });

  test('an id without a graph (every id made before) still opens the full-precision graph it was made with', async () => {
    const { models, dir } = modelsWith('broken', 'broken');
    // The int8 file cannot load: opening by default tries it, and says which model failed.
    const error = await openEmbedder(dir, { modelsDir: models, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedError);
    expect((error as Error).message).toContain(dir);
    expect(await idOf('transformers:tiny-embedder:32', models)).toBe('transformers:tiny-embedder:32');
    expect(await idOf(`${dir}@fp32`, models)).toBe('transformers:tiny-embedder:32');
    const found = localEmbedderWithId('transformers:tiny-embedder:32', { modelsDir: models, env: {} });
    expect(found).toBe(`transformers:${dir}:32`);
    expect(await idOf(found as string, models)).toBe('transformers:tiny-embedder:32');
  });

  test('a folder with one graph keeps the id it always had; naming a graph it lacks is a clear error', async () => {
    const { models, dir } = modelsWith('one', 'none');
    expect(await idOf(dir, models)).toBe('transformers:tiny-embedder:32');
    const error = await openEmbedder('tiny-embedder@q8', { modelsDir: models, env: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not-found' });
    expect((error as Error).message).toMatch(/has no q8 graph \(onnx\/\): it holds fp32/);
  });

  test('a package embedded with the other graph of the configured model is searched with that graph', async () => {
    const { models, dir } = modelsWith('reopen', 'copy');
    const fp32 = specForGraphOf(dir, 'transformers:tiny-embedder@q8:32', 'transformers:tiny-embedder:32');
    expect(fp32).toBe(`transformers:${dir}:32`);
    expect(await idOf(fp32 as string, models)).toBe('transformers:tiny-embedder:32');
    const q8 = specForGraphOf('tiny-embedder', 'transformers:tiny-embedder:32', 'transformers:tiny-embedder@q8:32');
    expect(q8).toBe('transformers:tiny-embedder@q8:32');
    expect(await idOf(q8 as string, models)).toBe('transformers:tiny-embedder@q8:32');
  });

  test.each([
    ['another model', 'transformers:other-model:32'],
    ['another length', 'transformers:tiny-embedder:64'],
    ['an endpoint', 'openai:tiny-embedder:32'],
    ['an unknown graph', 'transformers:tiny-embedder@evil:32'],
    ['the same id', 'transformers:tiny-embedder@q8:32'],
  ])('a stored id of %s picks nothing', (_, stored) => {
    expect(specForGraphOf('tiny-embedder', 'transformers:tiny-embedder@q8:32', stored)).toBeUndefined();
  });
});
