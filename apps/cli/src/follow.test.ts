import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PackageStore } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FollowEvent, ProjectFollower } from './follow/follower.js';
import { watchProject } from './follow/project-watch.js';

// A server following its project: real projects laid out here (packages written into node_modules, then changed as
// an install changes them), the built docs, and a real MCP client over `docs serve`'s stdio, started as `docs setup`
// writes it. No command but the installs is run between the changes and the answers.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const docs = { command: process.execPath, args: [bin] };
let dir: string;

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-follow-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A project whose package.json depends on `dependencies` (none installed yet). */
async function project(name: string, dependencies: Record<string, string>): Promise<string> {
  const at = path.join(dir, name);
  await mkdir(path.join(at, 'node_modules'), { recursive: true });
  await writeFile(path.join(at, 'package.json'), JSON.stringify({ name, version: '0.0.0', dependencies }));
  return at;
}

/**
 * Installs `name@version` into the project as npm would: the package's folder replaced, then npm's hidden lockfile
 * written last. `pages` more pages in its docs folder make its build take a while.
 */
async function install(at: string, name: string, version: string, topic: string, pages = 0): Promise<void> {
  const folder = path.join(at, 'node_modules', name);
  await rm(folder, { recursive: true, force: true });
  await mkdir(path.join(folder, 'docs'), { recursive: true });
  await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name, version, description: `${name} lib` }));
  const words = `The ${topic} option of ${name} ${version} is explained here with enough words for a section. `;
  await writeFile(path.join(folder, 'README.md'), `# ${name}\n\n## ${topic}\n\n${words.repeat(4)}\n`);
  for (let i = 0; i < pages; i++) {
    await writeFile(
      path.join(folder, 'docs', `page-${i}.md`),
      `# Page ${i}\n\n${'Wheels turn the axle of the cart while the spokes hold the rim. '.repeat(60)}\n`,
    );
  }
  const installed = await readdir(path.join(at, 'node_modules'));
  await writeFile(
    path.join(at, 'node_modules', '.package-lock.json'),
    JSON.stringify({ name: 'app', lockfileVersion: 3, packages: Object.fromEntries(installed.map((n) => [n, {}])) }),
  );
}

const leftovers = async (home: string) =>
  (await readdir(home).catch(() => [] as string[])).filter((f) => f.includes('.partial') || f.endsWith('.lock'));
const packages = async (home: string) =>
  (await readdir(home).catch(() => [] as string[])).filter((f) => f.endsWith('.db')).sort();

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('docs serve follows its project', () => {
  it('answers a version installed while it runs, and a dependency added while it runs, with no docs command', async () => {
    const at = await project('app', { alpha: '^1.0.0' });
    const home = path.join(dir, 'serve-home');
    await install(at, 'alpha', '1.0.0', 'gearbox');
    // As `docs setup` writes it: this Node, this docs, `serve`, the store in DOCS_HOME, started in the project.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve'],
      cwd: at,
      env: { ...(process.env as Record<string, string>), DOCS_HOME: home },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'follow-test', version: '0.0.0' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    await client.connect(transport);
    const getDocs = async (library: string, topic: string) =>
      textOf((await client.callTool({ name: 'get_docs', arguments: { library, topic } })) as CallToolResult);
    try {
      // Never synced: built on the spot when asked, or in the background from the start.
      await expect
        .poll(() => getDocs('alpha', 'gearbox'), { timeout: 60_000, interval: 500 })
        .toMatch(/^## alpha@1\.0\.0 · /m);

      // `npm install alpha@2`: the next answers come from 2.0.0, whose README alone says "flywheel".
      await install(at, 'alpha', '2.0.0', 'flywheel');
      await expect
        .poll(() => getDocs('alpha', 'flywheel'), { timeout: 60_000, interval: 500 })
        .toMatch(/^## alpha@2\.0\.0 · /m);
      // The version built before is kept: nothing is lost.
      expect(await packages(home)).toEqual(['alpha@1.0.0.db', 'alpha@2.0.0.db']);

      // `npm install beta`: a new library, and the client is told the tool list changed (the descriptions name it).
      changed = 0;
      await writeFile(
        path.join(at, 'package.json'),
        JSON.stringify({ name: 'app', dependencies: { alpha: '^2.0.0', beta: '^1.0.0' } }),
      );
      await install(at, 'beta', '1.0.0', 'sprocket');
      await expect
        .poll(() => getDocs('beta', 'sprocket'), { timeout: 60_000, interval: 500 })
        .toMatch(/^## beta@1\.0\.0 · /m);
      await expect.poll(() => changed, { timeout: 10_000 }).toBeGreaterThan(0);
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'get_docs')?.description).toContain('Libraries: alpha, beta');
      expect(stderr).toMatch(/docs: built beta@1\.0\.0 in [\d.]+ s: the project installs it/);
    } finally {
      await client.close();
    }
    // Closed: no build half done, no lock held.
    await expect.poll(() => leftovers(home), { timeout: 10_000 }).toEqual([]);
  });
});

describe('a server killed during a background build', () => {
  it('leaves no partial package: the build ends whole or not at all, and the next store operation sweeps its lock', async () => {
    const at = await project('killed', { heavy: '*' });
    await install(at, 'heavy', '1.0.0', 'gearbox', 300);
    const home = path.join(dir, 'killed-home');
    const server = spawn(process.execPath, [bin, 'serve', '--home', home], {
      cwd: at,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      await expect
        .poll(async () => (await readdir(home).catch(() => [] as string[])).includes('.heavy@build.lock'), {
          timeout: 30_000,
        })
        .toBe(true);
    } finally {
      server.kill('SIGKILL');
    }
    await exited;
    // The build it had started runs on without it, or dies: either way no partial file is left for long.
    await expect
      .poll(async () => (await readdir(home)).filter((f) => f.includes('.partial')), { timeout: 60_000, interval: 250 })
      .toEqual([]);
    const store = new PackageStore(home);
    try {
      const listed = (await store.list()).map((p) => `${p.name}@${p.version}`);
      expect(listed.filter((id) => id !== 'heavy@1.0.0')).toEqual([]);
    } finally {
      await store.close();
    }
    expect(await leftovers(home)).toEqual([]);
  });
});

describe('docs serve --http --project', () => {
  it('follows the project it names: a version installed while it runs is answered by the JSON API', async () => {
    const at = await project('http-app', { omega: '*' });
    await install(at, 'omega', '1.0.0', 'gearbox');
    const home = path.join(dir, 'http-home');
    const child = spawn(process.execPath, [bin, 'serve', '--http', '0', '--project', at, '--home', home], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let log = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          log += text;
          const found = /ready at (http:\/\/[^/\s]+)\/mcp/.exec(log)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`docs serve exited ${code}: ${log}`)));
      });
      const searched = async (topic: string) => {
        const response = await fetch(`${origin}/api/search?q=${topic}&library=omega`);
        return ((await response.json()) as { searched?: string[] }).searched ?? [];
      };
      await expect.poll(() => searched('gearbox'), { timeout: 60_000, interval: 500 }).toEqual(['omega@1.0.0']);
      await install(at, 'omega', '2.0.0', 'flywheel');
      await expect.poll(() => searched('flywheel'), { timeout: 60_000, interval: 500 }).toEqual(['omega@2.0.0']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(await leftovers(home)).toEqual([]);
  });
});

describe('docs serve --http --workers 0 --project', () => {
  it('get_docs waits for a library the project installs and the store lacks, as over stdio', async () => {
    const at = await project('http-wait', { zeta: '*' });
    await install(at, 'zeta', '1.0.0', 'gearbox');
    const home = path.join(dir, 'http-wait-home');
    const args = ['serve', '--http', '0', '--workers', '0', '--project', at, '--home', home];
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let log = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          log += text;
          const found = /ready at (http:\/\/\S+)/.exec(log)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`docs serve exited ${code}: ${log}`)));
      });
      const getDocs = async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'get_docs', arguments: { library: 'zeta', topic: 'gearbox' } },
          }),
        });
        const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
        return body.result.content.map((c) => c.text).join('\n');
      };
      // Asked before anything was built: the call itself waits for the build, or says it is under way; never only
      // "not installed".
      expect(await getDocs()).toMatch(/^## zeta@1\.0\.0 · |zeta@1\.0\.0, which is being built now/m);
      await expect.poll(getDocs, { timeout: 60_000, interval: 500 }).toMatch(/^## zeta@1\.0\.0 · /m);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

describe('docs sync --watch', () => {
  it('syncs, then builds what each install changes until Ctrl-C, which leaves nothing partial', async () => {
    const at = await project('watching', { delta: '*' });
    await install(at, 'delta', '1.0.0', 'gearbox');
    const home = path.join(dir, 'watch-home');
    const child = spawn(process.execPath, [bin, 'sync', at, '--watch', '--home', home], { stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => stdout, { timeout: 60_000 }).toMatch(/Watching .* for installs \(Ctrl-C to stop\)/);
      expect(stdout).toMatch(/^Built delta@1\.0\.0: /m);
      // Idle past the first look at the project (2 s after start): still there, watching.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(child.exitCode).toBeNull();
      await install(at, 'delta', '2.0.0', 'flywheel');
      await expect
        .poll(() => stdout, { timeout: 60_000, interval: 250 })
        .toMatch(/^Built delta@2\.0\.0: .* \([\d.]+ s\)$/m);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(await packages(home)).toEqual(['delta@1.0.0.db', 'delta@2.0.0.db']);
    expect(await leftovers(home)).toEqual([]);
  });

  it('refuses what it would repeat at every install', () => {
    const result = spawnSync(process.execPath, [bin, 'sync', dir, '--watch', '--rebuild'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--watch builds as a plain sync does, and cannot be used with --rebuild');
  });
});

describe('ProjectFollower', () => {
  it('two followers of one project never build a library twice: each is built once, by one of them', async () => {
    const at = await project('shared', { one: '1.0.0', two: '1.0.0', three: '1.0.0' });
    for (const name of ['one', 'two', 'three']) await install(at, name, '1.0.0', `${name}topic`);
    const home = path.join(dir, 'shared-home');
    const events: FollowEvent[] = [];
    const followers = [0, 1].map(
      () => new ProjectFollower({ project: at, home, docs, log: () => undefined, onEvent: (e) => events.push(e) }),
    );
    for (const follower of followers) follower.start();
    try {
      await expect
        .poll(() => packages(home), { timeout: 60_000, interval: 250 })
        .toEqual(['one@1.0.0.db', 'three@1.0.0.db', 'two@1.0.0.db']);
      await Promise.all(followers.map((f) => f.idle()));
      const built = events.filter((e) => e.kind === 'built').map((e) => e.library);
      expect(built.sort()).toEqual(['one@1.0.0', 'three@1.0.0', 'two@1.0.0']);
      expect(events.filter((e) => e.kind === 'failed')).toEqual([]);
    } finally {
      await Promise.all(followers.map((f) => f.close()));
    }
    expect(await leftovers(home)).toEqual([]);
  });

  it('a version installed during a build is built next: the last state wins; closing mid-build leaves nothing partial', async () => {
    const at = await project('moving', { slow: '*' });
    const home = path.join(dir, 'moving-home');
    await install(at, 'slow', '1.0.0', 'gearbox', 300);
    const events: FollowEvent[] = [];
    const follower = new ProjectFollower({
      project: at,
      home,
      docs,
      log: () => undefined,
      onEvent: (e) => events.push(e),
      quietMs: 100,
    });
    follower.start();
    try {
      // The build of 1.0.0 holds the library's build lock while it runs.
      await expect
        .poll(async () => (await readdir(home).catch(() => [] as string[])).includes('.slow@build.lock'), {
          timeout: 30_000,
        })
        .toBe(true);
      await install(at, 'slow', '3.0.0', 'flywheel');
      await expect.poll(() => packages(home), { timeout: 60_000, interval: 250 }).toContain('slow@3.0.0.db');
      await follower.idle();
    } finally {
      await follower.close();
    }
    expect(await leftovers(home)).toEqual([]);

    // Again from an empty store, closed while 1.0.0 builds: interrupted, and nothing of it is left.
    const fresh = path.join(dir, 'moving-home-2');
    await install(at, 'slow', '1.0.0', 'gearbox', 300);
    const again = new ProjectFollower({ project: at, home: fresh, docs, log: () => undefined });
    again.start();
    await expect
      .poll(async () => (await readdir(fresh).catch(() => [] as string[])).includes('.slow@build.lock'), {
        timeout: 30_000,
      })
      .toBe(true);
    await again.close();
    expect(await leftovers(fresh)).toEqual([]);
    // Either interrupted (no package) or it had just finished (the whole package): never a part of one.
    expect((await packages(fresh)).filter((f) => f !== 'slow@1.0.0.db')).toEqual([]);
  });

  it('get_docs waits for a library it is asked about, and answers at once for one the store holds or no build is coming', async () => {
    const at = await project('asked', { gamma: '1.0.0' });
    await install(at, 'gamma', '1.0.0', 'gearbox');
    const home = path.join(dir, 'asked-home');
    const follower = new ProjectFollower({ project: at, home, docs, log: () => undefined, waitMs: 60_000 });
    follower.start();
    try {
      expect(await follower.awaitBuild('gamma', '1.0.0')).toEqual({ state: 'built' });
      expect(await packages(home)).toEqual(['gamma@1.0.0.db']);
      // Built now: one stat says so. Not a dependency: no build is coming.
      expect(await follower.awaitBuild('gamma', '1.0.0')).toEqual({ state: 'built' });
      expect(await follower.awaitBuild('nothere', '1.0.0')).toEqual({ state: 'none' });
    } finally {
      await follower.close();
    }
  });
});

describe('a dependency with no documentation', () => {
  it('is tried once, not again at each install', async () => {
    const at = await project('bare', { bare: '1.0.0', eps: '1.0.0' });
    await mkdir(path.join(at, 'node_modules', 'bare'), { recursive: true });
    await writeFile(path.join(at, 'node_modules', 'bare', 'package.json'), '{"name": "bare", "version": "1.0.0"}');
    const home = path.join(dir, 'bare-home');
    const events: FollowEvent[] = [];
    const follower = new ProjectFollower({
      project: at,
      home,
      docs,
      log: () => undefined,
      onEvent: (e) => events.push(e),
      quietMs: 100,
    });
    follower.start();
    try {
      await expect
        .poll(() => events.map((e) => `${e.kind} ${e.library}`), { timeout: 30_000 })
        .toEqual(['skipped bare@1.0.0']);
      await install(at, 'eps', '1.0.0', 'gearbox');
      await expect.poll(() => packages(home), { timeout: 60_000, interval: 250 }).toEqual(['eps@1.0.0.db']);
      await follower.idle();
      expect(events.map((e) => `${e.kind} ${e.library}`)).toEqual(['skipped bare@1.0.0', 'built eps@1.0.0']);
    } finally {
      await follower.close();
    }
  });
});

describe('a Python project', () => {
  it("builds a distribution installed into the project's virtualenv while it is followed", async () => {
    const at = path.join(dir, 'pyapp');
    const site = path.join(at, '.venv', 'lib', 'python3.12', 'site-packages');
    await mkdir(site, { recursive: true });
    await writeFile(path.join(at, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\nversion = 3.12.0\n');
    const distribution = async (name: string, version: string, topic: string) => {
      const info = path.join(site, `${name}-${version}.dist-info`);
      await mkdir(info, { recursive: true });
      const body = `The ${topic} setting of ${name} is explained here with enough words for a section. `.repeat(4);
      await writeFile(
        path.join(info, 'METADATA'),
        `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: ${name} lib\n\n# ${name}\n\n## ${topic}\n\n${body}\n`,
      );
    };
    // The project declares what it uses; sync builds those, not every distribution in the virtualenv.
    await writeFile(path.join(at, 'requirements.txt'), 'pyalpha==1.0\n');
    await distribution('pyalpha', '1.0', 'gearbox');
    const home = path.join(dir, 'py-home');
    const follower = new ProjectFollower({ project: at, home, docs, log: () => undefined, quietMs: 100 });
    follower.start();
    try {
      await expect.poll(() => packages(home), { timeout: 60_000, interval: 250 }).toEqual(['pyalpha@1.0.db']);
      // `pybeta` added to requirements.txt and `pip install -r requirements.txt`: a new .dist-info folder in
      // site-packages.
      await writeFile(path.join(at, 'requirements.txt'), 'pyalpha==1.0\npybeta==2.0\n');
      await distribution('pybeta', '2.0', 'sprocket');
      await expect
        .poll(() => packages(home), { timeout: 60_000, interval: 250 })
        .toEqual(['pyalpha@1.0.db', 'pybeta@2.0.db']);
    } finally {
      await follower.close();
    }
  }, 120_000);
});

describe('watchProject', () => {
  it('tells of a changed lockfile, not of other files; without a watcher, check() finds it instead', async () => {
    const at = await project('watched', {});
    for (const statOnly of [false, true]) {
      let changes = 0;
      const lines: string[] = [];
      const watching = watchProject(at, {
        onChange: () => {
          changes += 1;
        },
        log: (line) => lines.push(line),
        quietMs: 50,
        statOnly,
      });
      try {
        expect(watching.mode).toBe(statOnly ? 'stat' : 'events');
        await writeFile(path.join(at, 'notes.txt'), `not watched ${statOnly}`);
        expect(watching.check()).toBe(false);
        await writeFile(path.join(at, 'node_modules', '.package-lock.json'), `{"v": "${statOnly}"}`);
        if (statOnly) expect(watching.check()).toBe(true);
        await expect.poll(() => changes, { timeout: 5000 }).toBe(1);
        // Seen once: looking again finds nothing new.
        expect(watching.check()).toBe(false);
        await writeFile(path.join(at, 'pnpm-lock.yaml'), `lockfileVersion: '${statOnly ? 9 : 6}'\n`);
        if (statOnly) watching.check();
        await expect.poll(() => changes, { timeout: 5000 }).toBe(2);
        expect(lines).toEqual([]);
      } finally {
        watching.close();
      }
    }
  });

  it('falls back to checks when a folder cannot be watched, and says so once', async () => {
    const at = await project('unwatchable', {});
    const lines: string[] = [];
    let changes = 0;
    const watching = watchProject(at, {
      onChange: () => {
        changes += 1;
      },
      log: (line) => lines.push(line),
      // What fs.watch throws once the user's inotify watches are used up.
      watchFolder: () => {
        throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
      },
    });
    try {
      expect(watching.mode).toBe('stat');
      expect(lines).toEqual([`cannot watch ${at} (ENOSPC): checking the project's lockfiles on each request instead`]);
      await writeFile(path.join(at, 'package-lock.json'), '{"lockfileVersion": 3}');
      expect(watching.check()).toBe(true);
      expect(watching.check()).toBe(false);
      expect(changes).toBe(1);
      expect(lines).toHaveLength(1);
    } finally {
      watching.close();
    }
  });
});
