import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// A cloned project is untrusted input: its docs.config.json and .npmrc, and files it carries, through the real
// command in a temp project, with a temp user config folder ($XDG_CONFIG_HOME) and a temp $HOME.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let root: string;
let xdg: string;
let home: string;
let project: string;
let alpha: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: xdg, HOME: home, ...extra };
  for (const key of Object.keys(base))
    if ((key.startsWith('DOCS_') || key.startsWith('npm_config_')) && !extra[key]) delete base[key];
  base.npm_config_cache = path.join(root, 'npm-cache');
  return base;
}

function docs(args: string[], cwd = project) {
  const result = spawnSync(process.execPath, [bin, ...args], { env: env(), cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** As docs(), without blocking: a registry this process serves must answer meanwhile. */
function docsAsync(args: string[], cwd = project): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: env(), cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  root = await mkdtemp(path.join(tmpdir(), 'docs-project-trust-'));
  xdg = path.join(root, 'xdg');
  home = path.join(root, 'home');
  await mkdir(home, { recursive: true });
  // A package built by docs, to plant in a project as it would be committed.
  const built = docs(['add', path.join(fixtures, 'alpha@1.0.0'), '--home', path.join(root, 'built')], root);
  expect(built.code, built.stderr).toBe(0);
  alpha = path.join(root, 'built', 'alpha@1.0.0.db');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  project = await mkdtemp(path.join(root, 'project-'));
  await rm(xdg, { recursive: true, force: true });
});

const listed = (result: { stdout: string }) =>
  (JSON.parse(result.stdout) as { libraries: { library: string }[] }).libraries.map((l) => l.library);

describe('a store the project config names', () => {
  it('validates its packages before using them: one planted under another name, or with a trigger, is not used', async () => {
    const store = path.join(project, '.docs');
    await mkdir(store);
    await writeFile(path.join(project, 'docs.config.json'), JSON.stringify({ home: './.docs' }));
    await copyFile(alpha, path.join(store, 'alpha@1.0.0.db'));
    // The file says evil@1.0.0; the package inside is alpha: never added, never validated as evil.
    await copyFile(alpha, path.join(store, 'evil@1.0.0.db'));
    await copyFile(alpha, path.join(store, 'trigger@1.0.0.db'));
    const database = new Database(path.join(store, 'trigger@1.0.0.db'));
    database.exec(
      `update package set name = 'trigger'; create trigger t after insert on documents begin select 1; end;`,
    );
    database.close();

    const result = docs(['list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(listed(result)).toEqual(['alpha@1.0.0']);
    expect(result.stderr).toMatch(/not using .*evil@1\.0\.0\.db.*holds alpha@1\.0\.0, not what its file name says/);
    expect(result.stderr).toMatch(/not using .*trigger@1\.0\.0\.db.*unexpected trigger t/);
    const search = docs(['get', 'evil', 'timers', '--json']);
    expect(search.code).not.toBe(0);
    expect(search.stderr).toMatch(/"evil" is not installed/);

    // Validated once, remembered outside the project by path and identity.
    const record = JSON.parse(await readFile(path.join(xdg, 'docs', 'verified-packages.json'), 'utf8'));
    expect(Object.keys(record.verified)).toEqual([path.join(store, 'alpha@1.0.0.db')]);
    // A package replaced under the same name is validated again.
    await rm(path.join(store, 'alpha@1.0.0.db'));
    await copyFile(path.join(store, 'trigger@1.0.0.db'), path.join(store, 'alpha@1.0.0.db'));
    const again = docs(['list', '--json']);
    expect(listed(again)).toEqual([]);
    expect(again.stderr).toMatch(/not using .*alpha@1\.0\.0\.db/);
  });

  it("the same store named with --home is the user's own choice, used as it is", async () => {
    const store = path.join(project, '.docs');
    await mkdir(store);
    await copyFile(alpha, path.join(store, 'alpha@1.0.0.db'));
    const result = docs(['list', '--json', '--home', store]);
    expect(listed(result)).toEqual(['alpha@1.0.0']);
    expect(existsSync(path.join(xdg, 'docs', 'verified-packages.json'))).toBe(false);
  });

  it('is outside the project when its path goes through a symlink out of it, and waits for approval', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await symlink(elsewhere, path.join(project, 'link'));
    // A link to a folder that does not exist yet is where it points, too.
    await symlink(path.join(root, 'not-yet'), path.join(project, 'dangling'));
    for (const value of ['./link', './link/store', './dangling/store']) {
      await writeFile(path.join(project, 'docs.config.json'), JSON.stringify({ home: value }));
      const result = docs(['list', '--json']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/not using home = .*no terminal to ask/);
      expect(JSON.parse(result.stdout).home).not.toContain(project);
    }
    // A real folder inside the project is still inside.
    await mkdir(path.join(project, 'real'));
    await writeFile(path.join(project, 'docs.config.json'), JSON.stringify({ home: './real' }));
    const inside = docs(['list', '--json']);
    expect(inside.stderr).toBe('');
    expect(JSON.parse(inside.stdout).home).toBe(path.join(project, 'real'));
  });
});

describe("a project's .npmrc", () => {
  let servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
  });

  /** A registry that answers 404 to everything and counts what it was asked. */
  async function registry(): Promise<{ url: string; requests: string[] }> {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
  }

  it("is not followed to its registry until approved; the user's own .npmrc is", async () => {
    const planted = await registry();
    const own = await registry();
    await writeFile(path.join(project, 'package.json'), '{ "name": "cloned", "private": true }\n');
    await writeFile(path.join(project, '.npmrc'), `@acme:registry=${planted.url}\nregistry=${planted.url}\n`);
    await writeFile(path.join(home, '.npmrc'), `@acme:registry=${own.url}\n`);
    const store = path.join(root, 'store');

    const held = await docsAsync(['install', '@acme/docs-widget@1.0.0', '--home', store]);
    expect(held.code).toBe(2);
    expect(held.stderr).toMatch(
      /not using @acme:registry=http.*registry=http.* from .*\.npmrc: .*docs config --approve/,
    );
    expect(planted.requests).toEqual([]);
    expect(own.requests.length).toBeGreaterThan(0);

    const approved = docs(['config', '--approve']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/Approved .*\.npmrc: its @acme:registry=/);
    const used = await docsAsync(['install', '@acme/docs-widget@1.0.0', '--home', store]);
    expect(used.stderr).not.toMatch(/not using/);
    expect(planted.requests.length).toBeGreaterThan(0);

    // A change to the file is asked about again.
    planted.requests.length = 0;
    await writeFile(path.join(project, '.npmrc'), `@acme:registry=${planted.url}\n`);
    await docsAsync(['install', '@acme/docs-widget@1.0.0', '--home', store]);
    expect(planted.requests).toEqual([]);
  });
});
