import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocsTools } from './index.js';

let dir: string;
let store: PackageStore;
let client: Client;
let server: McpServer;

function chunk(breadcrumb: string[], content: string) {
  return { breadcrumb, level: breadcrumb.length, content, tokens: Math.ceil(content.length / 4) };
}

const events: DocumentInput = {
  path: 'advanced/events.md',
  title: 'Lifespan Events',
  content: '# Lifespan Events',
  chunks: [
    chunk(
      ['Lifespan Events', 'Lifespan'],
      'Use the lifespan parameter with an async context manager for startup and shutdown logic.',
    ),
    chunk(['Lifespan Events', 'Sub Applications'], 'Lifespan events only run for the main application.'),
  ],
};
const cors: DocumentInput = {
  path: 'tutorial/cors.md',
  title: 'CORS',
  content: '# CORS',
  chunks: [chunk(['CORS'], 'Enable CORS with CORSMiddleware so a browser on another origin can call the API.')],
};
const timers: DocumentInput = {
  path: 'guide/timers.md',
  title: 'Timers',
  content: '# Timers',
  chunks: [chunk(['Timers'], 'Fake timers let the app tests run without waiting.')],
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-mcp-alternatives-'));
  store = new PackageStore(path.join(dir, 'home'));
  for (const [name, docs] of [
    ['webapi', [events, cors]],
    ['testkit', [timers]],
  ] as const) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(file, { name, version: '1.0.0' }, [...docs]);
    await store.install(file, { move: true });
  }
  server = new McpServer({ name: 'docs-test', version: '0.0.0' });
  // The answers' fields are checked in their structured form, which the server sends when asked.
  await registerDocsTools(server, { store, structuredContent: true });
  client = new Client({ name: 'test-client', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});

afterAll(async () => {
  await client.close();
  await server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
// biome-ignore lint/suspicious/noExplicitAny: structured content is checked field by field
const data = (result: CallToolResult): any => result.structuredContent;

describe('alternatives', () => {
  it('are described to the model on both search tools, with their limits', async () => {
    const { tools } = await client.listTools();
    // One description advises them (every session pays for tools/list); the field describes them on both tools.
    expect(tools.find((t) => t.name === 'get_docs')?.description).toMatch(/alternatives.*library's own terms/);
    for (const name of ['get_docs', 'search_all']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.inputSchema.properties?.alternatives).toMatchObject({
        description: expect.stringMatching(/docs' own terms/),
      });
      expect(tool?.inputSchema.properties?.alternatives).toMatchObject({
        type: 'array',
        maxItems: 4,
        items: { type: 'string', maxLength: 200 },
      });
      expect(tool?.inputSchema.required).not.toContain('alternatives');
    }
  });

  it('are searched with the topic, and the answer says which phrasing found what', async () => {
    const result = await call('get_docs', {
      library: 'webapi',
      topic: 'run code when the app starts',
      alternatives: ['lifespan parameter'],
      format: 'index',
    });
    expect(result.isError).toBeFalsy();
    expect(data(result).results[0].heading).toBe('Lifespan');
    expect(data(result).phrasings).toEqual([
      expect.objectContaining({ text: 'run code when the app starts', results: expect.any(Array) }),
      expect.objectContaining({ text: 'lifespan parameter', terms: ['lifespan', 'parameter'], results: [1, 2] }),
    ]);
    expect(text(result)).toContain('"lifespan parameter" → 1, 2');
  });

  it.each([
    ['five of them', { alternatives: ['a', 'b', 'c', 'd', 'e'] }, /at most 4 alternatives/],
    ['one over 200 characters', { alternatives: ['x'.repeat(201)] }, /at most 200 characters/],
    ['an empty one', { alternatives: ['  '] }, /must have words/],
    ['a number', { alternatives: [42] }, /alternatives/],
  ])('refuse %s with a clear error result', async (_case, extra, message) => {
    for (const [tool, args] of [
      ['get_docs', { library: 'webapi', topic: 'lifespan', ...extra }],
      ['search_all', { topic: 'lifespan', ...extra }],
    ] as const) {
      const result = await call(tool, args);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/Input validation error/);
      expect(text(result)).toMatch(message);
    }
  });
});

describe('confidence', () => {
  it('is in every answer, and a weak one says which words no section mentions', async () => {
    const strong = await call('search_all', { topic: 'enable CORS', format: 'index' });
    expect(data(strong).confidence).toMatchObject({ weak: false, strength: 1 });
    const weak = await call('search_all', { topic: 'enable CORS for my app', libraries: ['testkit'] });
    expect(weak.isError).toBeFalsy();
    expect(data(weak).confidence).toMatchObject({ weak: true, unmentioned: ['enable', 'cors'] });
    expect(text(weak)).toMatch(/No section mentions "enable", "cors"; closest: testkit@1\.0\.0 · Timers/);
  });
});
