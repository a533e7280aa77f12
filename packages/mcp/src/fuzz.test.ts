import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEARCH_DEFAULTS } from '@docs/search';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocsTools } from './index.js';

// Fuzzed tool arguments through a real client and server over a real store.
// Bounded to a few seconds here; `pnpm fuzz` runs 100,000 queries.

let dir: string;
let store: PackageStore;
let client: Client;
let server: McpServer;

const page = (name: string, i: number): DocumentInput => ({
  path: `guide/page-${i}.md`,
  title: `Page ${i}`,
  content: `# Page ${i}`,
  chunks: [
    { breadcrumb: [`Page ${i}`], level: 1, content: `Enable CORS and mock timers in ${name} (${i}).`, tokens: 12 },
    { breadcrumb: [`Page ${i}`, 'Options'], level: 2, content: 'Set "origins" AND headers: retry * NEAR', tokens: 9 },
  ],
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-fuzz-'));
  store = new PackageStore(path.join(dir, 'store'));
  for (const name of ['alpha', 'beta']) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(
      file,
      { name, version: '1.0.0' },
      Array.from({ length: 5 }, (_, i) => page(name, i)),
    );
    await store.install(file, { move: true });
  }
  server = new McpServer({ name: 'docs-fuzz', version: '0.0.0' });
  // The budget is checked in the structured form (totalTokens), which the server sends when asked.
  await registerDocsTools(server, { store, structuredContent: true });
  client = new Client({ name: 'fuzz', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});

afterAll(async () => {
  await client.close();
  await server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const hostile = fc.constantFrom(
  '"',
  "'",
  '*',
  '^',
  ':',
  '(',
  ')',
  ' NEAR(',
  ' AND ',
  ' OR ',
  ' NOT ',
  '-',
  ';',
  '\u0000',
  '😀',
  '\uD800',
  '../../etc/passwd',
  'title:',
  '{',
  '\\',
);
const topic = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .array(fc.oneof(fc.constantFrom('cors', 'timers', 'mock', 'retry'), hostile), { maxLength: 12 })
    .map((p) => p.join(' ')),
  fc.string({ minLength: 900, maxLength: 1200 }),
);
// Anything a client may send, valid or not: strings, numbers out of range, wrong types.
const anything = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const args = fc.record(
  {
    topic: fc.oneof(topic, anything),
    library: fc.oneof(fc.constantFrom('alpha', 'BETA', 'alpha@1', 'alpha@9', 'nope', ''), hostile, anything),
    path: fc.oneof(fc.constantFrom('guide/page-1.md', 'guide/page-1', '../x'), hostile, anything),
    tokens: fc.oneof(fc.integer({ min: -10, max: 30_000 }), anything),
    limit: fc.oneof(fc.integer({ min: -1, max: 60 }), anything),
    offset: fc.oneof(fc.integer({ min: -1, max: 20_000 }), anything),
    format: fc.oneof(fc.constantFrom('full', 'index'), anything),
  },
  { requiredKeys: [] },
);
const tool = fc.constantFrom('get_docs', 'search_all', 'read_doc', 'list_libraries');

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('fuzzed tool calls', () => {
  it('always get an answer or an error result that says why; never an SQL error, a bug report or a stack', async () => {
    await fc.assert(
      fc.asyncProperty(tool, args, async (name, input) => {
        const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
        const said = text(result);
        expect(said.trim()).not.toBe('');
        expect(said).not.toMatch(/sqlite|fts5|failed unexpectedly|a bug in the docs server|\n\s+at .+:\d+:\d+/i);
        if (!result.isError) {
          const data = result.structuredContent as { totalTokens?: number; results?: unknown[] } | undefined;
          const budget = typeof input.tokens === 'number' ? input.tokens : SEARCH_DEFAULTS.tokens;
          if (data?.totalTokens !== undefined && (name === 'get_docs' || name === 'search_all')) {
            expect(data.totalTokens).toBeLessThanOrEqual(budget);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
