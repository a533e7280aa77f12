import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHostilePackage } from './__tests__/fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

// A package file is data, never an instruction: one whose maker stored a 3 MB section as 5 tokens, and a 3 MB title,
// path, breadcrumb and description, answers within its budget over MCP and HTTP, and its listing always answers.

/** The answer's bound: 8 bytes of content a token, and at most this much of labels per result and in all. */
const BYTES_PER_TOKEN = 8;
const LABEL_BYTES_PER_RESULT = 10 * 1024;
const FIXED_BYTES = 8 * 1024;

function bound(tokens: number, limit: number): number {
  return BYTES_PER_TOKEN * tokens + LABEL_BYTES_PER_RESULT * limit + FIXED_BYTES;
}

let dir: string;
let server: RunningHttpServer;
let client: Client;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-hostile-server-'));
  const home = path.join(dir, 'home');
  await installHostilePackage(home);
  server = await startHttpServer({ home, port: 0 });
  client = new Client({ name: 'hostile-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A GET on the server, its body as text. */
function get(target: string): Promise<{ status: number; text: string }> {
  const url = new URL(server.pageUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: target }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a hostile package, over MCP and HTTP', () => {
  it.each([
    ['search_all', {}],
    ['get_docs', { library: 'hostile' }],
  ])('%s with tokens N answers in at most 8·N bytes of content plus bounded labels', async (tool, args) => {
    for (const tokens of [500, 2000]) {
      const result = await client.callTool({ name: tool, arguments: { topic: 'budget', tokens, limit: 5, ...args } });
      expect(result.isError).not.toBe(true);
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(bound(tokens, 5));
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      expect(text).toMatch(/^## hostile@1\.0\.0 · /m);
      // The closing line says what the content cost: `…; N tokens.`
      expect(Number(/; (\d+) tokens\./.exec(text)?.[1])).toBeLessThanOrEqual(tokens);
    }
  });

  it('search_all in the index format carries bounded labels only', async () => {
    const result = await client.callTool({
      name: 'search_all',
      arguments: { topic: 'budget', format: 'index', limit: 5 },
    });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text.match(/^- hostile@1\.0\.0 · /gm)).toHaveLength(2);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(bound(0, 5));
  });

  it('read_doc with tokens N sends at most 8·N bytes of a 3 MB page (honest tokens of 64 bytes each), and its parts follow each other', async () => {
    const page = `Padded page\n\n${`${'='.repeat(999)}\n`.repeat(3_000)}`.trim();
    let offset = 0;
    for (let part = 0; part < 3; part++) {
      const result = await client.callTool({
        name: 'read_doc',
        arguments: { library: 'hostile', path: 'guide/padded.md', tokens: 2000, offset },
      });
      expect(result.isError).not.toBe(true);
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(bound(2000, 1));
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      const nextOffset = Number(/Continue with read_doc offset (\d+)\./.exec(text)?.[1]);
      const content = text.slice(text.indexOf('\n\n') + 2, text.lastIndexOf('\n\n(Part of the page'));
      // This part is the page from its offset, and the next starts after it, skipping only whitespace.
      expect(content.length).toBeGreaterThan(0);
      expect(page.slice(offset, offset + content.length)).toBe(content);
      expect(nextOffset).toBeGreaterThan(offset);
      expect(page.slice(offset + content.length, nextOffset).trim()).toBe('');
      offset = nextOffset;
    }
  });

  it('/api/search?tokens=N answers in at most 8·N bytes of content plus bounded labels', async () => {
    for (const tokens of [500, 2000]) {
      const answer = await get(`/api/search?q=budget&tokens=${tokens}&limit=5`);
      expect(answer.status).toBe(200);
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(bound(tokens, 5));
      const body = JSON.parse(answer.text);
      expect(body.results.length).toBeGreaterThan(0);
      const content = body.results.reduce(
        (sum: number, r: { content: string }) => sum + Buffer.byteLength(JSON.stringify(r.content)) - 2,
        0,
      );
      expect(content).toBeLessThanOrEqual(BYTES_PER_TOKEN * tokens);
    }
  });

  it('/api/libraries answers with the description cut to 500 bytes, where a 3 MB one was refused as too large', async () => {
    const answer = await get('/api/libraries');
    expect(answer.status).toBe(200);
    const [library] = JSON.parse(answer.text).libraries;
    expect(library.library).toBe('hostile@1.0.0');
    expect(Buffer.byteLength(JSON.stringify(library.description))).toBeLessThanOrEqual(502);
    expect(library.description.endsWith('…')).toBe(true);
  });
});
