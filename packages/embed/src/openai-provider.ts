import { EmbedError } from './errors.js';
import { type EndpointOptions, postJson } from './http.js';
import { familyOf } from './model-families.js';
import type { CallOptions, EmbedConfig, Embedder, InputKind, Reranker } from './types.js';

const ENDPOINT_BATCH = 64;

/** Endpoint settings from the config, then the environment: DOCS_EMBED_* first, OPENAI_* as fallback. */
export function endpointOptions(config: EmbedConfig): EndpointOptions {
  const env = config.env ?? process.env;
  return {
    url: config.url ?? env.DOCS_EMBED_URL ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    key: config.key ?? env.DOCS_EMBED_KEY ?? env.OPENAI_API_KEY,
    timeoutMs: config.timeoutMs ?? 60_000,
    retries: config.retries ?? 3,
    retryDelayMs: config.retryDelayMs ?? 500,
  };
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** The vectors of an `/embeddings` answer, in input order (`data[].index` when given). */
function vectorsOf(body: unknown, count: number, url: string): number[][] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw new EmbedError('bad-response', `${url}/embeddings answered without a "data" array`);
  if (data.length !== count) {
    throw new EmbedError('bad-response', `${url}/embeddings answered ${data.length} vectors for ${count} inputs`);
  }
  const vectors: number[][] = new Array(count);
  data.forEach((item: { embedding?: unknown; index?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!isNumberArray(item?.embedding) || index < 0 || index >= count || vectors[index]) {
      throw new EmbedError('bad-response', `${url}/embeddings answered a malformed item at position ${position}`);
    }
    vectors[index] = item.embedding;
  });
  return vectors;
}

/** Unit length, computed in double precision before narrowing to 32-bit floats. */
function normalise(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  return Float32Array.from(vector, (x) => (norm > 0 ? x / norm : 0));
}

/**
 * An embedder over an OpenAI-compatible `POST {url}/embeddings` (`{model, input: [...]}` →
 * `{data: [{embedding, index}]}`). Its dimensions are learned by embedding one probe text when the
 * caller does not know them; every later batch must match.
 */
export async function openEndpointEmbedder(model: string, config: EmbedConfig): Promise<Embedder> {
  const endpoint = endpointOptions(config);
  const batchSize = config.batchSize ?? ENDPOINT_BATCH;
  const family = familyOf(model);
  const prefixes = { query: config.queryPrefix ?? family.query, document: config.documentPrefix ?? family.document };

  async function request(input: string[], signal?: AbortSignal): Promise<number[][]> {
    return vectorsOf(await postJson(endpoint, 'embeddings', { model, input }, signal), input.length, endpoint.url);
  }

  let dimensions = config.dimensions;
  if (dimensions === undefined) {
    const [probe] = await request([`${prefixes.query}dimension probe`]);
    dimensions = probe?.length ?? 0;
    if (dimensions === 0) throw new EmbedError('bad-response', `${endpoint.url}/embeddings answered an empty vector`);
  }
  const expected = dimensions;

  return {
    id: `openai:${model}:${expected}`,
    dimensions: expected,
    async embed(texts: readonly string[], kind: InputKind, call: CallOptions = {}): Promise<Float32Array[]> {
      const prefix = prefixes[kind];
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize).map((t) => prefix + t);
        const vectors = await request(batch, call.signal);
        for (const [i, vector] of vectors.entries()) {
          if (vector.length !== expected) {
            throw new EmbedError(
              'dimension',
              `${endpoint.url}/embeddings gave ${model} vectors of ${vector.length} dimensions for input ${start + i}, ${expected} were expected: is it the same model?`,
            );
          }
          out.push(normalise(vector));
        }
      }
      return out;
    },
    async close() {},
  };
}

/** The scores of a `/rerank` answer, in document order: `{results: [{index, relevance_score}]}` or TEI's `[{index, score}]`. */
function scoresOf(body: unknown, count: number, url: string): number[] {
  const results = Array.isArray(body) ? body : (body as { results?: unknown })?.results;
  if (!Array.isArray(results)) throw new EmbedError('bad-response', `${url}/rerank answered without a "results" array`);
  const scores: number[] = new Array(count);
  for (const item of results as { index?: unknown; relevance_score?: unknown; score?: unknown }[]) {
    const score = item?.relevance_score ?? item?.score;
    const index = item?.index;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      typeof score !== 'number' ||
      !Number.isFinite(score)
    ) {
      throw new EmbedError(
        'bad-response',
        `${url}/rerank answered a malformed result: ${JSON.stringify(item).slice(0, 200)}`,
      );
    }
    scores[index] = score;
  }
  const missing = scores.length - Object.keys(scores).length;
  if (missing > 0) throw new EmbedError('bad-response', `${url}/rerank left ${missing} of ${count} documents unscored`);
  return scores;
}

/**
 * A re-ranker over a `POST {url}/rerank` endpoint in the common shape (text-embeddings-inference,
 * Jina, Cohere, llama.cpp server): `{model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`.
 */
export async function openEndpointReranker(model: string, config: EmbedConfig): Promise<Reranker> {
  const endpoint = endpointOptions(config);
  const batchSize = config.batchSize ?? ENDPOINT_BATCH;
  return {
    id: `openai:${model}`,
    async score(query: string, documents: readonly string[], call: CallOptions = {}): Promise<number[]> {
      const scores: number[] = [];
      for (let start = 0; start < documents.length; start += batchSize) {
        const batch = documents.slice(start, start + batchSize);
        const body = await postJson(
          endpoint,
          'rerank',
          { model, query, documents: batch, top_n: batch.length, return_documents: false },
          call.signal,
        );
        scores.push(...scoresOf(body, batch.length, endpoint.url));
      }
      return scores;
    },
    async close() {},
  };
}
