import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, installTestPackage, listedLibraries, resultLibraries } from './__tests__/fixtures.js';
import { type RunningHttpServer, ServerError, startHttpServer } from './index.js';

let dir: string;
let home: string;
const servers: RunningHttpServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-http-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startHttpServer>[0] = {}): Promise<RunningHttpServer> {
  const running = await startHttpServer({ home, port: 0, ...options });
  servers.push(running);
  return running;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw request, with any Host, Origin or body, as a browser or an attacker might send it. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body ?? initialize);
  });
}

describe('Streamable HTTP', () => {
  it('serves the four tools at /mcp on 127.0.0.1', async () => {
    const running = await start();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(running.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'list_libraries',
      'get_docs',
      'search_all',
      'read_doc',
    ]);
    const search = await callTool(client, 'search_all', { topic: 'enable CORS' });
    const libraries = new Set(resultLibraries(search.text));
    expect(libraries).toEqual(new Set(['apiframe@3.1.0', 'webframe@2.0.0']));
    expect((await callTool(client, 'get_docs', { library: 'TESTLIB', topic: 'timers' })).isError).toBe(false);
    const typo = await callTool(client, 'get_docs', { library: 'tstlib', topic: 'x' });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain('Did you mean "testlib"?');
    await client.close();
  });

  it('serves only the libraries given', async () => {
    const running = await start({ libraries: ['webframe'] });
    const client = await connect(running.url);
    expect(listedLibraries((await callTool(client, 'list_libraries')).text)).toEqual(['webframe@2.0.0']);
    await client.close();
  });

  it('refuses a request without the right bearer token when a token is set', async () => {
    const running = await start({ token: 'sesame' });
    await expect(connect(running.url)).rejects.toThrow(/401|Unauthorized/);
    const missing = await raw(running.url);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await raw(running.url, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await raw(running.url, { headers: { Authorization: 'sesame' } })).status).toBe(401);
    expect((await raw(running.url, { headers: { Authorization: 'Bearer sesame' } })).status).toBe(200);
    const client = await connect(running.url, { Authorization: 'Bearer sesame' });
    expect((await client.listTools()).tools).toHaveLength(4);
    await client.close();
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const running = await start();
    const port = new URL(running.url).port;
    expect((await raw(running.url, { headers: { Host: `evil.example:${port}` } })).status).toBe(403);
    expect((await raw(running.url, { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await raw(running.url, { headers: { Origin: 'null' } })).status).toBe(403);
    expect((await raw(running.url, { headers: { Host: `localhost:${port}` } })).status).toBe(200);
    expect((await raw(running.url, { headers: { Origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it('refuses an oversized body, whether declared or streamed, and bad JSON', async () => {
    const running = await start({ maxBodyBytes: 2000 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } });
    expect((await raw(running.url, { body: big })).status).toBe(413);
    expect((await raw(running.url, { body: big, headers: { 'Transfer-Encoding': 'chunked' } })).status).toBe(413);
    const bad = await raw(running.url, { body: '{not json' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(-32700);
  });

  it('hands each session an id and does not send it a section twice; another session, or none, gets it in full', async () => {
    const running = await start();
    const transports = [0, 1].map(() => new StreamableHTTPClientTransport(new URL(running.url)));
    const [a, b] = await Promise.all(
      transports.map(async (transport) => {
        const client = new Client({ name: 'session-test', version: '0.0.0' });
        await client.connect(transport);
        return client;
      }),
    );
    if (!a || !b) throw new Error('expected two clients');
    const [idA, idB] = transports.map((t) => t.sessionId);
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(idB).toMatch(/^[0-9a-f-]{36}$/);
    expect(idA).not.toBe(idB);
    const ask = { library: 'webframe', topic: 'cors' };
    const content = 'Enable CORS in webframe';
    expect((await callTool(a, 'get_docs', ask)).text).toContain(content);
    const again = await callTool(a, 'get_docs', ask);
    expect(again.text).not.toContain(content);
    expect(again.text).toMatch(/^## webframe@2\.0\.0 · CORS · middleware\/cors\.md \(score 1\.00, sent earlier\)$/m);
    expect((await callTool(a, 'search_all', { topic: 'cors', libraries: ['webframe'] })).text).not.toContain(content);
    expect((await callTool(b, 'get_docs', ask)).text).toContain(content);
    expect((await callTool(a, 'get_docs', { ...ask, fresh: true })).text).toContain(content);
    // A POST without a session id (a client that keeps none) is answered in full every time.
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_docs', arguments: ask },
    });
    for (let i = 0; i < 2; i++) expect((await raw(running.url, { body: call })).body).toContain(content);
    await Promise.all([a.close(), b.close()]);
  });

  it('answers other paths and methods plainly', async () => {
    const running = await start();
    expect((await raw(running.url, { path: '/elsewhere' })).status).toBe(404);
    const get = await raw(running.url, { method: 'GET', body: '' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('will not listen beyond this machine without a token', async () => {
    await expect(startHttpServer({ home, port: 0, host: '0.0.0.0' })).rejects.toThrow(ServerError);
    await expect(startHttpServer({ home, port: 0, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'token-required' });
    const open = await start({ host: '0.0.0.0', token: 'sesame' });
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect((await raw(open.url, { headers: { Authorization: 'Bearer sesame' } })).status).toBe(200);
  });

  it('says which port is in use', async () => {
    const running = await start();
    const port = Number(new URL(running.url).port);
    await expect(startHttpServer({ home, port })).rejects.toMatchObject({ code: 'address-in-use' });
  });

  it('closes cleanly, open connections included', async () => {
    const running = await startHttpServer({ home, port: 0 });
    const client = await connect(running.url);
    await running.close();
    await running.closed;
    await expect(raw(running.url)).rejects.toThrow(/ECONNREFUSED/);
    await client.close();
  });
});
