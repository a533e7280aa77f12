import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { EmbedError, openEmbedder, openReranker } from './index.js';

/** What the stub answers next: a status, headers and body per request, else a well-formed answer. */
type Script = (request: {
  route: string;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}) => { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | undefined;

const DIMENSIONS = 8;

/** A deterministic vector per text, so a test can tell which text a vector belongs to. */
function vectorOf(text: string, dimensions = DIMENSIONS): number[] {
  return Array.from(
    { length: dimensions },
    (_, i) => (((text.length + 1) * (i + 1)) % 7) + (text.charCodeAt(0) || 1) / 100,
  );
}

describe('OpenAI-compatible endpoint (stub server on 127.0.0.1)', () => {
  let server: Server;
  let url: string;
  let requests: { route: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }[];
  let script: Script;

  function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const route = (req.url ?? '').replace(/^\/v1\//, '');
        const body = JSON.parse(raw) as Record<string, unknown>;
        const request = { route, body, headers: req.headers };
        requests.push(request);
        const scripted = script(request);
        const reply = () => {
          if (scripted) return answer(res, scripted.status, scripted.body ?? {}, scripted.headers);
          if (route === 'embeddings') {
            const input = body.input as string[];
            // Answered out of order, as the index field allows.
            const data = input
              .map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }))
              .reverse();
            return answer(res, 200, { object: 'list', data, model: body.model });
          }
          if (route === 'rerank') {
            const documents = body.documents as string[];
            const results = documents
              .map((d, index) => ({ index, relevance_score: d.includes(String(body.query)) ? 0.9 : 0.1 / (index + 1) }))
              .sort((a, b) => b.relevance_score - a.relevance_score);
            return answer(res, 200, { results });
          }
          answer(res, 404, { error: { message: 'no such route' } });
        };
        if (scripted?.delayMs) setTimeout(reply, scripted.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = [];
    script = () => undefined;
  });

  test('embeds in batches, in input order, normalised, with the key and the model; the id carries the probed dimensions', async () => {
    const embedder = await openEmbedder('openai:test-embed', { url, key: 'secret', batchSize: 3, env: {} });
    expect(embedder.id).toBe(`openai:test-embed:${DIMENSIONS}`);
    expect(embedder.dimensions).toBe(DIMENSIONS);
    requests = [];
    const texts = ['one', 'two words', 'three words here', 'four', 'five five', 'six', 'seven'];
    const vectors = await embedder.embed(texts, 'document');
    expect(requests.map((r) => (r.body.input as string[]).length)).toEqual([3, 3, 1]);
    expect(requests.every((r) => r.body.model === 'test-embed' && r.headers.authorization === 'Bearer secret')).toBe(
      true,
    );
    for (const [i, text] of texts.entries()) {
      const expected = vectorOf(text);
      const length = Math.hypot(...expected);
      expect(Array.from(vectors[i] as Float32Array)).toEqual(expected.map((x) => Math.fround(x / length)));
    }
  });

  test('URL and key come from DOCS_EMBED_URL / DOCS_EMBED_KEY, then OPENAI_BASE_URL / OPENAI_API_KEY', async () => {
    await openEmbedder('openai:m', {
      env: { DOCS_EMBED_URL: url, OPENAI_BASE_URL: 'http://127.0.0.1:1', OPENAI_API_KEY: 'k2' },
    });
    expect(requests.at(-1)?.headers.authorization).toBe('Bearer k2');
    await openEmbedder('openai:m', { env: { OPENAI_BASE_URL: url, DOCS_EMBED_KEY: 'k1', OPENAI_API_KEY: 'k2' } });
    expect(requests.at(-1)?.headers.authorization).toBe('Bearer k1');
  });

  test('a model family’s prefixes are applied (nomic: search_query / search_document)', async () => {
    const embedder = await openEmbedder('openai:nomic-embed-text:8', { url, env: {} });
    await embedder.embed(['q'], 'query');
    await embedder.embed(['d'], 'document');
    expect(requests.map((r) => r.body.input)).toEqual([['search_query: q'], ['search_document: d']]);
  });

  test('429 with Retry-After, then 503, then success: retried, answered', async () => {
    const embedder = await openEmbedder('openai:m:8', { url, env: {}, retryDelayMs: 10 });
    let calls = 0;
    script = () => {
      calls++;
      if (calls === 1) return { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } };
      if (calls === 2) return { status: 503, body: 'busy' };
      return undefined;
    };
    const vectors = await embedder.embed(['a', 'b'], 'document');
    expect(vectors).toHaveLength(2);
    expect(calls).toBe(3);
  });

  test('5xx past the retries is a bad-response error that says how many attempts', async () => {
    const embedder = await openEmbedder('openai:m:8', { url, env: {}, retries: 2, retryDelayMs: 1 });
    script = () => ({ status: 500, body: { error: { message: 'model crashed' } } });
    const error = await embedder.embed(['a'], 'document').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad-response' });
    expect((error as Error).message).toMatch(/500 after 3 attempts: model crashed/);
    expect(requests).toHaveLength(3);
  });

  test('a server slower than the timeout is a timeout error', async () => {
    const embedder = await openEmbedder('openai:m:8', { url, env: {}, timeoutMs: 100, retries: 0 });
    script = () => ({ status: 200, body: { data: [] }, delayMs: 1000 });
    const error = await embedder.embed(['a'], 'document').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as Error).message).toMatch(/did not answer within 100 ms/);
  });

  test('a vector of another length than the first batch’s is a dimension error', async () => {
    const embedder = await openEmbedder('openai:m', { url, env: {} });
    script = ({ body }) => ({
      status: 200,
      body: { data: (body.input as string[]).map((t, index) => ({ index, embedding: vectorOf(t, DIMENSIONS * 2) })) },
    });
    const error = await embedder.embed(['a', 'b'], 'document').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'dimension' });
    expect((error as Error).message).toMatch(/16 dimensions for input 0, 8 were expected/);
  });

  test('a stored id whose dimensions the model does not give is a dimension error on first use', async () => {
    const error = await openEmbedder('openai:m:768', { url, env: {} })
      .then((e) => e.embed(['a'], 'query'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'dimension' });
  });

  test.each([
    [401, 'auth', /refused the key \(401\): invalid api key/],
    [403, 'auth', /refused the key \(403\)/],
    [404, 'not-found', /404\): model "m" not found/],
    [400, 'rejected', /400\): input too long/],
  ])('HTTP %i is code %s with the server’s message', async (status, code, message) => {
    const text = { 401: 'invalid api key', 403: 'forbidden', 404: 'model "m" not found', 400: 'input too long' }[
      status
    ];
    script = () => ({ status, body: { error: { message: text } } });
    const error = await openEmbedder('openai:m', { url, key: 'bad', env: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
    expect(requests).toHaveLength(1);
  });

  test.each([
    ['not JSON', 'hello', /not JSON/],
    ['no data', { object: 'list' }, /without a "data" array/],
    ['too few vectors', { data: [] }, /0 vectors for 1 inputs/],
    ['a non-numeric vector', { data: [{ index: 0, embedding: ['x'] }] }, /malformed item at position 0/],
  ])('a malformed answer (%s) is a bad-response error', async (_, body, message) => {
    script = () => ({ status: 200, body });
    const error = await openEmbedder('openai:m', { url, env: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad-response' });
    expect((error as Error).message).toMatch(message);
  });

  test('a closed port is an unreachable error naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await openEmbedder('openai:m', { url: `http://127.0.0.1:${port}/v1`, env: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'unreachable' });
    expect((error as Error).message).toMatch(
      new RegExp(`cannot reach http://127.0.0.1:${port}/v1/embeddings \\(ECONNREFUSED\\)`),
    );
  });

  test('re-ranks in batches: one score per document, in document order', async () => {
    const reranker = await openReranker('openai:test-rerank', { url, batchSize: 2, env: {} });
    expect(reranker.id).toBe('openai:test-rerank');
    const documents = ['unrelated', 'about cors here', 'other', 'cors again', 'last'];
    const scores = await reranker.score('cors', documents);
    expect(scores).toEqual([0.1, 0.9, 0.1, 0.9, 0.1]);
    expect(requests.map((r) => r.body.documents)).toEqual([
      ['unrelated', 'about cors here'],
      ['other', 'cors again'],
      ['last'],
    ]);
    expect(requests[0]?.body).toMatchObject({ model: 'test-rerank', query: 'cors', top_n: 2 });
  });

  test('a re-rank answer in text-embeddings-inference’s shape is read too; a missing score is an error', async () => {
    const reranker = await openReranker('openai:tei', { url, env: {} });
    script = () => ({
      status: 200,
      body: [
        { index: 1, score: 2.5 },
        { index: 0, score: -1 },
      ],
    });
    expect(await reranker.score('q', ['a', 'b'])).toEqual([-1, 2.5]);
    script = () => ({ status: 200, body: { results: [{ index: 0, relevance_score: 1 }] } });
    await expect(reranker.score('q', ['a', 'b'])).rejects.toMatchObject({
      code: 'bad-response',
      message: /left 1 of 2 documents unscored/,
    });
  });

  test('429 on rerank is retried too; an aborted signal stops it', async () => {
    const reranker = await openReranker('openai:r', { url, env: {}, retryDelayMs: 1 });
    let calls = 0;
    script = () => (++calls === 1 ? { status: 429, body: {} } : undefined);
    expect(await reranker.score('q', ['q here'])).toEqual([0.9]);
    const controller = new AbortController();
    controller.abort();
    await expect(reranker.score('q', ['a'], { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
