import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNobody, NOBODY } from './__tests__/as-nobody.js';

// A team serves one shared store, mounted read-only, from several replicas. These tests make
// the store read-only with chmod and serve it from real processes. Root ignores file
// permissions, so as root the servers run as the unprivileged `nobody` user; on Linux the test
// also reads each open package file's flags from /proc, which shows no write was even asked for.

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
// As root, where nobody cannot run the command, the check of the open flags below stands alone.

let root: string;
let home: string;
const servers: ChildProcess[] = [];

function docs(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args, '--home', home], { encoding: 'utf8' });
}

/** Starts `docs serve --http 0` on the store and resolves with its process and URL. */
function serve(): Promise<{ child: ChildProcess; url: string }> {
  const args = ['serve', '--http', '0', '--home', home, '--allowed-host', 'docs.example.internal'];
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // A home of the test's own: the user config under the real one is not readable by nobody.
    env: { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, 'config') },
    ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const url = /ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`docs serve exited with ${code}: ${stderr}`)));
  });
}

/** One MCP tool call as a plain JSON-RPC POST, answered in JSON: its text. */
async function callTool(url: string, name: string, args: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
  expect(body.result.isError ?? false).toBe(false);
  return body.result.content.map((c) => c.text).join('\n');
}

/** The status of a POST that carries `host` as its Host header, as a reverse proxy forwards it. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const req = request(
      url,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The open file descriptors of a process that point at package files, with their open flags. */
async function openPackageFiles(pid: number): Promise<Array<{ file: string; flags: number }>> {
  const open: Array<{ file: string; flags: number }> = [];
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const file = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (!file.startsWith(home)) continue;
    const info = await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
    open.push({ file, flags: Number.parseInt(/^flags:\s+([0-7]+)/m.exec(info)?.[1] ?? 'NaN', 8) });
  }
  return open;
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  root = await mkdtemp(path.join(tmpdir(), 'docs-read-only-'));
  home = path.join(root, 'store');
  for (const library of ['alpha@1.0.0', 'beta@2.0.0']) {
    const added = docs('add', path.join(fixtures, library));
    expect(added.status, added.stderr).toBe(0);
  }
  // Readable by everyone (mkdtemp makes 0700), writable by no one: a read-only volume.
  await chmod(root, 0o755);
  await chmod(home, 0o555);
  for (const file of await readdir(home)) await chmod(path.join(home, file), 0o444);
});

afterAll(async () => {
  for (const child of servers) child.kill('SIGTERM');
  await chmod(home, 0o755).catch(() => {});
  await rm(root, { recursive: true, force: true });
});

describe('docs serve --http on a read-only store', () => {
  it('answers from two replicas sharing the directory, opens every package read-only, and writes nothing', async () => {
    const before = (await readdir(home)).sort();
    const replicas = await Promise.all([serve(), serve()]);
    for (const { url } of replicas) {
      // The first result's header: `## library · headings · path (score …)`.
      const answer = await callTool(url, 'search_all', { topic: 'fake timers' });
      expect(answer).toMatch(/^## alpha@1\.0\.0 · [^\n]* · guide\/timers\.md \(/);
      const cors = await callTool(url, 'get_docs', { library: 'beta', topic: 'enable CORS' });
      expect(cors).toMatch(/^## beta@2\.0\.0 · /);
    }
    // Behind a reverse proxy: the proxy's name is accepted because it was allowed, another is not.
    const url = replicas[0]?.url as string;
    expect(await statusWithHost(url, 'docs.example.internal')).toBe(200);
    expect(await statusWithHost(url, 'evil.example.com')).toBe(403);
    // No -wal, -shm or -journal file, and no partial file: the directory is as it was.
    expect((await readdir(home)).sort()).toEqual(before);
    if (process.platform === 'linux') {
      for (const { child } of replicas) {
        if (asNobody) {
          const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
          expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe(String(NOBODY));
        }
        const open = await openPackageFiles(child.pid as number);
        // Each worker thread opens the packages it reads, so a file may be open more than once.
        expect([...new Set(open.map((o) => path.basename(o.file)))].sort()).toEqual([
          'alpha@1.0.0.db',
          'beta@2.0.0.db',
        ]);
        // O_ACCMODE is the low two bits; O_RDONLY is 0.
        for (const { flags } of open) expect(flags & 0o3).toBe(0);
      }
    }
  });
});
