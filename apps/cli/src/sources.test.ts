import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built command run as a user would, against real git repositories, a real
// HTTP server and a real node_modules, all made here. Each run gets its own
// TMPDIR so the tests can see that no temporary folder outlives a command.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let home: string;
let temp: string;
let server: Server;
let site: string;
let hanging: (() => void) | undefined;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function docs(args: string[], options: { home?: string; onSpawn?: (kill: () => void) => void } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, DOCS_HOME: options.home ?? home, TMPDIR: temp },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    options.onSpawn?.(() => child.kill('SIGINT'));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function json(...args: string[]) {
  const result = await docs([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).trim();
}

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

const words = (topic: string) => `${topic} is explained here with enough words to make a proper section. `.repeat(5);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-sources-'));
  home = path.join(dir, 'home');
  temp = path.join(dir, 'tmp');
  await mkdir(temp);

  const page = (title: string, text: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><nav>Site menu</nav>` +
    `<main><h1>${title}</h1><p>${words(text)}</p></main><footer>Site footer</footer></body></html>`;
  const routes: Record<string, (response: ServerResponse) => void> = {
    '/llms.txt': (r) =>
      r.end(
        '# Gizmo\n\n> Gizmo docs.\n\n- [Start](/start.html)\n- [Slow](/slow.html)\n- [Huge](/huge.md)\n- [Far](https://example.invalid/far.md)\n',
      ),
    '/start.html': (r) => {
      r.setHeader('content-type', 'text/html');
      r.end(page('Start', 'The quokka configuration'));
    },
    // Far past the 4 s timeout the test asks for: a busy CI machine must not let it answer in time,
    // and the other pages (the 6 MiB one included) must still come back well inside it.
    '/slow.html': (r) => {
      const timer = setTimeout(() => r.end(page('Slow', 'late')), 10000);
      r.on('close', () => clearTimeout(timer));
    },
    '/huge.md': (r) => r.end(`# Huge\n\n${'y'.repeat(6 * 1024 * 1024)}\n`),
    '/hang/llms.txt': (r) => r.end('- [Forever](/hang/forever.md)\n'),
    '/hang/forever.md': (r) => {
      r.writeHead(200, { 'content-type': 'text/markdown' });
      r.write('# Forever\n');
      hanging?.();
    },
  };
  server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://x').pathname];
    if (route) route(response);
    else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('docs add <git repository>', () => {
  let repo: string;
  let commit: string;

  beforeAll(async () => {
    repo = path.join(dir, 'widget');
    await write(repo, {
      'README.md': '# Widget\n',
      'docs/guide.md': `# Guide\n\n${words('The narwhal option')}\n`,
    });
    git(repo, '-c', 'init.defaultBranch=main', 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    git(repo, 'tag', 'v1.0.0');
    commit = git(repo, 'rev-parse', 'HEAD');
    await write(repo, { 'docs/guide.md': '# Guide\n\nRewritten.\n' });
    git(repo, 'commit', '-q', '-am', 'two');
  });

  it('builds the tag asked for, records the commit, saves a copy, and leaves no clone behind', async () => {
    const saved = path.join(dir, 'shared');
    const result = await json('add', repo, '--ref', 'v1.0.0', '--save', saved);
    expect(result).toMatchObject({
      library: 'widget@1.0.0',
      kind: 'git',
      commit,
      source: `${repo}#${commit} path docs`,
      documents: 1,
      saved: path.join(saved, 'widget@1.0.0.db'),
      warnings: [],
    });
    expect(await readdir(saved)).toEqual(['widget@1.0.0.db']);
    const answer = await json('get', 'widget', 'narwhal option');
    expect(answer.results[0]).toMatchObject({ library: 'widget@1.0.0', path: 'guide.md' });
    expect(await readdir(temp)).toEqual([]);
  });

  it('warns about a repository with almost no documentation, and refuses an unknown ref with exit code 2', async () => {
    const bare = path.join(dir, 'bare');
    await write(bare, { 'README.md': `# Bare\n\n${words('See the website')}\n` });
    git(bare, '-c', 'init.defaultBranch=main', 'init', '-q');
    git(bare, 'add', '-A');
    git(bare, 'commit', '-q', '-m', 'one');
    const added = await docs(['add', bare]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added bare@[0-9a-f]{7,}: 1 documents/);
    expect(added.stderr).toMatch(/^docs: warning: .*little documentation.*bare-docs/);

    const before = await readdir(home);
    const refused = await docs(['add', repo, '--ref', 'no-such-tag']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^docs: cannot fetch "no-such-tag" from .*\n$/);
    expect(await readdir(home)).toEqual(before);
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('docs add <website>', () => {
  it('follows llms.txt, converts HTML, and reports the slow, oversized and off-site pages it skipped', async () => {
    const result = await json('add', `${site}/`, '--name', 'gizmo', '--timeout', '4');
    expect(result).toMatchObject({
      library: expect.stringMatching(/^gizmo@\d{4}-\d{2}-\d{2}$/),
      kind: 'website',
      source: `${site}/llms.txt`,
      documents: 1,
    });
    const reasons = Object.fromEntries(
      result.skipped.map((s: { path: string; reason: string }) => [s.path.replace(site, ''), s.reason]),
    );
    expect(reasons).toEqual({
      'https://example.invalid/far.md': 'on another site (only same-origin links are followed)',
      '/slow.html': 'timed out after 4 s',
      '/huge.md': 'larger than 5 MiB (6 MiB)',
    });
    const answer = await json('search', 'quokka configuration');
    expect(answer.results[0]).toMatchObject({ library: result.library, path: 'start.md' });
    expect(answer.results[0].content).not.toMatch(/Site menu|Site footer/);
    expect(await readdir(temp)).toEqual([]);
  });

  it('asks for a name when the address has none', async () => {
    const result = await docs(['add', `${site}/`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^docs: say which library .* documents: --name <name>\n$/);
  });

  it('leaves no package and no temporary folder when interrupted mid-fetch, exiting 130', async () => {
    const before = await readdir(home);
    const arrived = new Promise<void>((resolve) => {
      hanging = resolve;
    });
    const run = docs(['add', `${site}/hang/llms.txt`, '--name', 'hang'], {
      onSpawn: (kill) => {
        void arrived.then(kill);
      },
    });
    const result = await run;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/interrupted; nothing was added/);
    expect(await readdir(home)).toEqual(before);
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('docs sync', () => {
  let project: string;

  beforeAll(async () => {
    project = path.join(dir, 'project');
    await write(project, {
      'package.json': {
        name: 'project',
        dependencies: { alpha: '^1.0.0', empty: '^2.0.0', absent: '^1.0.0' },
        devDependencies: { gamma: '^0.1.0' },
      },
      'node_modules/alpha/package.json': { name: 'alpha', version: '1.2.3', description: 'Alpha.' },
      'node_modules/alpha/README.md': `# Alpha\n\n${words('The wombat renderer')}\n`,
      'node_modules/alpha/docs/advanced.md': `# Advanced\n\n${words('Tuning')}\n`,
      'node_modules/empty/package.json': { name: 'empty', version: '2.0.0' },
      'node_modules/gamma/package.json': { name: 'gamma', version: '0.1.5' },
      'node_modules/gamma/README.md': `# Gamma\n\n${words('The dingo test runner')}\n`,
    });
  });

  it('builds each installed dependency at its installed version, reporting the ones it skipped', async () => {
    const result = await json('sync', project);
    expect(result.project).toBe(project);
    expect(result.built).toEqual([
      {
        library: 'alpha@1.2.3',
        documents: 2,
        chunks: expect.any(Number),
        tokens: expect.any(Number),
        bytes: expect.any(Number),
        from: 'package',
      },
    ]);
    expect(result.skipped).toEqual([
      { library: 'absent', reason: 'not installed (run the install command of your package manager)' },
      { library: 'empty@2.0.0', reason: 'no README, docs folder or type declarations' },
    ]);
    expect(result.failed).toEqual([]);
    const answer = await json('search', 'wombat renderer');
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.2.3', path: 'README.md' });
    expect(await readdir(temp)).toEqual([]);
  });

  it('says when an API page stopped at its limits, and builds the rest', async () => {
    const big = path.join(dir, 'big-project');
    const files: Record<string, string | object> = {
      'package.json': { name: 'big-project', dependencies: { huge: '1' } },
      'node_modules/huge/package.json': { name: 'huge', version: '1.0.0', types: 'index.d.ts' },
      'node_modules/huge/index.d.ts': Array.from({ length: 1001 }, (_, i) => `export * from './f${i}.js';`).join('\n'),
    };
    for (let i = 0; i < 1001; i++) files[`node_modules/huge/f${i}.d.ts`] = `export declare const x${i}: number;\n`;
    await write(big, files);
    const result = await docs(['sync', big, '--home', path.join(dir, 'big-home')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Built huge@1\.0\.0: /m);
    expect(result.stderr).toBe(
      'docs: warning: huge@1.0.0: the API page stops at 1000 declaration files or 16777216 bytes\n',
    );
    const listed = await docs(['sync', big, '--home', path.join(dir, 'big-home-json'), '--json']);
    expect(JSON.parse(listed.stdout).built[0].warnings).toEqual([
      'the API page stops at 1000 declaration files or 16777216 bytes',
    ]);
  });

  it('skips versions already built, and adds dev dependencies with --dev', async () => {
    const text = await docs(['sync', project, '--dev']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Skipped alpha@1.2.3: already built');
    expect(text.stdout).toMatch(/Built gamma@0\.1\.5: 1 documents/);
    expect(text.stdout).toMatch(/: 1 built, 3 skipped, 0 failed\n$/);
  });

  it('builds again a version an earlier docs built in another package format', async () => {
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(path.join(home, 'alpha@1.2.3.db'));
    raw.pragma('user_version = 1');
    raw.close();
    const text = await docs(['sync', project]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Rebuilt alpha@1\.2\.3: 2 documents/m);
    expect((await json('search', 'wombat renderer')).results[0]).toMatchObject({ library: 'alpha@1.2.3' });
  });
});

describe('docs add <package file>', () => {
  let good: string;

  beforeAll(async () => {
    good = path.join(dir, 'shared', 'widget@1.0.0.db');
  });

  it('installs a package file built elsewhere into another store', async () => {
    const other = path.join(dir, 'other-home');
    const result = await docs(['add', good, '--json'], { home: other });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ library: 'widget@1.0.0', kind: 'package-file', replaced: false });
    // Beside the package, only the store's catalog (derived data).
    expect((await readdir(other)).filter((f) => f !== '.catalog')).toEqual(['widget@1.0.0.db']);
  });

  it.each([
    [
      'a corrupt file',
      async (file: string) => {
        const db = new Database(file);
        const pages = db.pragma('page_count', { simple: true }) as number;
        db.close();
        expect(pages).toBeGreaterThan(2);
        const { open } = await import('node:fs/promises');
        const handle = await open(file, 'r+');
        await handle.write(Buffer.alloc(8192, 0x5a), 0, 8192, 4096);
        await handle.close();
      },
      /damaged|malformed|not a readable package|schema/,
    ],
    [
      'a file with an extra trigger',
      async (file: string) => {
        const db = new Database(file);
        db.exec('CREATE TRIGGER sneaky AFTER INSERT ON documents BEGIN DELETE FROM chunks; END');
        db.close();
      },
      /does not have the package schema: unexpected trigger sneaky/,
    ],
    [
      'a file of a newer format version',
      async (file: string) => {
        const db = new Database(file);
        db.pragma('user_version = 99');
        db.close();
      },
      /package format version 99.*built by a newer docs/,
    ],
    [
      'a file that is not SQLite at all',
      async (file: string) => {
        await writeFile(file, 'just some text');
      },
      /is not a SQLite file/,
    ],
  ])('refuses %s with the reason, exit code 2, and the store unchanged', async (_what, tamper, reason) => {
    const file = path.join(dir, `tampered-${Math.random().toString(36).slice(2)}@1.0.0.db`);
    await copyFile(good, file);
    await tamper(file);
    const before = await readdir(home);
    const result = await docs(['add', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^docs: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(reason);
    expect(await readdir(home)).toEqual(before);
  });

  it('refuses build options for a package file', async () => {
    const result = await docs(['add', good, '--name', 'x', '--save', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--name, --save do not apply/);
  });
});
