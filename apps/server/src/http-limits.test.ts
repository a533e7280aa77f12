import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect as connectSocket, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, installTestPackage, resultLibraries } from './__tests__/fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

// Each limit through a real server on port 0 and real sockets: what a slow or greedy client sees.

let dir: string;
let home: string;
const servers: RunningHttpServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-http-limits-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe'] as const) await installTestPackage(home, name);
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

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectSocket({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  return new Promise((resolve) => socket.once('close', () => resolve({ text, ms: Date.now() - started })));
}

/** One whole request on a connection of its own, its body parsed as JSON. */
function request(
  url: string,
  body: string,
  requestPath = '/mcp',
  method = 'POST',
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; json: unknown }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: requestPath,
        method,
        agent: false,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extraHeaders },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text === '' ? undefined : JSON.parse(text),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw answer (as Node's parser-level refusals come): status and JSON body. */
function parse(text: string): { status: number; json: unknown } {
  const [headers = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0);
  return { status, json: body === '' ? undefined : JSON.parse(body) };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('HTTP limits', () => {
  it('cuts off a body sent a byte at a time (408, saying why), not when it finishes', async () => {
    const running = await start({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open(running.url);
    const done = untilClosed(socket);
    const { host } = new URL(running.url);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    const { text, ms } = await done;
    clearInterval(drip);
    const answer = parse(text);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ error: { message: expect.stringMatching(/^Request timeout: .*600 ms/) } });
    // 1000 bytes at one per 50 ms would take 50 s; the limit plus Node's check interval is well under 5 s.
    expect(ms).toBeLessThan(5000);
  });

  it('cuts off headers that never end (408)', async () => {
    const running = await start({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const socket = await open(running.url);
    const done = untilClosed(socket);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 50);
    const { text, ms } = await done;
    clearInterval(drip);
    expect(parse(text).status).toBe(408);
    expect(ms).toBeLessThan(5000);
    // A connection that sends nothing at all goes the same way.
    const silent = await untilClosed(await open(running.url));
    expect(parse(silent.text).status).toBe(408);
    expect(silent.ms).toBeLessThan(5000);
  });

  it('answers a request beyond the limit 503 with Retry-After, and serves again once others end', async () => {
    const running = await start({ limits: { maxConnections: 2 } });
    // Two requests in progress (headers sent, the body still to come) hold the two slots.
    const held = [await open(running.url), await open(running.url)];
    for (const socket of held)
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await request(running.url, JSON.stringify(initialize));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json).toMatchObject({ error: { message: expect.stringMatching(/more than 2 requests/) } });
    const api = await request(running.url, '', '/api/libraries', 'GET');
    expect(api.status).toBe(503);
    expect(api.json).toMatchObject({ error: { code: 'busy' } });
    await Promise.all(held.map((socket) => new Promise<void>((resolve) => socket.end(() => resolve()))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await request(running.url, JSON.stringify(initialize))).status).toBe(200);
  });

  it('refuses a JSON-RPC batch over the limit (400, -32600) before running any of it', async () => {
    const running = await start({ limits: { maxBatch: 4 } });
    const five = await request(running.url, JSON.stringify([1, 2, 3, 4, 5].map(ping)));
    expect(five.status).toBe(400);
    expect(five.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Batch too large: 5 calls; at most 4 per request (send the rest in other requests)',
      },
      id: null,
    });
  });

  it('replaces an answer over the size limit with an error saying how to ask for less, on /mcp and /api', async () => {
    const running = await start({ limits: { maxResponseBytes: 1500 } });
    expect((await request(running.url, JSON.stringify(ping(7)))).status).toBe(200);
    const list = await request(running.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(list.status).toBe(500);
    expect(list.json).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/^Response too large: \d+ bytes, over the limit of 1500\. Ask for less/),
      },
    });
    const openapi = await request(running.url, '', '/api/openapi.json', 'GET');
    expect(openapi.status).toBe(500);
    expect(openapi.json).toMatchObject({
      error: { code: 'too-large', message: expect.stringMatching(/limit of 1500/) },
    });
    expect((await request(running.url, '', '/api/libraries', 'GET')).status).toBe(200);
  });
});

describe('MCP servers reused across requests', () => {
  it('answer many clients at once correctly, and see libraries installed after they were built', async () => {
    const running = await start();
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new Client({ name: 'pool-test', version: '0.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
        return client;
      }),
    );
    const answers = await Promise.all(
      clients.flatMap((client, i) => [
        callTool(client, 'get_docs', { library: i % 2 === 0 ? 'webframe' : 'apiframe', topic: 'cors' }),
        callTool(client, 'get_docs', { library: i % 2 === 0 ? 'apiframe' : 'webframe', topic: 'cors' }),
      ]),
    );
    answers.forEach((answer, n) => {
      const i = Math.floor(n / 2);
      const expected = (i % 2 === 0) === (n % 2 === 0) ? 'webframe@2.0.0' : 'apiframe@3.1.0';
      expect(resultLibraries(answer.text)[0]).toBe(expected);
    });
    const description = async () =>
      (await (clients[0] as Client).listTools()).tools.find((t) => t.name === 'get_docs')?.description ?? '';
    expect(await description()).not.toMatch(/testlib/);
    await installTestPackage(home, 'testlib');
    expect(await description()).toMatch(/Libraries: .*testlib/);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('keeps slots for clients with the token: 128 slow clients without it hold none, and are cut off', async () => {
    const running = await start({
      token: 'secret',
      workers: 0,
      limits: { headersTimeoutMs: 1500, requestTimeoutMs: 3000 },
    });
    const { host } = new URL(running.url);
    const slow: Socket[] = [];
    const closed: Promise<{ text: string; ms: number }>[] = [];
    for (let i = 0; i < 128; i++) {
      const socket = await open(running.url);
      closed.push(untilClosed(socket));
      slow.push(socket);
      // Half dribble their headers, half send headers without the token and then dribble a body.
      if (i % 2 === 0) socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`);
      else
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[`,
        );
    }
    const drip = setInterval(() => {
      for (const [i, socket] of slow.entries()) if (socket.writable) socket.write(i % 2 === 0 ? 'X-Slow: 1\r\n' : ' ');
    }, 100);
    try {
      const answers = await Promise.all(
        Array.from({ length: 48 }, (_, i) =>
          request(running.url, JSON.stringify(ping(i)), '/mcp', 'POST', { Authorization: 'Bearer secret' }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      // Each slow client is cut off: the ones without the token at once (401), the others at the headers' limit.
      const ends = await Promise.all(closed);
      const statuses = ends.map((end) => Number(/^HTTP\/1\.1 (\d+)/.exec(end.text)?.[1] ?? 0));
      expect(statuses.filter((status) => status === 401)).toHaveLength(64);
      expect(statuses.filter((status) => status === 408)).toHaveLength(64);
      expect(Math.max(...ends.map((end) => end.ms))).toBeLessThan(6000);
    } finally {
      clearInterval(drip);
      for (const socket of slow) socket.destroy();
    }
  });

  it('refuses a body nested 400,000 deep with 400, not a stack overflow (500)', async () => {
    const running = await start();
    const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
    const answer = await request(running.url, deep);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: { code: -32700, message: expect.stringMatching(/nests deeper than 64/) },
    });
    // Brackets inside strings are text, not nesting.
    const text = { ...ping(7), params: { note: '['.repeat(1000) } };
    expect((await request(running.url, JSON.stringify(text))).status).toBe(200);
  });
});
