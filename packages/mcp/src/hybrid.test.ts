import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbedder } from '@docs/embed';
import { openModels } from '@docs/search';
import { type DocumentInput, PackageStore, sectionPassage, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocsTools } from './index.js';

// The real fixture models of @docs/embed (tiny, random weights): the tools must say what answered.
const fixtures = fileURLToPath(new URL('../../embed/fixtures', import.meta.url));
const embedderModel = path.join(fixtures, 'tiny-embedder');
const rerankerModel = path.join(fixtures, 'tiny-reranker');

const chunk = (breadcrumb: string[], content: string) => ({
  breadcrumb,
  level: breadcrumb.length,
  content,
  tokens: Math.ceil(content.length / 4),
});
const cors: DocumentInput = {
  path: 'cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [
    chunk(['CORS'], 'Enable CORS with the cors middleware so a browser on another origin can call the API.'),
    chunk(['CORS', 'Options'], 'Set allowed origins, methods and headers.'),
  ],
};

let dir: string;
let store: PackageStore;
let embedderId: string;
const models = openModels({ rerank: rerankerModel, config: { modelsDir: fixtures } });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-mcp-hybrid-'));
  store = new PackageStore(path.join(dir, 'home'));
  for (const name of ['webframe', 'apiframe']) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(file, { name, version: '1.0.0' }, [cors]);
    const { installed } = await store.install(file, { move: true });
    if (name === 'apiframe') continue;
    const embedder = await openEmbedder(embedderModel);
    embedderId = embedder.id;
    const job = await store.vectorJob(installed, { id: embedder.id, dimensions: embedder.dimensions });
    const sections = job.next(100);
    const vectors = await embedder.embed(sections.map(sectionPassage), 'document');
    job.save(sections.map((s, i) => ({ id: s.id, vector: vectors[i] as Float32Array })));
    await job.finish();
    await embedder.close();
  }
});

afterAll(async () => {
  await models.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect() {
  const server = new McpServer({ name: 'docs-test', version: '0.0.0' });
  // The answers' fields are checked in their structured form, which the server sends when asked.
  await registerDocsTools(server, { store, models, structuredContent: true });
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('get_docs and search_all with models', () => {
  it('report which retrieval answered, in the structured answer and the text', async () => {
    const { call, close } = await connect();
    try {
      const hybrid = await call('get_docs', { library: 'webframe', topic: 'allow another origin', mode: 'hybrid' });
      expect(hybrid.isError).toBeFalsy();
      expect(hybrid.structuredContent?.retrieval).toEqual({
        mode: 'hybrid',
        embedder: embedderId,
        reranker: 'transformers:tiny-reranker',
      });
      expect(text(hybrid)).toContain(
        `Retrieval: hybrid (embedder ${embedderId}, re-ranked by transformers:tiny-reranker).`,
      );

      const lexical = await call('get_docs', { library: 'webframe', topic: 'CORS origins', mode: 'lexical' });
      expect(lexical.structuredContent?.retrieval).toEqual({ mode: 'lexical', reranker: 'transformers:tiny-reranker' });

      const all = await call('search_all', { topic: 'enable CORS', mode: 'hybrid', format: 'index' });
      expect(all.structuredContent?.retrieval).toMatchObject({
        mode: 'hybrid',
        embedder: embedderId,
        notes: ['apiframe@1.0.0 answered lexically: it has no vectors (add them with docs embed apiframe)'],
      });
      expect(text(all)).toContain('- apiframe@1.0.0 answered lexically: it has no vectors');

      const bad = await call('get_docs', { library: 'webframe', topic: 'cors', mode: 'semantic' });
      expect(bad.isError).toBe(true);
    } finally {
      await close();
    }
  });
});
