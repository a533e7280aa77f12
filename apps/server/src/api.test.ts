import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEARCH_DEFAULTS } from '@docs/search';
import { PACKAGE_FORMAT_VERSION } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, installTestPackage } from './__tests__/fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

let dir: string;
let home: string;
let server: RunningHttpServer;
const servers: RunningHttpServer[] = [];

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document and answers are checked by the validator
type Json = any;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Json;
}

/** A raw GET (or another method), with any Host, Origin or Authorization, as a browser or an attacker might send it. */
/**
 * The API answers with the search tools' structured form (checked against the OpenAPI document, which is made from
 * the tools' output schemas); MCP sends its text: the same results, each under its header with its content, in the
 * same order, and the same message.
 */
function expectSameAsMcp(body: Json, viaMcp: { text: string }): void {
  expect(body.results.length).toBeGreaterThan(0);
  let from = 0;
  for (const result of body.results) {
    const header = `## ${result.library} · `;
    const at = viaMcp.text.indexOf(header, from);
    expect(at, header).toBeGreaterThanOrEqual(from);
    expect(viaMcp.text.slice(at)).toContain(`· ${result.path} (score ${result.score.toFixed(2)}`);
    expect(viaMcp.text.slice(at)).toContain(result.content);
    from = at + header.length;
  }
  expect(viaMcp.text).toContain(body.message);
}

function get(base: string, target: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: target, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const type = String(res.headers['content-type'] ?? '');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: type.startsWith('application/json') && text ? JSON.parse(text) : text,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function start(options: Parameters<typeof startHttpServer>[0] = {}): Promise<RunningHttpServer> {
  const running = await startHttpServer({ home, port: 0, ...options });
  servers.push(running);
  return running;
}

let openapi: Json;
const validators = new Map<string, ValidateFunction>();

/** Checks an answer against the OpenAPI document: the schema of its path and status, which the document must declare. */
function expectDocumented(target: string, answer: Answer): void {
  const pathname = new URL(target, 'http://x').pathname;
  const operation = openapi.paths[pathname]?.get;
  expect(operation, `${pathname} is in the OpenAPI document`).toBeDefined();
  const response = operation.responses[String(answer.status)];
  expect(response, `${pathname} documents status ${answer.status}`).toBeDefined();
  const ref: string = response.content['application/json'].schema.$ref;
  const validate = validators.get(ref);
  if (!validate) throw new Error(`no validator for ${ref}`);
  const valid = validate(answer.body);
  expect(validate.errors ?? [], `${target} → ${answer.status} matches ${ref}`).toEqual([]);
  expect(valid).toBe(true);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
  server = await start();
  const doc = await get(server.pageUrl, '/api/openapi.json');
  expect(doc.status).toBe(200);
  openapi = doc.body;
  // Strict: a keyword the validator does not know (a mistake in the generated schemas) fails here.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  for (const [name, schema] of Object.entries(openapi.components.schemas)) {
    validators.set(`#/components/schemas/${name}`, ajv.compile(schema as object));
  }
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the three endpoints, each parameter typed from the tools’ input schemas', () => {
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(['/api/libraries', '/api/search', '/api/read', '/api/openapi.json']);
    const search = openapi.paths['/api/search'].get;
    const param = (name: string) => search.parameters.find((p: Json) => p.name === name);
    expect(param('q')).toMatchObject({ in: 'query', required: true, schema: { type: 'string', maxLength: 1000 } });
    expect(param('library')).toMatchObject({ required: false, explode: true, schema: { type: 'array', maxItems: 50 } });
    expect(param('tokens').schema).toEqual({
      type: 'integer',
      minimum: 100,
      maximum: 20000,
      default: SEARCH_DEFAULTS.tokens,
    });
    expect(param('format').schema).toMatchObject({ enum: ['full', 'index'] });
    expect(openapi.components.schemas.SearchResponse.properties.results.items.required).toContain('library');
  });

  it('holds for every bound it declares: the server refuses each value just outside one with a 400', async () => {
    const required: Record<string, string> = { q: 'cors', library: 'webframe', path: 'middleware/cors.md' };
    let checked = 0;
    for (const [pathname, item] of Object.entries<Json>(openapi.paths)) {
      for (const param of item.get.parameters ?? []) {
        const outside = [
          param.schema.minimum === undefined ? undefined : param.schema.minimum - 1,
          param.schema.maximum === undefined ? undefined : param.schema.maximum + 1,
          param.schema.minLength === 1 ? '' : undefined,
          param.schema.enum ? 'neither' : undefined,
        ].filter((v) => v !== undefined);
        for (const value of outside) {
          const query = new URLSearchParams({ ...required, [param.name]: String(value) });
          for (const name of Object.keys(required)) {
            if (!item.get.parameters.some((p: Json) => p.name === name)) query.delete(name);
          }
          const answer = await get(server.pageUrl, `${pathname}?${query}`);
          expect(answer.status, `${pathname}?${query}`).toBe(400);
          expect(answer.body.error.message).toContain(param.name);
          expectDocumented(pathname, answer);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});

describe('GET /api/libraries', () => {
  it('lists the installed libraries with their sizes', async () => {
    const answer = await get(server.pageUrl, '/api/libraries');
    expect(answer.status).toBe(200);
    expect(answer.body.libraries.map((l: Json) => l.library)).toEqual([
      'apiframe@3.1.0',
      'testlib@1.0.0',
      'webframe@2.0.0',
    ]);
    expect(answer.body.libraries[0]).toMatchObject({ name: 'apiframe', version: '3.1.0', sections: 1 });
    expect(answer.body.libraries[0].bytes).toBeGreaterThan(0);
    expectDocumented('/api/libraries', answer);
  });

  it('says how to add documentation when none is installed', async () => {
    const empty = await start({ home: path.join(dir, 'empty-home') });
    const libraries = await get(empty.pageUrl, '/api/libraries');
    expect(libraries.status).toBe(200);
    expect(libraries.body).toMatchObject({ libraries: [] });
    expect(libraries.body.message).toContain('docs add');
    expectDocumented('/api/libraries', libraries);
    const search = await get(empty.pageUrl, '/api/search?q=cors');
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ status: 'no-packages', results: [] });
    expectDocumented('/api/search', search);
  });
});

describe('GET /api/search', () => {
  it('searches every library, each result labelled, the answer the same as search_all’s', async () => {
    const answer = await get(server.pageUrl, '/api/search?q=enable%20CORS');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.body.status).toBe('ok');
    expect(answer.body.results.map((r: Json) => r.library).sort()).toEqual(['apiframe@3.1.0', 'webframe@2.0.0']);
    expect(answer.body.results[0]).toMatchObject({ path: 'middleware/cors.md', breadcrumb: ['CORS'] });
    expectDocumented('/api/search', answer);

    const client = new Client({ name: 'api-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const viaMcp = await callTool(client, 'search_all', { topic: 'enable CORS' });
    await client.close();
    expectSameAsMcp(answer.body, viaMcp);
  });

  it('searches one library (a name, name@version or a range), or the ones repeated', async () => {
    for (const library of ['webframe', 'WebFrame@2.0.0', 'webframe@2']) {
      const one = await get(server.pageUrl, `/api/search?q=cors&library=${encodeURIComponent(library)}`);
      expect(one.status, library).toBe(200);
      expect(one.body.searched).toEqual(['webframe@2.0.0']);
      expect(one.body.results.map((r: Json) => r.library)).toEqual(['webframe@2.0.0']);
      expectDocumented('/api/search', one);
    }
    const two = await get(server.pageUrl, '/api/search?q=cors&library=webframe&library=testlib');
    expect(two.body.searched.sort()).toEqual(['testlib@1.0.0', 'webframe@2.0.0']);
    expectDocumented('/api/search', two);
  });

  it('pages and formats as the tools do', async () => {
    const index = await get(server.pageUrl, '/api/search?q=cors&format=index&limit=1');
    expect(index.status).toBe(200);
    expect(index.body.results).toHaveLength(1);
    expect(index.body.results[0].content).toBeUndefined();
    expect(index.body.nextOffset).toBe(1);
    const next = await get(server.pageUrl, '/api/search?q=cors&format=index&limit=1&offset=1');
    expect(next.body.results[0].library).not.toBe(index.body.results[0].library);
    expectDocumented('/api/search', index);
    expectDocumented('/api/search', next);
  });

  it('takes other phrasings (also) and a retrieval mode, as the tools do', async () => {
    const target = '/api/search?q=allow%20requests%20from%20another%20site&library=webframe&also=cors&also=middleware';
    const answer = await get(server.pageUrl, target);
    expect(answer.status).toBe(200);
    expect(answer.body.phrasings.map((p: Json) => p.text)).toEqual([
      'allow requests from another site',
      'cors',
      'middleware',
    ]);
    expectDocumented('/api/search', answer);
    const client = new Client({ name: 'api-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const viaMcp = await callTool(client, 'get_docs', {
      library: 'webframe',
      topic: 'allow requests from another site',
      alternatives: ['cors', 'middleware'],
    });
    await client.close();
    expectSameAsMcp(answer.body, viaMcp);

    const lexical = await get(server.pageUrl, '/api/search?q=cors&mode=lexical');
    expect(lexical.status).toBe(200);
    expect(lexical.body.retrieval.mode).toBe('lexical');
    const tooMany = await get(server.pageUrl, `/api/search?q=cors${'&also=x'.repeat(5)}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/^also/);
    const badMode = await get(server.pageUrl, '/api/search?q=cors&mode=semantic');
    expect(badMode.status).toBe(400);
    expect(badMode.body.error.message).toMatch(/^mode/);
  });

  it('answers a query with search syntax as words, never an error', async () => {
    const answer = await get(server.pageUrl, `/api/search?q=${encodeURIComponent('"cors" OR (NOT *:- AND')}`);
    expect(answer.status).toBe(200);
    expect(answer.body.results.length).toBeGreaterThan(0);
    expectDocumented('/api/search', answer);
  });

  it.each([
    ['/api/search', 'q is required'],
    ['/api/search?q=', 'q'],
    ['/api/search?q=cors&tokens=many', 'tokens must be a number'],
    ['/api/search?q=cors&tokens=1.5', 'tokens'],
    ['/api/search?q=cors&limit=2&limit=3', 'limit is given 2 times'],
    ['/api/search?q=cors&query=cors', 'Unknown parameter "query"'],
    [`/api/search?q=${'x'.repeat(1001)}`, 'q'],
    ['/api/read?library=webframe', 'path is required'],
    ['/api/libraries?all=1', 'Unknown parameter "all"'],
  ])('refuses %s with a 400 that names the parameter', async (target, says) => {
    const answer = await get(server.pageUrl, target);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('bad-request');
    expect(answer.body.error.message).toContain(says);
    expectDocumented(target, answer);
  });

  it('answers an unknown library or version with a 404 listing what is installed', async () => {
    const unknown = await get(server.pageUrl, '/api/search?q=cors&library=webfrane');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'unknown-library', suggestion: 'webframe' });
    expect(unknown.body.error.installed).toContain('webframe@2.0.0');
    expectDocumented('/api/search', unknown);
    const version = await get(server.pageUrl, '/api/search?q=cors&library=webframe@9');
    expect(version.status).toBe(404);
    expect(version.body.error.code).toBe('unknown-version');
    expectDocumented('/api/search', version);
    const several = await get(server.pageUrl, '/api/search?q=cors&library=webframe&library=nothere');
    expect(several.status).toBe(404);
    expect(several.body.error.code).toBe('unknown-library');
    expectDocumented('/api/search', several);
  });
});

describe('GET /api/read', () => {
  it('reads a whole page, with or without its extension, in parts when asked', async () => {
    const page = await get(server.pageUrl, '/api/read?library=webframe&path=middleware/cors');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      status: 'ok',
      library: 'webframe@2.0.0',
      path: 'middleware/cors.md',
      title: 'CORS',
    });
    expect(page.body.content).toContain('Enable CORS in webframe');
    expectDocumented('/api/read', page);
  });

  it('says where the page lives on the web when its package was built from a repository on a known host', async () => {
    const sourced = path.join(dir, 'sourced-home');
    await installTestPackage(sourced, 'webframe', 'https://github.com/example/webframe#0a1b2c3 path docs (tag v2.0.0)');
    await installTestPackage(sourced, 'testlib', path.join(dir, 'a-local-folder'));
    const running = await start({ home: sourced });
    const page = await get(running.pageUrl, '/api/read?library=webframe&path=middleware/cors');
    expect(page.status).toBe(200);
    expect(page.body.webUrl).toBe('https://github.com/example/webframe/blob/0a1b2c3/docs/middleware/cors.md');
    expectDocumented('/api/read', page);
    // A package built from a folder has no address on the web; neither have the packages of the first server.
    const local = await get(running.pageUrl, '/api/read?library=testlib&path=guide/timers.md');
    expect(local.status).toBe(200);
    expect(local.body).not.toHaveProperty('webUrl');
    const plain = await get(server.pageUrl, '/api/read?library=webframe&path=middleware/cors');
    expect(plain.body).not.toHaveProperty('webUrl');
  });

  it('answers an unknown path or library with a 404 and what is close', async () => {
    const missing = await get(server.pageUrl, '/api/read?library=webframe&path=guide/cors.html');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('unknown-path');
    expect(missing.body.error.suggestions).toContain('middleware/cors.md');
    expectDocumented('/api/read', missing);
    const library = await get(server.pageUrl, '/api/read?library=nothere&path=a.md');
    expect(library.status).toBe(404);
    expect(library.body.error.code).toBe('unknown-library');
    expectDocumented('/api/read', library);
  });
});

describe('the API’s edges and guards', () => {
  it('answers an unknown endpoint with a JSON 404 and another method with a 405', async () => {
    const unknown = await get(server.pageUrl, '/api/find?q=cors');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('/api/search');
    const post = await get(server.pageUrl, '/api/search?q=cors', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body.error.code).toBe('method-not-allowed');
  });

  it('refuses another site’s Host or Origin with a JSON 403', async () => {
    const host = await get(server.pageUrl, '/api/libraries', { headers: { Host: 'evil.example:80' } });
    expect(host.status).toBe(403);
    expect(host.body.error.code).toBe('forbidden');
    expectDocumented('/api/libraries', host);
    const origin = await get(server.pageUrl, '/api/search?q=cors', { headers: { Origin: 'https://evil.example' } });
    expect(origin.status).toBe(403);
    expectDocumented('/api/search', origin);
    const page = await get(server.pageUrl, '/', { headers: { Host: 'evil.example' } });
    expect(page.status).toBe(403);
  });

  it('asks for the token when one is set, on the API but not on the page', async () => {
    const guarded = await start({ token: 'secret' });
    const without = await get(guarded.pageUrl, '/api/libraries');
    expect(without.status).toBe(401);
    expect(without.headers['www-authenticate']).toBe('Bearer');
    expect(without.body.error.code).toBe('unauthorized');
    expectDocumented('/api/libraries', without);
    const wrong = await get(guarded.pageUrl, '/api/read?library=webframe&path=a', {
      headers: { Authorization: 'Bearer wrong' },
    });
    expect(wrong.status).toBe(401);
    const right = await get(guarded.pageUrl, '/api/libraries', { headers: { Authorization: 'Bearer secret' } });
    expect(right.status).toBe(200);
    const page = await get(guarded.pageUrl, '/');
    expect(page.status).not.toBe(401);
  });

  it('serves only the libraries a scoped server serves', async () => {
    const scoped = await start({ libraries: ['testlib'] });
    const libraries = await get(scoped.pageUrl, '/api/libraries');
    expect(libraries.body.libraries.map((l: Json) => l.library)).toEqual(['testlib@1.0.0']);
    const all = await get(scoped.pageUrl, '/api/search?q=cors');
    expect(all.body.searched).toEqual(['testlib@1.0.0']);
    const outside = await get(scoped.pageUrl, '/api/read?library=webframe&path=middleware/cors.md');
    expect(outside.status).toBe(404);
    expectDocumented('/api/read', outside);
  });

  it('leaves out a library damaged after it was installed, with a warning naming it; the others answer (200)', async () => {
    const damagedHome = path.join(dir, 'damaged-home');
    await installTestPackage(damagedHome, 'webframe');
    await installTestPackage(damagedHome, 'apiframe');
    // Cut to half its size, as a full disk or an interrupted copy leaves a file.
    const file = path.join(damagedHome, 'apiframe@3.1.0.db');
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = await start({ home: damagedHome });
    const answer = await get(damaged.pageUrl, '/api/search?q=enable%20CORS');
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r: Json) => r.library)).toEqual(['webframe@2.0.0']);
    expect(answer.body.warnings).toEqual([
      expect.stringMatching(/^Left out apiframe@3\.1\.0: apiframe@3\.1\.0 is damaged/),
    ]);
    expectDocumented('/api/search', answer);
  });

  it('answers a store it cannot read with a 500 that says why, not an empty result', async () => {
    const staleHome = path.join(dir, 'stale-home');
    await installTestPackage(staleHome, 'testlib');
    // A package an older docs wrote: the same file with an older format number (SQLite's user_version, at byte 60).
    const file = path.join(staleHome, 'testlib@1.0.0.db');
    const bytes = await readFile(file);
    bytes.writeUInt32BE(PACKAGE_FORMAT_VERSION - 1, 60);
    await writeFile(file, bytes);
    const stale = await start({ home: staleHome });
    const answer = await get(stale.pageUrl, '/api/search?q=timers');
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('store-error');
    expect(answer.body.error.message).toMatch(/testlib@1\.0\.0 .*older docs; rebuild it/);
    expectDocumented('/api/search', answer);
  });
});
