import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEARCH_DEFAULTS } from '@docs/search';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocsToolContext, registerDocsTools } from './index.js';

let dir: string;
const cleanups: Array<() => Promise<void>> = [];

function chunk(breadcrumb: string[], content: string) {
  return { breadcrumb, level: breadcrumb.length, content, tokens: Math.ceil(content.length / 4) };
}

const longPage = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: the zebra option tunes stripes.`).join('\n\n');
const timers: DocumentInput = {
  path: 'guide/timers.md',
  title: 'Timers',
  content: '# Timers\n\nFake timers replace setTimeout.\n\n## Advancing\n\nAdvance time by hand.',
  chunks: [
    chunk(['Timers'], 'Fake timers replace setTimeout and setInterval so tests can mock timers without waiting.'),
    chunk(['Timers', 'Advancing'], 'Advance the clock by hand with advanceTimersByTime.'),
  ],
};
const zebra: DocumentInput = {
  path: 'reference/zebra.md',
  title: 'Zebra',
  content: `# Zebra\n\n${longPage}`,
  chunks: [chunk(['Zebra'], longPage)],
};
const mocking: DocumentInput = {
  path: 'guide/mocking.md',
  title: 'Mocking',
  content: '# Mocking\n\nMock functions record their calls.',
  chunks: [chunk(['Mocking'], 'Mock functions record their calls.')],
};
const cors = (framework: string): DocumentInput => ({
  path: 'middleware/cors.md',
  title: 'CORS',
  content: `# CORS\n\nEnable CORS in ${framework}.`,
  chunks: [
    chunk(['CORS'], `Enable CORS in ${framework} with the cors middleware so a browser on another origin can call it.`),
    chunk(['CORS', 'Options'], 'Set allowed origins, methods and headers.'),
  ],
});

/** A store in a fresh directory with these packages installed. */
async function storeWith(packages: Array<[string, string, DocumentInput[], string?]>): Promise<PackageStore> {
  const home = await mkdtemp(path.join(dir, 'home-'));
  const store = new PackageStore(home);
  for (const pkg of packages) await install(store, ...pkg);
  cleanups.push(() => store.close());
  return store;
}

async function install(store: PackageStore, name: string, version: string, docs: DocumentInput[], description = '') {
  const file = path.join(dir, `${name}-${version}-${Math.random().toString(36).slice(2)}.db`);
  await writePackage(file, { name, version, description }, docs);
  await store.install(file, { move: true });
}

/**
 * A real client talking to a real server over a linked in-memory pair. The answers' fields are checked in their
 * structured form, which the server sends when asked (tools-list.test.ts checks the default: the text alone).
 */
async function connect(context: DocsToolContext) {
  const server = new McpServer({ name: 'docs-test', version: '0.0.0' });
  await registerDocsTools(server, { structuredContent: true, ...context });
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, server, call };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

// biome-ignore lint/suspicious/noExplicitAny: structured content is checked field by field
function data(result: CallToolResult): any {
  return result.structuredContent;
}

let full: PackageStore;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-mcp-'));
  full = await storeWith([
    ['testlib', '1.0.0', [timers, mocking, zebra], 'A testing library'],
    ['testlib', '0.9.0', [mocking]],
    ['webframe', '2.0.0', [cors('webframe')]],
    ['apiframe', '3.1.0', [cors('apiframe')]],
  ]);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('the tool list', () => {
  it('has four read-only tools with schemas, output schemas (when asked for) and a description naming the libraries', async () => {
    const { client } = await connect({ store: full });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_libraries', 'get_docs', 'search_all', 'read_doc']);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description?.length).toBeGreaterThan(100);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
    const getDocs = tools.find((t) => t.name === 'get_docs');
    expect(getDocs?.inputSchema.required).toEqual(['library', 'topic']);
    expect(getDocs?.inputSchema.properties?.tokens).toMatchObject({ type: 'integer', minimum: 100, maximum: 20000 });
    expect(getDocs?.description).toContain('Libraries: apiframe, testlib, webframe (versions: list_libraries).');
  });
});

describe('list_libraries', () => {
  it('lists every installed version with its description, sections and size', async () => {
    const { call } = await connect({ store: full });
    const result = await call('list_libraries');
    expect(result.isError).toBeFalsy();
    expect(data(result).libraries.map((l: { library: string }) => l.library)).toEqual([
      'apiframe@3.1.0',
      'testlib@1.0.0',
      'testlib@0.9.0',
      'webframe@2.0.0',
    ]);
    expect(data(result).libraries[1]).toMatchObject({
      name: 'testlib',
      version: '1.0.0',
      description: 'A testing library',
      documents: 3,
      sections: 4,
    });
    expect(data(result).libraries[1].bytes).toBeGreaterThan(0);
    expect(text(result)).toMatch(/- testlib@1\.0\.0: 4 sections, [\d,]+ tokens, [\d.]+ MB · A testing library/);
  });
});

describe('get_docs', () => {
  it('answers from one library, case-insensitively, with a header per result', async () => {
    const { call } = await connect({ store: full });
    const result = await call('get_docs', { library: 'TESTLIB', topic: 'fake timers' });
    expect(result.isError).toBeFalsy();
    const answer = data(result);
    expect(answer.status).toBe('ok');
    expect(answer.searched).toEqual(['testlib@1.0.0']);
    expect(answer.results[0]).toMatchObject({ library: 'testlib@1.0.0', path: 'guide/timers.md', score: 1 });
    expect(answer.totalTokens).toBeLessThanOrEqual(SEARCH_DEFAULTS.tokens);
    expect(text(result)).toMatch(/^## testlib@1\.0\.0 · Timers · guide\/timers\.md \(score 1\.00\)\n\nFake timers/);
    // Each section travels once: its content in the text the model reads, not again in the structured form.
    expect(answer.results[0].content).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain('Fake timers replace');
  });

  it('takes a version, a name@version or a range', async () => {
    const { call } = await connect({ store: full });
    for (const args of [{ library: 'testlib', version: '0.9.0' }, { library: 'testlib@0.9' }]) {
      const result = await call('get_docs', { ...args, topic: 'mock functions' });
      expect(data(result).searched).toEqual(['testlib@0.9.0']);
    }
  });

  it('takes a prerelease for a range no release meets, and says so', async () => {
    const store = await storeWith([
      ['testlib', '1.0.0', [timers]],
      ['testlib', '2.0.0-rc.2', [timers]],
    ]);
    const { call } = await connect({ store });
    const result = await call('get_docs', { library: 'testlib@2', topic: 'fake timers' });
    expect(result.isError).toBeFalsy();
    expect(data(result).searched).toEqual(['testlib@2.0.0-rc.2']);
    expect(data(result).message).toMatch(/^testlib has no release matching "2"; using the prerelease 2\.0\.0-rc\.2\. /);
  });

  it('takes the highest semver version for a bare name, never a commit label built later', async () => {
    const store = await storeWith([
      ['gitlib', '1.4.0', [timers]],
      ['gitlib', 'd9f66ba', [timers]],
    ]);
    const { call } = await connect({ store });
    const listed = data(await call('list_libraries')).libraries.map((l: { library: string }) => l.library);
    expect(listed).toEqual(['gitlib@1.4.0', 'gitlib@d9f66ba']);
    expect(data(await call('get_docs', { library: 'gitlib', topic: 'fake timers' })).searched).toEqual([
      'gitlib@1.4.0',
    ]);
    expect(data(await call('search_all', { topic: 'fake timers' })).searched).toEqual(['gitlib@1.4.0']);
  });

  it('pages, and lists without content in the index format', async () => {
    const { call } = await connect({ store: full });
    const first = await call('get_docs', { library: 'testlib', topic: 'timers', limit: 1, format: 'index' });
    expect(data(first).results).toHaveLength(1);
    expect(data(first).results[0].content).toBeUndefined();
    expect(data(first).nextOffset).toBe(1);
    expect(text(first)).toMatch(/^- testlib@1\.0\.0 · Timers.* \(score [\d.]+, \d+ tokens\)/);
    expect(text(first)).toContain('call get_docs again with offset 1');
    const second = await call('get_docs', {
      library: 'testlib',
      topic: 'timers',
      limit: 1,
      offset: 1,
      format: 'index',
    });
    expect(data(second).results[0]).not.toEqual(data(first).results[0]);
  });

  it('says when nothing matched, without calling it an error', async () => {
    const { call } = await connect({ store: full });
    const result = await call('get_docs', { library: 'testlib', topic: 'kubernetes' });
    expect(result.isError).toBeFalsy();
    expect(data(result)).toMatchObject({ status: 'no-match', results: [] });
    expect(text(result)).toMatch(/Nothing in testlib@1\.0\.0 matched "kubernetes"\. Try/);
  });

  it('refuses an unknown library with the installed ones and the closest name', async () => {
    const { call } = await connect({ store: full });
    const result = await call('get_docs', { library: 'testlb', topic: 'timers' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Did you mean "testlib"?');
    expect(text(result)).toContain('apiframe@3.1.0, testlib@1.0.0, testlib@0.9.0, webframe@2.0.0');
    expect(data(result)).toMatchObject({ status: 'unknown-library', suggestion: 'testlib', results: [] });
  });

  it('refuses an unknown version with the installed versions', async () => {
    const { call } = await connect({ store: full });
    const result = await call('get_docs', { library: 'testlib@7', topic: 'timers' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^testlib has no version "7"\. Installed versions: 1\.0\.0, 0\.9\.0\. Retry with library "testlib@1\.0\.0"\.$/,
    );
    expect(data(result)).toMatchObject({ status: 'unknown-version', suggestion: 'testlib@1.0.0' });
  });

  it.each([
    ['a budget below the bound', { library: 'testlib', topic: 'timers', tokens: 5 }, /tokens/],
    ['an unknown format', { library: 'testlib', topic: 'timers', format: 'xml' }, /format/],
    ['no topic', { library: 'testlib' }, /topic/],
    ['an empty topic', { library: 'testlib', topic: '' }, /topic/],
    ['a fractional limit', { library: 'testlib', topic: 'timers', limit: 1.5 }, /limit/],
  ])('refuses %s as an error result, not a thrown error', async (_case, args, field) => {
    const { call } = await connect({ store: full });
    const result = await call('get_docs', args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Input validation error/);
    expect(text(result)).toMatch(field);
  });
});

describe('search_all', () => {
  it('merges libraries within the budget, each result naming its library', async () => {
    const { call } = await connect({ store: full });
    const result = await call('search_all', { topic: 'enable CORS', tokens: 2000 });
    const answer = data(result);
    expect(answer.status).toBe('ok');
    expect(new Set(answer.results.map((r: { library: string }) => r.library))).toEqual(
      new Set(['apiframe@3.1.0', 'webframe@2.0.0']),
    );
    expect(answer.totalTokens).toBeLessThanOrEqual(2000);
    expect(text(result)).toMatch(/## (apiframe@3\.1\.0|webframe@2\.0\.0) · CORS · middleware\/cors\.md/);
  });

  it('searches only the libraries given, and refuses an unknown one', async () => {
    const { call } = await connect({ store: full });
    const some = await call('search_all', { topic: 'cors', libraries: ['WebFrame'] });
    expect(data(some).searched).toEqual(['webframe@2.0.0']);
    const unknown = await call('search_all', { topic: 'cors', libraries: ['webfram'] });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('Did you mean "webframe"?');
  });

  it('answers an empty store with no results and how to add docs', async () => {
    const empty = await storeWith([]);
    const { client, call } = await connect({ store: empty });
    expect((await client.listTools()).tools).toHaveLength(4);
    const result = await call('search_all', { topic: 'enable CORS' });
    expect(result.isError).toBeFalsy();
    expect(data(result)).toMatchObject({ status: 'no-packages', results: [] });
    expect(text(result)).toMatch(/No documentation packages are installed\. Add one with: docs add/);
    const listed = await call('list_libraries');
    expect(data(listed).libraries).toEqual([]);
    expect(text(listed)).toMatch(/docs add/);
    const get = await call('get_docs', { library: 'vitest', topic: 'x' });
    expect(get.isError).toBe(true);
    expect(text(get)).toMatch(/No documentation packages are installed/);
  });
});

describe('read_doc', () => {
  it('reads a whole page by its path, with or without the extension', async () => {
    const { call } = await connect({ store: full });
    for (const page of ['guide/timers.md', 'guide/timers', 'GUIDE/Timers.md']) {
      const result = await call('read_doc', { library: 'testlib', path: page });
      expect(result.isError).toBeFalsy();
      expect(data(result)).toMatchObject({ status: 'ok', library: 'testlib@1.0.0', path: 'guide/timers.md' });
      expect(text(result)).toContain('## Advancing');
      // The page travels once: in the text, not again in the structured form.
      expect(data(result).content).toBeUndefined();
      expect(text(result)).toMatch(/^# Timers \(testlib@1\.0\.0 · guide\/timers\.md\)\n\n# Timers/);
    }
  });

  it('pages through a long document with its own budget and offset', async () => {
    const { call } = await connect({ store: full });
    let offset = 0;
    let parts = 0;
    let whole = '';
    for (;;) {
      const result = await call('read_doc', { library: 'testlib', path: 'reference/zebra.md', tokens: 200, offset });
      const part = data(result);
      expect(part.tokens).toBeLessThanOrEqual(200);
      whole += text(result);
      parts += 1;
      if (part.nextOffset === undefined) break;
      expect(text(result)).toContain(`offset ${part.nextOffset}`);
      offset = part.nextOffset;
    }
    expect(parts).toBeGreaterThan(2);
    expect(whole).toContain('Paragraph 0:');
    expect(whole).toContain('Paragraph 119:');
  });

  it('never reaches outside the package, and suggests close paths for an unknown one', async () => {
    const { call } = await connect({ store: full });
    const outside = await call('read_doc', { library: 'testlib', path: '../../../../etc/passwd' });
    expect(outside.isError).toBe(true);
    expect(data(outside).status).toBe('unknown-path');
    const close = await call('read_doc', { library: 'testlib', path: 'timers.md' });
    expect(close.isError).toBe(true);
    expect(data(close).suggestions).toEqual(['guide/timers.md']);
    expect(text(close)).toContain('guide/timers.md');
    const unknown = await call('read_doc', { library: 'tstlib', path: 'guide/timers.md' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('Did you mean "testlib"?');
  });
});

describe('scoped to some libraries (docs serve --libs)', () => {
  const scoped = () => connect({ store: full, libraries: ['webframe', 'testlib@0.9'] });

  it('lists and describes only those', async () => {
    const { client, call } = await scoped();
    const listed = data(await call('list_libraries'));
    expect(listed.libraries.map((l: { library: string }) => l.library)).toEqual(['testlib@0.9.0', 'webframe@2.0.0']);
    expect(listed.message).toContain('scoped to webframe, testlib@0.9');
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'get_docs')?.description).toContain('Libraries: testlib, webframe (');
  });

  it('refuses other libraries with the served ones listed, and gives a bare name its served version', async () => {
    const { call } = await scoped();
    const other = await call('get_docs', { library: 'apiframe', topic: 'cors' });
    expect(other.isError).toBe(true);
    expect(text(other)).toMatch(/not served by this server.*Served: testlib@0\.9\.0, webframe@2\.0\.0/);
    expect(text(other)).not.toContain('apiframe@3.1.0');
    const version = await call('get_docs', { library: 'testlib@1.0.0', topic: 'timers' });
    expect(version.isError).toBe(true);
    expect(text(version)).toContain('Versions served: 0.9.0');
    const bare = await call('get_docs', { library: 'testlib', topic: 'mock functions' });
    expect(data(bare).searched).toEqual(['testlib@0.9.0']);
    const typo = await call('get_docs', { library: 'webfram', topic: 'cors' });
    expect(text(typo)).toContain('Did you mean "webframe"?');
    const read = await call('read_doc', { library: 'apiframe', path: 'middleware/cors.md' });
    expect(read.isError).toBe(true);
  });

  it('searches only those', async () => {
    const { call } = await scoped();
    const all = data(await call('search_all', { topic: 'enable CORS' }));
    expect(all.searched).toEqual(['testlib@0.9.0', 'webframe@2.0.0']);
    expect(all.results.every((r: { library: string }) => r.library === 'webframe@2.0.0')).toBe(true);
    const other = await call('search_all', { topic: 'cors', libraries: ['apiframe'] });
    expect(other.isError).toBe(true);
  });

  it('says so when none of them is installed', async () => {
    const { call } = await connect({ store: full, libraries: ['nosuchlib'] });
    const result = await call('search_all', { topic: 'cors' });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/None of the libraries this server serves \(nosuchlib\) is installed/);
  });
});

describe('a store that changes while the server runs', () => {
  it('sees packages added and removed on the next call, and tells the client the tool list changed', async () => {
    const store = await storeWith([['webframe', '2.0.0', [cors('webframe')]]]);
    const { client, call } = await connect({ store });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    expect(data(await call('list_libraries')).libraries).toHaveLength(1);
    expect(changes).toBe(0);

    await install(store, 'apiframe', '3.1.0', [cors('apiframe')]);
    expect(data(await call('list_libraries')).libraries).toHaveLength(2);
    const search = data(await call('search_all', { topic: 'enable CORS' }));
    expect(search.searched).toEqual(['apiframe@3.1.0', 'webframe@2.0.0']);
    await expect.poll(() => changes).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'get_docs')?.description).toContain('Libraries: apiframe, webframe (');

    await store.remove('webframe');
    const gone = await call('get_docs', { library: 'webframe', topic: 'cors' });
    expect(gone.isError).toBe(true);
    await expect.poll(() => changes).toBe(2);
  });

  it('turns a store it cannot read into an error result, never a thrown error', async () => {
    const file = path.join(dir, 'not-a-directory');
    await writeFile(file, 'x');
    const { call } = await connect({ store: new PackageStore(file) });
    const result = await call('search_all', { topic: 'cors' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/could not read the documentation store/);
  });
});

describe('a package damaged after it was installed', () => {
  it('search_all leaves it out with a note naming it; get_docs says it is damaged and how to rebuild, never "invalid arguments"', async () => {
    const store = await storeWith([
      ['webframe', '2.0.0', [cors('webframe')]],
      ['apiframe', '3.1.0', [cors('apiframe')]],
    ]);
    const found = await store.resolve('apiframe');
    if (!found.ok) throw new Error('expected apiframe');
    const db = new Database(found.value.file);
    db.exec('UPDATE chunks SET tokens = -5');
    db.close();
    const { call } = await connect({ store });
    const all = await call('search_all', { topic: 'enable cors' });
    expect(all.isError).toBeFalsy();
    expect(data(all).searched).toEqual(['webframe@2.0.0']);
    expect(data(all).warnings).toEqual([
      expect.stringMatching(/^Left out apiframe@3\.1\.0: apiframe@3\.1\.0 is damaged/),
    ]);
    expect(text(all)).toMatch(/Note: Left out apiframe@3\.1\.0/);
    const one = await call('get_docs', { library: 'apiframe', topic: 'enable cors' });
    expect(one.isError).toBe(true);
    expect(text(one)).toMatch(
      /apiframe@3\.1\.0 is damaged \(chunk \d+: tokens is -5\); rebuild it: docs remove apiframe@3\.1\.0/,
    );
    expect(text(one)).not.toMatch(/Invalid arguments|at .*\.js:\d+/);
  });
});
