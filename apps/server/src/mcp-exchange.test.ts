import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installTestPackage } from './__tests__/fixtures.js';
import type { HttpAnswer } from './api.js';
import { createServer } from './create-server.js';
import type { RequestHandler } from './handler-contract.js';
import { McpExchange } from './mcp-exchange.js';
import { localHandler } from './request-handler.js';

let dir: string;
let home: string;
let handler: RequestHandler;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-exchange-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe'] as const) await installTestPackage(home, name);
  handler = await localHandler({ home });
});

afterAll(async () => {
  await handler.close();
  await rm(dir, { recursive: true, force: true });
});

const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-06-18',
};

/** What the SDK's own transport answers: a fresh server and transport for the one request, as a stateless server does. */
async function sdkAnswer(message: unknown, headers: Record<string, string>): Promise<HttpAnswer> {
  const docs = await createServer({ home });
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  try {
    await docs.server.connect(transport);
    const request = new Request('http://localhost/mcp', { method: 'POST', headers });
    const response = await transport.handleRequest(request, { parsedBody: message });
    const body = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), ...(body ? { body } : {}) };
  } finally {
    await transport.close();
    await docs.close();
  }
}

const call = (id: unknown, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** Requests the exchange answers itself. */
const taken: [string, unknown, Record<string, string>][] = [
  ['get_docs', call(1, 'get_docs', { library: 'webframe', topic: 'cors middleware' }), HEADERS],
  ['search_all with a string id', call('a-1', 'search_all', { topic: 'cors' }), HEADERS],
  ['read_doc with id 0', call(0, 'read_doc', { library: 'apiframe', path: 'middleware/cors.md' }), HEADERS],
  ['list_libraries', call(-7, 'list_libraries', {}), HEADERS],
  ['an unknown library', call(2, 'get_docs', { library: 'nope', topic: 'cors' }), HEADERS],
  ['arguments the schema refuses', call(3, 'get_docs', { library: 'webframe', topic: '' }), HEADERS],
  ['an unknown tool', call(4, 'no_such_tool', {}), HEADERS],
  ['tools/list', { jsonrpc: '2.0', id: 5, method: 'tools/list' }, HEADERS],
  ['ping', { jsonrpc: '2.0', id: 6, method: 'ping' }, HEADERS],
  ['an unknown method', { jsonrpc: '2.0', id: 7, method: 'resources/list' }, HEADERS],
  ['no protocol version header', call(8, 'search_all', { topic: 'cors' }), { ...HEADERS, 'mcp-protocol-version': '' }],
  [
    'JSON with charset',
    call(9, 'list_libraries', {}),
    { ...HEADERS, 'content-type': 'application/json; charset=UTF-8' },
  ],
];

/** Requests left to the SDK's transport, errors included. */
const left: [string, unknown, Record<string, string>][] = [
  [
    'initialize',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    HEADERS,
  ],
  ['a batch', [call(1, 'list_libraries', {}), { jsonrpc: '2.0', id: 2, method: 'ping' }], HEADERS],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, HEADERS],
  ['a key JSON-RPC does not have', { ...call(1, 'list_libraries', {}), extra: true }, HEADERS],
  ['no jsonrpc version', { id: 1, method: 'ping' }, HEADERS],
  ['a response, not a request', { jsonrpc: '2.0', id: 1, result: {} }, HEADERS],
  ['not an object', 'ping', HEADERS],
  ['Accept without event streams', call(1, 'list_libraries', {}), { ...HEADERS, accept: 'application/json' }],
  ['a Content-Type not JSON', call(1, 'list_libraries', {}), { ...HEADERS, 'content-type': 'text/plain' }],
  [
    'an unsupported protocol version',
    call(1, 'list_libraries', {}),
    { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
  ],
];

/** The headers as mcpHeaders hands them on: an empty value is a header not sent. */
const sent = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v));

it.each(taken)('answers %s itself, byte for byte as the SDK transport does', async (_, message, headers) => {
  expect(new McpExchange().take(message, sent(headers))).toBeDefined();
  expect(await handler.mcp(message, sent(headers))).toEqual(await sdkAnswer(message, sent(headers)));
});

it.each(left)('leaves %s to the SDK transport, with its answer', async (_, message, headers) => {
  expect(new McpExchange().take(message, sent(headers))).toBeUndefined();
  const { 'mcp-session-id': session, ...answerHeaders } = (await handler.mcp(message, sent(headers))).headers;
  const answer = await handler.mcp(message, sent(headers));
  const { 'mcp-session-id': _second, ...rest } = answer.headers;
  expect({ ...answer, headers: rest }).toEqual(await sdkAnswer(message, sent(headers)));
  // An initialize answer, and only it, hands out a new session id each time (what each session was sent is kept by it).
  const initialize = (message as { method?: string }).method === 'initialize';
  expect(session === undefined, 'a session id').toBe(!initialize);
  if (initialize) {
    expect(session).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(answer.headers['mcp-session-id']).not.toBe(session);
  }
  expect(answerHeaders).toEqual(rest);
});

it('answers requests of different clients with the same id at once, each with its own answer and id', async () => {
  // Each phrasing is named in its answer's text, so the answers differ.
  const phrasings = ['cors', 'middleware', 'browser origin', 'enable'];
  const libraries = ['webframe', 'apiframe'];
  const messages = phrasings.flatMap((phrasing) =>
    libraries.map((library) => call(1, 'get_docs', { library, topic: 'cors', alternatives: [phrasing] })),
  );
  const together = await Promise.all(messages.map((m) => handler.mcp(m, HEADERS)));
  for (const [i, message] of messages.entries()) expect(together[i]).toEqual(await sdkAnswer(message, HEADERS));
  // Different answers, so a mix-up would show.
  expect(new Set(together.map((a) => a.body)).size).toBe(messages.length);
});

it('lists tools naming a library installed after it started', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  expect((await handler.mcp(list, HEADERS)).body).not.toContain('testlib');
  await installTestPackage(home, 'testlib');
  const answer = await handler.mcp(list, HEADERS);
  expect(answer.body).toMatch(/Libraries: [^"]*testlib/);
  expect(answer).toEqual(await sdkAnswer(list, HEADERS));
});

it('fails the requests it holds when closed, and refuses new ones', async () => {
  const exchange = new McpExchange();
  const request = exchange.take(call(1, 'list_libraries', {}), HEADERS);
  if (!request) throw new Error('expected the exchange to take the request');
  // Not connected to a server: nothing answers, so the request is still held when the exchange closes.
  const held = exchange.answer(request, HEADERS);
  await exchange.close();
  await expect(held).rejects.toThrow('the server is closing');
  await expect(exchange.answer(request, HEADERS)).rejects.toThrow('the server is closing');
});
