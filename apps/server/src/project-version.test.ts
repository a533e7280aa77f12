import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Two versions of a library in the store: 1.0.0 with full docs, 2.0.0 a thin
// README build. A project that installs 1.0.0 gets 1.0.0 for a bare name, through
// the CLI and through MCP; outside it, the highest answers and names the richer one.
const bin = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));
let dir: string;
let home: string;
let project: string;
let elsewhere: string;
let newer: string;

/** The text blocks of a result, joined: all a server sends by default. */
function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function doc(file: string, title: string, text: string): DocumentInput {
  return {
    path: file,
    title,
    content: `# ${title}\n\n${text}`,
    chunks: [{ breadcrumb: [title], level: 1, content: text, tokens: Math.ceil(text.length / 4) }],
  };
}

function docs(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, DOCS_HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function json(cwd: string, ...args: string[]) {
  const result = await docs([...args, '--json'], cwd);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function serve(cwd: string, ...args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve', ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'project-version-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function projectInstalling(name: string, version: string): Promise<string> {
  const at = path.join(dir, `project-${version}`);
  await mkdir(path.join(at, 'node_modules', name), { recursive: true });
  await writeFile(path.join(at, 'package.json'), JSON.stringify({ name: 'app', dependencies: { [name]: version } }));
  await writeFile(path.join(at, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  return at;
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-project-version-'));
  home = path.join(dir, 'home');
  const store = new PackageStore(home);
  const rich = [
    doc('guide/gearbox.md', 'Gearbox', 'The gearbox option shifts gears when the load changes.'),
    ...Array.from({ length: 120 }, (_, i) =>
      doc(`guide/page-${i}.md`, `Page ${i}`, `Wheel ${i} turns the axle and the spokes. `.repeat(20)),
    ),
  ];
  const thin = [doc('README.md', 'widgetlib', 'Widgetlib turns wheels. Install it and call turn().')];
  for (const [version, pages] of [
    ['1.0.0', rich],
    ['2.0.0', thin],
  ] as const) {
    const file = path.join(dir, `widgetlib-${version}.db`);
    await writePackage(file, { name: 'widgetlib', version }, pages);
    await store.install(file, { move: true });
  }
  await store.close();
  project = await projectInstalling('widgetlib', '1.0.0');
  newer = await projectInstalling('widgetlib', '3.0.0');
  elsewhere = path.join(dir, 'elsewhere');
  await mkdir(elsewhere);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs get inside a project', () => {
  it('answers a bare name from the version the project installs: its working directory, or --project', async () => {
    const inside = await json(project, 'get', 'widgetlib', 'gearbox');
    expect(inside.searched).toEqual(['widgetlib@1.0.0']);
    expect(inside.results[0].path).toBe('guide/gearbox.md');
    const named = await json(elsewhere, 'get', 'widgetlib', 'gearbox', '--project', project);
    expect(named.searched).toEqual(['widgetlib@1.0.0']);
    const explicit = await json(project, 'get', 'widgetlib@2.0.0', 'turn');
    expect(explicit.searched).toEqual(['widgetlib@2.0.0']);
    const all = await json(project, 'search', 'gearbox');
    expect(all.searched).toEqual(['widgetlib@1.0.0']);
  });

  it('outside a project, answers from the highest and names the installed version that matches (text and JSON)', async () => {
    const answer = await json(elsewhere, 'get', 'widgetlib', 'gearbox');
    expect(answer.searched).toEqual(['widgetlib@2.0.0']);
    expect(answer.status).toBe('no-match');
    expect(answer.otherVersions).toEqual([{ library: 'widgetlib@1.0.0', total: 1 }]);
    const text = await docs(['get', 'widgetlib', 'gearbox'], elsewhere);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Another installed version matches: widgetlib@1.0.0 (1 matching section)');
  });

  it('says so when the project uses a version that is not installed', async () => {
    const answer = await json(newer, 'get', 'widgetlib', 'turn');
    expect(answer.searched).toEqual(['widgetlib@2.0.0']);
    expect(answer.project).toEqual({ library: 'widgetlib@3.0.0', installed: false });
    expect(answer.message).toContain('The project uses widgetlib@3.0.0, which is not installed');
    expect(answer.message).toContain('docs sync');
  });
});

describe('get_docs over MCP inside a project', () => {
  it('answers a bare name from the version the project installs', async () => {
    const client = await serve(elsewhere, '--project', project);
    try {
      const result = (await client.callTool({
        name: 'get_docs',
        arguments: { library: 'widgetlib', topic: 'gearbox' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/^## widgetlib@1\.0\.0 · /m);
    } finally {
      await client.close();
    }
  });

  it('search_all (and so /api/search) reads the version the project installs too', async () => {
    // The project's version holds the word; the highest, searched elsewhere, does not.
    for (const [cwd, searched] of [
      [project, /^## widgetlib@1\.0\.0 · /m],
      [elsewhere, /Nothing in widgetlib@2\.0\.0 matched/],
    ] as const) {
      const client = await serve(cwd, ...(cwd === project ? ['--project', project] : []));
      try {
        const result = (await client.callTool({
          name: 'search_all',
          arguments: { topic: 'gearbox' },
        })) as CallToolResult;
        expect(result.isError, cwd).toBeFalsy();
        expect(textOf(result), cwd).toMatch(searched);
      } finally {
        await client.close();
      }
    }
  });

  it('/api/search over HTTP reads the version the project installs, as the tools do, on every worker', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '0', '--workers', '2', '--project', project], {
      cwd: elsewhere,
      env: { ...process.env, DOCS_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let log = '';
        child.stderr?.setEncoding('utf8');
        child.stderr?.on('data', (chunk: string) => {
          log += chunk;
          const found = /ready at (http:\/\/[^/\s]+)\/mcp/.exec(log)?.[1];
          if (found) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`docs serve exited ${code}: ${log}`)));
      });
      // Twice each: the two workers answer in turn.
      for (const query of ['q=gearbox', 'q=gearbox', 'q=gearbox&library=widgetlib', 'q=gearbox&library=widgetlib']) {
        const answer = (await (await fetch(`${origin}/api/search?${query}`)).json()) as { searched: string[] };
        expect(answer.searched, query).toEqual(['widgetlib@1.0.0']);
      }
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('names the richer installed version when the project has none', async () => {
    const client = await serve(elsewhere);
    try {
      const result = (await client.callTool({
        name: 'get_docs',
        arguments: { library: 'widgetlib', topic: 'gearbox' },
      })) as CallToolResult;
      const text = textOf(result);
      expect(text).toContain('widgetlib@2.0.0');
      expect(text).toContain('Another installed version matches: widgetlib@1.0.0');
    } finally {
      await client.close();
    }
  });
});
