import { SEARCH_DEFAULTS } from '@docs/search';
import { loadTokenCounter, type PackageStore } from '@docs/store';
import type { JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, TestKit, type TestPackage, textOf } from './__tests__/kit.js';
import { docsTools } from './index.js';

// tools/list is paid for by every session before its first question: these tests hold it to its budget with a
// realistic store (the 12 libraries of the evaluation corpus, by name and version) and check that what an agent
// needs to choose and call a tool survived the cuts.

const BUDGET = 1500;

/** The evaluation corpus's libraries, as `docs add` names them. */
const CORPUS = [
  'vitest@5.0.0-rc.2',
  'kysely@0.29.5',
  'pnpm@11.x',
  'hono@2026-07-23',
  'express@2026-08-08',
  'mcp@2026-07-28',
  'zod@4.4.3',
  'drizzle-orm@2026-07-15',
  'tanstack-query@5.102.0',
  'trpc@11.18.0',
  'fastapi@0.141.1',
  'httpx@0.28.1',
];

function library(id: string, description = ''): TestPackage {
  const [name = '', version = ''] = id.split(/@(?=[^@]*$)/);
  return {
    name,
    version,
    description,
    documents: [
      documentOf('guide/start.md', 'Getting started', [
        ['Install', `Install ${name} with your package manager and import it.`],
        ['Configure', `Configure ${name} in its config file: timeouts, retries and logging.`],
      ]),
    ],
  };
}

const kit = new TestKit();
let twelve: PackageStore;
let many: PackageStore;
const count = await loadTokenCounter();

beforeAll(async () => {
  twelve = await kit.storeWith(CORPUS.map((id) => library(id, `The ${id} documentation, a line a maker wrote.`)));
  // Many more than a description names, with names as long as real scoped packages'.
  many = await kit.storeWith(
    Array.from({ length: 45 }, (_, i) => library(`@scope-${i}/a-rather-long-package-name-${i}@1.${i}.0`)),
  );
});

afterAll(() => kit.cleanup());

/** The tools/list answer as the server sent it, and what it costs in o200k tokens. */
async function listed(store: PackageStore, structuredContent?: boolean) {
  const { client, received } = await kit.connect({ store, ...(structuredContent ? { structuredContent } : {}) });
  const { tools } = await client.listTools();
  const message = received.findLast((m: JSONRPCMessage) => 'result' in m);
  const wire = JSON.stringify(message);
  return { tools, bytes: Buffer.byteLength(wire), tokens: count(wire) };
}

const byName = (tools: readonly Tool[], name: string) => tools.find((t) => t.name === name) as Tool;

describe('tools/list', () => {
  it(`costs at most ${BUDGET} tokens with the 12 corpus libraries installed, and names them`, async () => {
    const { tools, tokens } = await listed(twelve);
    expect(tokens).toBeLessThanOrEqual(BUDGET);
    expect(byName(tools, 'get_docs').description).toContain(
      'Libraries: drizzle-orm, express, fastapi, hono, httpx, kysely, mcp, pnpm, tanstack-query, trpc, vitest, zod (versions: list_libraries).',
    );
  });

  it('grows by a bounded list of names with many more libraries, pointing to list_libraries for the rest', async () => {
    const small = await listed(twelve);
    const large = await listed(many);
    const description = byName(large.tools, 'get_docs').description ?? '';
    expect(description).toMatch(/and \d+ more \(versions: list_libraries\)\.$/);
    // 45 names of ~45 characters would be ~500 tokens; the list stops at 200 characters.
    expect(large.tokens - small.tokens).toBeLessThan(60);
    expect(large.tokens).toBeLessThanOrEqual(BUDGET + 60);
    // Only get_docs names them: one list is enough for the model.
    for (const tool of large.tools) if (tool.name !== 'get_docs') expect(tool.description).not.toContain('@scope-');
  });

  it('keeps what an agent needs: names, titles, when to use each tool, every input described with its bounds', async () => {
    const { tools } = await listed(twelve);
    expect(tools.map((t) => t.name)).toEqual(['list_libraries', 'get_docs', 'search_all', 'read_doc']);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        const s = schema as { description?: string; type?: string; minimum?: number; maximum?: number };
        expect(s.description, `${tool.name}.${field}`).toBeTruthy();
        if (s.type === 'integer') {
          expect(s.minimum, `${tool.name}.${field}`).toBeTypeOf('number');
          expect(s.maximum, `${tool.name}.${field}`).toBeTypeOf('number');
        }
      }
    }
    expect(byName(tools, 'get_docs').description).toMatch(/when you know the library/);
    expect(byName(tools, 'get_docs').description).toMatch(/alternatives.*library's own terms/);
    expect(byName(tools, 'search_all').description).toMatch(/do not know which library/);
    expect(byName(tools, 'read_doc').description).toMatch(/nextOffset/);
    const getDocs = byName(tools, 'get_docs').inputSchema;
    expect(getDocs.required).toEqual(['library', 'topic']);
    expect(getDocs.properties?.tokens).toMatchObject({ minimum: 100, maximum: 20000, default: SEARCH_DEFAULTS.tokens });
    expect(getDocs.properties?.topic).toMatchObject({ maxLength: 1000 });
    expect(getDocs.properties?.alternatives).toMatchObject({ maxItems: 4, items: { maxLength: 200 } });
  });
});

describe('structured content', () => {
  it('is left out by default, and no output schema declared: the text, which holds the sections, is the answer', async () => {
    const { tools } = await listed(twelve);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeUndefined();
    const { call } = await kit.connect({ store: twelve });
    for (const [name, args] of [
      ['list_libraries', {}],
      ['get_docs', { library: 'hono', topic: 'configure retries' }],
      ['search_all', { topic: 'configure retries' }],
      ['read_doc', { library: 'hono', path: 'guide/start.md' }],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError, name).toBeFalsy();
      expect(result.structuredContent, name).toBeUndefined();
    }
    expect(textOf(await call('get_docs', { library: 'hono', topic: 'configure retries' }))).toContain(
      'Configure hono in its config file',
    );
  });

  it('is sent when asked for, valid against the output schemas then declared (the client checks each answer)', async () => {
    const { tools, tokens } = await listed(twelve, true);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
    expect(tokens).toBeGreaterThan(BUDGET);
    const { client, call } = await kit.connect({ store: twelve, structuredContent: true });
    // The SDK's client validates structuredContent against the schemas it has listed, and throws when it does not match.
    await client.listTools();
    for (const [name, args] of [
      ['list_libraries', {}],
      ['get_docs', { library: 'hono', topic: 'configure retries', alternatives: ['config file'] }],
      ['get_docs', { library: 'hono', topic: 'configure retries', format: 'index' }],
      ['search_all', { topic: 'install', limit: 3 }],
      ['read_doc', { library: 'hono', path: 'guide/start.md', tokens: 100 }],
      ['get_docs', { library: 'nope', topic: 'install' }],
    ] as const) {
      const result = await call(name, args);
      const tool = docsTools.find((t) => t.name === name);
      expect(result.structuredContent, name).toBeDefined();
      expect(tool?.outputSchema.safeParse(result.structuredContent).success, name).toBe(true);
    }
  });
});
