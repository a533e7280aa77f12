import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Embedder, EmbedError, openEmbedder, openReranker, type Reranker } from './index.js';
import { readModelFolder } from './model-folder.js';
import { keepClosingSeparator, loadRuntime } from './transformers-provider.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const embedderDir = path.join(fixtures, 'tiny-embedder');
const rerankerDir = path.join(fixtures, 'tiny-reranker');

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  return Math.max(...a.map((x, i) => Math.abs(x - (b[i] as number))));
}

const texts = [
  'How do I enable CORS on the server?',
  'Install the package with npm install.',
  'The token budget limits how much text a search returns, cutting the top hit at a paragraph boundary when it is too large.',
  'a',
  '',
];

describe('local embedder (fixture model through @huggingface/transformers)', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await openEmbedder(embedderDir);
  });
  afterAll(() => embedder.close());

  test('its id names provider, model and dimensions, and the vectors have that length and unit norm', async () => {
    expect(embedder.id).toBe('transformers:tiny-embedder:32');
    expect(embedder.dimensions).toBe(32);
    const vectors = await embedder.embed(texts, 'document');
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Different texts, different vectors (a model that ignored its input would pass the checks above).
    expect(maxDifference(vectors[0] as Float32Array, vectors[1] as Float32Array)).toBeGreaterThan(1e-3);
  });

  test('is deterministic, and batching gives the vectors of one-by-one', async () => {
    const batched = await embedder.embed(texts, 'document');
    const again = await embedder.embed(texts, 'document');
    for (const [i, text] of texts.entries()) {
      expect(maxDifference(batched[i] as Float32Array, again[i] as Float32Array)).toBe(0);
      const [alone] = await embedder.embed([text], 'document');
      expect(maxDifference(batched[i] as Float32Array, alone as Float32Array)).toBeLessThan(1e-5);
    }
  });

  test('a small batch size gives the same vectors in the same order', async () => {
    const small = await openEmbedder(embedderDir, { batchSize: 2 });
    try {
      const [a, b] = [await small.embed(texts, 'document'), await embedder.embed(texts, 'document')];
      for (const i of texts.keys())
        expect(maxDifference(a[i] as Float32Array, b[i] as Float32Array)).toBeLessThan(1e-5);
    } finally {
      await small.close();
    }
  });

  test('applies the model’s query and document prefixes (config_sentence_transformers.json prompts)', async () => {
    const text = 'enable cors';
    const [query] = await embedder.embed([text], 'query');
    const [document] = await embedder.embed([text], 'document');
    expect(maxDifference(query as Float32Array, document as Float32Array)).toBeGreaterThan(1e-3);
    // The fixture's prompts are e5's: "query: " and "passage: ". Without prefixes, both are the raw text.
    const bare = await openEmbedder(embedderDir, { queryPrefix: '', documentPrefix: '' });
    try {
      const [prefixedByHand] = await bare.embed([`query: ${text}`], 'query');
      const [passageByHand] = await bare.embed([`passage: ${text}`], 'document');
      expect(maxDifference(query as Float32Array, prefixedByHand as Float32Array)).toBeLessThan(1e-6);
      expect(maxDifference(document as Float32Array, passageByHand as Float32Array)).toBeLessThan(1e-6);
    } finally {
      await bare.close();
    }
  });

  test('a text longer than the model’s 128 positions is truncated, not an error', async () => {
    const long = 'configure the search index and its token budget '.repeat(100);
    const [v] = await embedder.embed([long], 'document');
    expect(norm(v as Float32Array)).toBeCloseTo(1, 5);
  });

  test('an empty list gives an empty list; an aborted signal stops it', async () => {
    expect(await embedder.embed([], 'query')).toEqual([]);
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(texts, 'document', { signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  test('its stored id reopens it by name from the models directory, checked against the dimensions', async () => {
    const reopened = await openEmbedder(embedder.id, { modelsDir: fixtures });
    try {
      expect(reopened.id).toBe(embedder.id);
      const [a] = await reopened.embed(['same text'], 'document');
      const [b] = await embedder.embed(['same text'], 'document');
      expect(maxDifference(a as Float32Array, b as Float32Array)).toBe(0);
    } finally {
      await reopened.close();
    }
    await expect(openEmbedder('transformers:tiny-embedder:384', { modelsDir: fixtures })).rejects.toMatchObject({
      code: 'dimension',
    });
  });
});

describe('local re-ranker (fixture cross-encoder)', () => {
  let reranker: Reranker;
  beforeAll(async () => {
    reranker = await openReranker(rerankerDir);
  });
  afterAll(() => reranker.close());

  test('one finite score per document, in order, the same one by one as in a batch', async () => {
    expect(reranker.id).toBe('transformers:tiny-reranker');
    const documents = texts.slice(0, 4);
    const scores = await reranker.score('enable cors', documents);
    expect(scores).toHaveLength(documents.length);
    for (const s of scores) expect(Number.isFinite(s)).toBe(true);
    for (const [i, document] of documents.entries()) {
      const [alone] = await reranker.score('enable cors', [document]);
      expect(alone).toBeCloseTo(scores[i] as number, 4);
    }
    expect(new Set(scores).size).toBeGreaterThan(1);
    expect(await reranker.score('anything', [])).toEqual([]);
  });

  test('a long document is truncated to the model’s positions', async () => {
    const [score] = await reranker.score('budget', ['the token budget '.repeat(200)]);
    expect(Number.isFinite(score)).toBe(true);
  });
});

describe('opening local models', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'docs-embed-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a model name is found in the models directory, nested under its org, and in the Hugging Face cache', async () => {
    const models = path.join(dir, 'models');
    mkdirSync(path.join(models, 'acme'), { recursive: true });
    cpSync(embedderDir, path.join(models, 'acme', 'tiny-embedder'), { recursive: true });
    for (const spec of ['tiny-embedder', 'acme/tiny-embedder']) {
      const e = await openEmbedder(spec, { modelsDir: models, env: {} });
      expect(e.id).toBe('transformers:tiny-embedder:32');
      await e.close();
    }
    const hub = path.join(dir, 'hf', 'hub');
    const snapshot = path.join(hub, 'models--acme--tiny-reranker', 'snapshots', 'abc123');
    mkdirSync(path.join(hub, 'models--acme--tiny-reranker', 'refs'), { recursive: true });
    writeFileSync(path.join(hub, 'models--acme--tiny-reranker', 'refs', 'main'), 'abc123');
    cpSync(rerankerDir, snapshot, { recursive: true });
    for (const spec of ['tiny-reranker', 'acme/tiny-reranker']) {
      const r = await openReranker(spec, { modelsDir: models, env: { HF_HOME: path.join(dir, 'hf') } });
      expect(r.id).toBe('transformers:tiny-reranker');
      await r.close();
    }
  });

  test('a relative models directory ($DOCS_MODELS=models) is read from the working directory', async () => {
    // `models/tiny-embedder` reads as a hub name (org/name) to transformers.js unless it is made absolute first.
    cpSync(embedderDir, path.join(dir, 'models', 'tiny-embedder'), { recursive: true });
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(dir);
    try {
      for (const options of [{ env: { DOCS_MODELS: 'models' } }, { modelsDir: 'models', env: {} }]) {
        const e = await openEmbedder('tiny-embedder', options);
        expect(e.id).toBe('transformers:tiny-embedder:32');
        expect((await e.embed(['relative'], 'document'))[0]?.length).toBe(32);
        await e.close();
      }
    } finally {
      cwd.mockRestore();
    }
  });

  test.each([
    ['a name found nowhere', 'no-such-model', 'not-found', /docs models pull <org>\/no-such-model/],
    ['a missing folder', '/no/such/folder', 'not-found', /no model folder at \/no\/such\/folder/],
    ['an unknown provider', 'ollama:nomic-embed-text', 'invalid-spec', /unknown model provider "ollama"/],
    ['an empty spec', '  ', 'invalid-spec', /empty model spec/],
  ])('%s is a clear error', async (_, spec, code, message) => {
    const error = await openEmbedder(spec, { modelsDir: path.join(dir, 'none'), env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
  });

  test('a re-ranker is refused as an embedder and the other way round', async () => {
    await expect(openEmbedder(rerankerDir)).rejects.toMatchObject({ code: 'invalid-spec' });
    await expect(openReranker(embedderDir)).rejects.toMatchObject({ code: 'invalid-spec' });
  });

  test('a folder without its ONNX file says what is missing', async () => {
    const broken = path.join(dir, 'broken');
    cpSync(embedderDir, broken, { recursive: true });
    rmSync(path.join(broken, 'onnx'), { recursive: true });
    const error = await openEmbedder(broken).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not-found' });
    expect((error as Error).message).toMatch(/lacks onnx\/model\.onnx/);
  });

  test('a text is cut at sentence_bert_config.json max_seq_length, as sentence-transformers cuts it', async () => {
    const short = path.join(dir, 'short');
    cpSync(embedderDir, short, { recursive: true });
    writeFileSync(path.join(short, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 8 }));
    expect(readModelFolder(short, 'short').maxTokens).toBe(8);
    expect(readModelFolder(embedderDir, 'tiny-embedder').maxTokens).toBe(128);
    const sixWords = 'a a a a a a'; // one token each in the fixture's vocabulary
    const e = await openEmbedder(short);
    // [CLS] + six words + [SEP] is 8 tokens: a longer text is cut to those six words.
    const [cut, exact] = await e.embed([`${sixWords} a a a a`, sixWords], 'document');
    await e.close();
    expect(maxDifference(cut as Float32Array, exact as Float32Array)).toBeLessThan(1e-6);
    const whole = await openEmbedder(embedderDir);
    const [c, d] = await whole.embed([`${sixWords} a a a a`, sixWords], 'document');
    await whole.close();
    expect(maxDifference(c as Float32Array, d as Float32Array)).toBeGreaterThan(1e-4);
  });

  test.each([
    ['a row cut at the limit gets its [SEP] back', [2, 7, 8, 9], [1, 1, 1, 1], [2, 7, 8, 3]],
    ['a row that ends in [SEP] at the limit is kept', [2, 7, 8, 3], [1, 1, 1, 1], [2, 7, 8, 3]],
    ['a padded row is kept', [2, 7, 3, 0], [1, 1, 1, 0], [2, 7, 3, 0]],
  ])('keepClosingSeparator: %s', (_, ids, mask, expected) => {
    const inputs = {
      input_ids: { dims: [1, 4], data: BigInt64Array.from(ids, BigInt) },
      attention_mask: { data: BigInt64Array.from(mask, BigInt) },
    };
    keepClosingSeparator(inputs, 3, 4);
    expect(Array.from(inputs.input_ids.data, Number)).toEqual(expected);
    keepClosingSeparator(inputs, 3, 5); // rows shorter than the limit were not cut
    keepClosingSeparator(inputs, undefined, 4); // a tokenizer without [SEP]
    expect(Array.from(inputs.input_ids.data, Number)).toEqual(expected);
  });

  test('a missing runtime is code not-installed with the install command', async () => {
    const error = await loadRuntime('@huggingface/transformers-not-installed').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not-installed' });
    expect((error as Error).message).toMatch(/npm install @huggingface\/transformers/);
  });
});
