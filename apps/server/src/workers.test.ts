import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callTool, installTestPackage, type ToolAnswer, testPackages } from './__tests__/fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

// Worker threads exist only in the built server (the worker is a compiled file), so `docs serve --http --workers 2`
// runs from the built CLI in a process of its own, and its answers are compared with a server answering on this
// thread (from the sources, workers: 0) over the same store.
const bin = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));
let dir: string;
let home: string;
let child: ChildProcess;
let workersUrl: string;
let workersLog: () => string;
let inline: RunningHttpServer;
const clients: Client[] = [];

/** `docs serve --http` on any port over the test store, from the built CLI, with `flags` (and Node's `nodeFlags`). */
function serve(flags: readonly string[], nodeFlags: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, bin, 'serve', '--http', '0', ...flags, '--home', home], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** The URL a `docs serve --http` process says it is ready at, and what it has written to stderr so far. */
function ready(server: ChildProcess): Promise<{ url: string; log: () => string }> {
  let log = '';
  return new Promise((resolve, reject) => {
    server.stderr?.setEncoding('utf8');
    server.stderr?.on('data', (chunk: string) => {
      log += chunk;
      const url = /ready at (http:\/\/\S+)/.exec(log)?.[1];
      if (url) resolve({ url, log: () => log });
    });
    server.on('exit', (code) => reject(new Error(`docs serve exited ${code}: ${log}`)));
  });
}

/** Ends a `docs serve` process, if it has not ended already. */
async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-workers-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
  child = serve(['--workers', '2']);
  ({ url: workersUrl, log: workersLog } = await ready(child));
  inline = await startHttpServer({ home, port: 0, workers: 0 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await inline?.close();
  if (child) await stop(child);
  await rm(dir, { recursive: true, force: true });
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'workers-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

it('says how many worker threads answer, and the in-process server none', () => {
  expect(workersLog()).toContain('(2 worker threads)');
  expect(inline.workers).toBe(0);
});

it('answers every tool over MCP exactly as a server answering on its own thread', async () => {
  const [threaded, local] = await Promise.all([connect(workersUrl), connect(inline.url)]);
  const calls: [string, Record<string, unknown>][] = [
    ['list_libraries', {}],
    ['get_docs', { library: 'webframe', topic: 'cors middleware' }],
    ['get_docs', { library: 'testlib', topic: 'fake timers', format: 'index' }],
    ['get_docs', { library: 'nosuchlib', topic: 'cors' }],
    ['search_all', { topic: 'enable cors' }],
    ['search_all', { topic: 'timers', libraries: ['testlib', 'apiframe'] }],
    ['read_doc', { library: 'apiframe', path: 'middleware/cors.md' }],
  ];
  for (const [name, args] of calls) {
    // Twice each: requests go to the two workers in turn, and both must answer alike.
    for (let round = 0; round < 2; round++) {
      const [a, b] = await Promise.all([callTool(threaded, name, args), callTool(local, name, args)]);
      expect(a, `${name} ${JSON.stringify(args)}`).toEqual(b);
    }
  }
  // The session was sent the section above: fresh asks for it again.
  expect((await callTool(threaded, 'get_docs', { library: 'webframe', topic: 'cors', fresh: true })).text).toContain(
    'Enable CORS in webframe',
  );
});

it('sends every request of a session to one worker, which remembers what that session was sent', async () => {
  const client = await connect(workersUrl);
  const ask = { library: 'testlib', topic: 'fake timers' };
  expect((await callTool(client, 'get_docs', ask)).text).toContain('Fake timers replace setTimeout');
  // The two workers take requests without a session in turn: a memory on one of them only would show the content again.
  for (let i = 0; i < 4; i++) {
    const again = await callTool(client, 'get_docs', ask);
    expect(again.text, `call ${i + 2}`).toMatch(/sent earlier/);
    expect(again.text, `call ${i + 2}`).not.toContain('Fake timers replace setTimeout');
  }
});

/** A tools/call POST without a session id, which goes to the least busy worker, ties taken in turn: its text. */
async function sessionless(url: string, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const { result } = (await response.json()) as { result: { isError?: boolean; content: { text: string }[] } };
  return { isError: result.isError === true, text: result.content.map((c) => c.text).join('\n') };
}

it('answers the JSON API byte for byte as the in-process server, errors included', async () => {
  const origin = new URL(workersUrl).origin;
  for (const query of [
    '/api/search?q=cors',
    '/api/search?q=timers&library=testlib',
    '/api/search?q=cors&library=nosuchlib',
    '/api/search?q=cors&limit=abc',
    '/api/libraries',
    '/api/read?library=webframe&path=middleware/cors.md',
  ]) {
    const [a, b] = await Promise.all([fetch(origin + query), fetch(new URL(inline.pageUrl).origin + query)]);
    expect(a.status, query).toBe(b.status);
    expect(a.headers.get('content-type'), query).toBe(b.headers.get('content-type'));
    expect(await a.text(), query).toBe(await b.text());
  }
});

it('sees a package installed and removed while it serves, on every worker', async () => {
  const listed = async () => {
    // Four calls in a row without a session reach both workers (each takes its turn when neither is busy).
    const names = [];
    for (let i = 0; i < 4; i++) {
      const answer = await sessionless(workersUrl, 'get_docs', { library: 'latecomer', topic: 'cors' });
      names.push(answer.isError ? 'missing' : 'found');
    }
    return names;
  };
  expect(await listed()).toEqual(['missing', 'missing', 'missing', 'missing']);
  const file = path.join(dir, 'latecomer@1.0.0.db');
  const { documents } = testPackages.webframe;
  await writePackage(file, { name: 'latecomer', version: '1.0.0' }, documents);
  const store = new PackageStore(home);
  await store.install(file);
  expect(await listed()).toEqual(['found', 'found', 'found', 'found']);
  await store.remove('latecomer@1.0.0');
  await store.close();
  expect(await listed()).toEqual(['missing', 'missing', 'missing', 'missing']);
});

it('takes the HTTP limits from docs serve flags (here a batch of at most 2, on one worker)', async () => {
  const limited = serve(['--workers', '1', '--max-batch', '2', '--max-response', '1']);
  try {
    const { url, log } = await ready(limited);
    expect(log()).toContain('(1 worker thread)');
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_libraries' } });
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      });
    const three = await post([call(1), call(2), call(3)]);
    expect(three.status).toBe(400);
    expect(((await three.json()) as { error: { message: string } }).error.message).toContain('at most 2 per request');
    const two = await post([call(1), call(2)]);
    expect(two.status).toBe(200);
    expect(((await two.json()) as unknown[]).length).toBe(2);
  } finally {
    await stop(limited);
  }
});

it('starts its workers when Node runs it with V8 flags (node --max-old-space-size=… docs serve --http)', async () => {
  // A worker given the flags as a list refuses V8 and process-wide ones; the server failed to start with
  // ERR_WORKER_INVALID_EXEC_ARGV, reported as a bug.
  const flagged = serve(['--workers', '1'], ['--max-old-space-size=1024', '--expose-gc']);
  try {
    const { url, log } = await ready(flagged);
    expect(log()).toContain('(1 worker thread)');
    const answer = await callTool(await connect(url), 'get_docs', { library: 'webframe', topic: 'cors' });
    expect(answer.text).toContain('Enable CORS in webframe');
  } finally {
    await stop(flagged);
  }
});
