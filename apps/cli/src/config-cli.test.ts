import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The config files through the real command: a temp user config folder
// ($XDG_CONFIG_HOME), a project folder with docs.config.json as the working directory.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let root: string;
let xdg: string;
let project: string;

function docs(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: xdg, ...options.env };
  for (const key of Object.keys(env)) if (key.startsWith('DOCS_') && !options.env?.[key]) delete env[key];
  const result = spawnSync(process.execPath, [bin, ...args], { env, cwd: options.cwd ?? project, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const userConfig = (value: unknown) =>
  mkdir(path.join(xdg, 'docs'), { recursive: true }).then(() =>
    writeFile(path.join(xdg, 'docs', 'config.json'), JSON.stringify(value)),
  );
const projectConfig = (value: unknown) => writeFile(path.join(project, 'docs.config.json'), JSON.stringify(value));
const settingOf = (shown: { settings: { key: string }[] }, key: string) => shown.settings.find((s) => s.key === key);

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  root = await mkdtemp(path.join(tmpdir(), 'docs-config-cli-'));
  xdg = path.join(root, 'xdg');
  project = path.join(root, 'project');
  await mkdir(project, { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('docs config', () => {
  it('shows each setting and where it comes from: env > project config > user config', async () => {
    await userConfig({ tokens: 100, mode: 'lexical', scope: '@user' });
    await projectConfig({ tokens: 200, scope: '@acme' });
    const shown = JSON.parse(docs(['config', '--json'], { env: { DOCS_TOKENS: '300' } }).stdout);
    expect(shown.precedence).toEqual(['flag', 'env', 'project', 'user']);
    expect(settingOf(shown, 'tokens')).toMatchObject({ value: 300, source: 'env' });
    expect(settingOf(shown, 'scope')).toMatchObject({ value: '@acme', source: 'project' });
    expect(settingOf(shown, 'mode')).toMatchObject({ value: 'lexical', source: 'user' });
    expect(shown.files.project.file).toBe(path.join(project, 'docs.config.json'));
    const text = docs(['config']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}tokens +200 +project config +token budget/m);
    expect(text.stdout).toMatch(/^ {2}mode +"lexical" +user config/m);
  });

  it('fills in flags: the store and the token budget come from the config, a flag wins', async () => {
    const store = path.join(project, 'store');
    await projectConfig({ home: './store', tokens: 5 });
    const added = docs(['add', path.join(fixtures, 'alpha@1.0.0'), '--name', 'alpha', '--version', '1.0.0']);
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(path.join(store, 'alpha@1.0.0.db'))).toBe(true);
    const small = JSON.parse(docs(['get', 'alpha', 'fake timers', '--json']).stdout);
    expect(small.totalTokens).toBeLessThanOrEqual(5);
    const flag = JSON.parse(docs(['get', 'alpha', 'fake timers', '--json', '--tokens', '0']).stdout);
    expect(flag.totalTokens).toBeGreaterThan(5);
    // The environment is between the two.
    const env = JSON.parse(docs(['get', 'alpha', 'fake timers', '--json'], { env: { DOCS_TOKENS: '0' } }).stdout);
    expect(env.totalTokens).toBe(flag.totalTokens);
    // A subfolder of the project uses the same config.
    await mkdir(path.join(project, 'src'), { recursive: true });
    expect(JSON.parse(docs(['list', '--json'], { cwd: path.join(project, 'src') }).stdout).libraries).toHaveLength(1);
  });

  it('refuses a broken config file by name, exit code 2', async () => {
    await projectConfig({ tokens: 'lots' });
    const result = docs(['list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^docs: .*docs\.config\.json: "tokens" is not valid/);
  });

  it('holds back a project setting that reaches outside until approved, and says so without a terminal', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    await projectConfig({ home: '../elsewhere' });
    const held = docs(['list', '--json']);
    expect(held.code).toBe(0);
    expect(held.stderr).toMatch(/not using home = .*elsewhere.*no terminal to ask.*docs config --approve/);
    expect(JSON.parse(held.stdout).home).not.toBe(elsewhere);
    expect(docs(['config']).stdout).toMatch(/waiting for approval: home/);

    const approved = docs(['config', '--approve']);
    expect(approved.stdout).toMatch(/Approved .*docs\.config\.json: its home will be used until the file changes/);
    const approvals = JSON.parse(await readFile(path.join(xdg, 'docs', 'approvals.json'), 'utf8'));
    expect(Object.keys(approvals.approved)).toEqual([path.join(project, 'docs.config.json')]);
    const used = docs(['add', path.join(fixtures, 'beta@2.0.0'), '--json']);
    expect(used.stderr).toBe('');
    expect(JSON.parse(docs(['list', '--json']).stdout).home).toBe(elsewhere);
    expect(existsSync(path.join(elsewhere, 'beta@2.0.0.db'))).toBe(true);

    // Any change to the file needs a new approval.
    await projectConfig({ home: '../elsewhere', tokens: 10 });
    expect(docs(['list']).stderr).toMatch(/not using home/);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('asks on a terminal, and remembers a yes', async () => {
    await rm(path.join(xdg, 'docs', 'approvals.json'), { force: true });
    await projectConfig({ home: '../asked' });
    // `script` gives the command a terminal; the answer arrives on it.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} list`;
    const result = spawnSync('script', ['-qec', command, '/dev/null'], {
      input: 'y\n',
      cwd: project,
      env: { ...process.env, XDG_CONFIG_HOME: xdg, DOCS_HOME: '' },
      encoding: 'utf8',
    });
    expect(result.stdout).toMatch(/sets home = ".*asked": settings that reach outside this project\. Use them/);
    expect(result.stdout).toMatch(/No libraries installed in .*asked/);
    expect(docs(['list']).stderr).toBe('');
  });
});
