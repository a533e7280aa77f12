import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, installTestPackage, listedLibraries, resultLibraries } from './__tests__/fixtures.js';

// `docs serve` as an agent host runs it: a real process spoken to over its stdin and stdout.
const bin = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));
let dir: string;
let home: string;

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-stdio-'));
  home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function serve(...args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve', ...args],
    env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
    // Not the repository's folder: a server follows the project it starts in, and builds what it installs.
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'stdio-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('docs serve (stdio)', () => {
  it('answers an MCP client, logging only to stderr', async () => {
    const { client, stderr } = await serve();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'list_libraries',
      'get_docs',
      'search_all',
      'read_doc',
    ]);
    const search = await callTool(client, 'search_all', { topic: 'enable CORS' });
    expect(resultLibraries(search.text).sort()).toEqual(['apiframe@3.1.0', 'webframe@2.0.0']);
    expect(search.text).toMatch(/from 2 of 3 libraries/);
    expect((await callTool(client, 'get_docs', { library: 'WEBFRAME', topic: 'cors' })).isError).toBe(false);
    const typo = await callTool(client, 'get_docs', { library: 'webfrme', topic: 'cors' });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain('Did you mean "webframe"?');
    await client.close();
    expect(stderr()).toMatch(/^docs: MCP server ready on stdio\n/);
  });

  it('serves only the libraries given with --libs', async () => {
    const { client } = await serve('--libs', 'webframe', 'testlib@1.0.0');
    const listed = await callTool(client, 'list_libraries');
    expect(listedLibraries(listed.text)).toEqual(['testlib@1.0.0', 'webframe@2.0.0']);
    expect((await callTool(client, 'get_docs', { library: 'apiframe', topic: 'cors' })).isError).toBe(true);
    await client.close();
  });

  it('tells the client when a package is installed while it runs', async () => {
    const isolated = path.join(dir, 'changing');
    await installTestPackage(isolated, 'webframe');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--home', isolated],
      cwd: dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '0.0.0' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    await client.connect(transport);
    await installTestPackage(isolated, 'apiframe');
    // Told by the store watcher, before any call.
    await expect.poll(() => changed, { timeout: 5000 }).toBeGreaterThan(0);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'get_docs')?.description).toContain('Libraries: apiframe, webframe (');
    expect(listedLibraries((await callTool(client, 'list_libraries')).text)).toHaveLength(2);
    await client.close();
  });

  it('is ready quickly and exits cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, [bin, 'serve'], {
        env: { ...process.env, DOCS_HOME: home },
        cwd: dir,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const started = performance.now();
      const ready = new Promise<number>((resolve) => {
        child.stdout.once('data', () => resolve(performance.now() - started));
      });
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        })}\n`,
      );
      expect(await ready).toBeLessThan(5000);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
    }
  });

  it('refuses HTTP beyond this machine without a token, in one line and exit code 2', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--http', '0', '--host', '0.0.0.0'], {
      env: { ...process.env, DOCS_HOME: home, DOCS_TOKEN: '' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^docs: serving on 0\.0\.0\.0 lets other machines connect: set a token.*\n$/);
    expect(result.stdout).toBe('');
    const misplaced = spawnSync(process.execPath, [bin, 'serve', '--token', 'x'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(misplaced.status).toBe(2);
    expect(misplaced.stderr).toMatch(/--host and --token apply to HTTP/);
  });
});
