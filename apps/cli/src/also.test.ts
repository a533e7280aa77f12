import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built command, a real store, docs written as markdown files and added as a user would.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: path.join(dir, 'home') },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const pages: Record<string, string> = {
  'advanced/events.md': `# Lifespan Events

You can define logic (code) that should be executed before the application starts up, and when it is shutting down.

## Lifespan

Use the lifespan parameter of the app with an async context manager: the code before yield runs at startup, the code after it at shutdown.
`,
  'tutorial/debugging.md': `# Debugging

## Run your code with your debugger

Because you are running the app directly from your code, you can run your code from the debugger.
`,
  'tutorial/cors.md': `# CORS

Enable CORS with CORSMiddleware so a browser on another origin can call the API.
`,
};

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-also-'));
  for (const [file, text] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(dir, 'webapi', file)), { recursive: true });
    await writeFile(path.join(dir, 'webapi', file), text);
  }
  expect(docs('add', path.join(dir, 'webapi'), '--name', 'webapi', '--version', '1.0.0').code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--also', () => {
  it('searches other phrasings with the topic, on get and search, and says what each found', () => {
    const question = 'run code when the app starts up';
    const get = docs('get', 'webapi', question, '--also', 'lifespan parameter', '--also', 'startup', '--json');
    expect(get.code).toBe(0);
    const answer = JSON.parse(get.stdout);
    expect(answer.results[0].path).toBe('advanced/events.md');
    expect(answer.phrasings.map((p: { text: string }) => p.text)).toEqual([question, 'lifespan parameter', 'startup']);
    expect(answer.phrasings[1].results).toContain(1);
    const search = docs('search', question, '--also', 'lifespan parameter', '--format', 'index');
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/^── webapi@1\.0\.0 · Lifespan Events.* · advanced\/events\.md /);
    expect(search.stdout).toMatch(
      /phrasings found \(result positions\): "run code when the app starts up" → [\d, ]+; "lifespan parameter" → 1/,
    );
  });

  it('refuses more than four, or one too long, as bad input', () => {
    const many = docs('get', 'webapi', 'lifespan', ...['a', 'b', 'c', 'd', 'e'].flatMap((a) => ['--also', a]));
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/^docs: alternatives: at most 4 phrasings, got 5/);
    const long = docs('search', 'lifespan', '--also', 'x'.repeat(201));
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/over the 200 allowed/);
  });
});

describe('a weak answer', () => {
  it('says first that no section mentions the question’s words, and what came closest', () => {
    const weak = docs('get', 'webapi', 'configure the vite proxy for the app', '--format', 'index');
    expect(weak.code).toBe(0);
    expect(weak.stdout).toMatch(/^No section mentions "configure", "vite", "proxy"; closest: webapi@1\.0\.0 · /);
    const json = JSON.parse(docs('get', 'webapi', 'configure the vite proxy for the app', '--json').stdout);
    expect(json.confidence).toMatchObject({ weak: true, unmentioned: ['configure', 'vite', 'proxy'] });
  });
});
