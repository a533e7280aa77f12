import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProjectConfig, loadConfig } from './load.js';

let root: string;
let userDir: string;
let project: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docs-config-'));
  userDir = path.join(root, 'user');
  project = path.join(root, 'project');
  await mkdir(path.join(project, 'sub', 'deeper'), { recursive: true });
  await mkdir(userDir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = (file: string, value: unknown) => writeFile(file, JSON.stringify(value));

describe('loadConfig', () => {
  it('takes the environment over the project config over the user config', async () => {
    await write(path.join(userDir, 'config.json'), { tokens: 100, scope: '@user', mode: 'lexical' });
    await write(path.join(project, 'docs.config.json'), { tokens: 200, scope: '@project' });
    const config = await loadConfig({ cwd: path.join(project, 'sub', 'deeper'), userDir, env: { DOCS_TOKENS: '300' } });
    expect(await config.get('tokens')).toBe(300);
    expect(await config.get('scope')).toBe('@project');
    expect(await config.get('mode')).toBe('lexical');
    expect(await config.get('reranker')).toBeUndefined();
    expect(config.states().find((s) => s.key === 'tokens')).toMatchObject({ value: 300, source: 'env' });
    expect(config.states().find((s) => s.key === 'scope')).toMatchObject({ value: '@project', source: 'project' });
    expect(config.states().find((s) => s.key === 'mode')).toMatchObject({ value: 'lexical', source: 'user' });
  });

  it('finds the nearest docs.config.json upwards, and none when there is none', async () => {
    await write(path.join(project, 'docs.config.json'), {});
    await write(path.join(project, 'sub', 'docs.config.json'), {});
    expect(findProjectConfig(path.join(project, 'sub', 'deeper'))).toBe(path.join(project, 'sub', 'docs.config.json'));
    expect(findProjectConfig(project)).toBe(path.join(project, 'docs.config.json'));
    expect(findProjectConfig(userDir)).toBeUndefined();
  });

  it('resolves paths against the folder of the file that sets them', async () => {
    await write(path.join(project, 'docs.config.json'), { home: './store' });
    const config = await loadConfig({ cwd: project, userDir, env: {} });
    expect(await config.get('home')).toBe(path.join(project, 'store'));
    expect(config.gatedKeys()).toEqual([]);
  });

  it.each([
    [{ tokens: -1 }, /"tokens" is not valid/],
    [{ tokens: 'many' }, /"tokens" is not valid/],
    [{ mode: 'fuzzy' }, /"mode" is not valid/],
    [{ registry: 'ftp://x' }, /"registry" is not valid/],
    [{ tokns: 3 }, /unknown setting "tokns" \(known: home, tokens/],
    [[1, 2], /one JSON object/],
  ])('refuses %j in a config file by name', async (content, message) => {
    await write(path.join(project, 'docs.config.json'), content);
    await expect(loadConfig({ cwd: project, userDir, env: {} })).rejects.toThrow(message);
  });

  it('refuses a file that is not JSON, and a bad environment value, naming them', async () => {
    await writeFile(path.join(userDir, 'config.json'), '{ tokens: 3');
    await expect(loadConfig({ cwd: project, userDir, env: {} })).rejects.toThrow(/config\.json is not valid JSON/);
    await rm(path.join(userDir, 'config.json'));
    const config = await loadConfig({ cwd: project, userDir, env: { DOCS_MODE: 'fuzzy' } });
    await expect(config.get('mode')).rejects.toThrow(/\$DOCS_MODE is not valid/);
  });

  describe('a project setting that reaches outside the project', () => {
    const content = { embedder: 'http://127.0.0.1:9/v1', registry: 'https://registry.example.com/', tokens: 50 };

    it('is skipped with a warning when there is no terminal to ask, and the user config used instead', async () => {
      await write(path.join(userDir, 'config.json'), { embedder: 'mine' });
      await write(path.join(project, 'docs.config.json'), content);
      const warnings: string[] = [];
      const config = await loadConfig({ cwd: project, userDir, env: {}, warn: (line) => warnings.push(line) });
      expect(config.gatedKeys()).toEqual(['embedder', 'registry']);
      expect(await config.get('tokens')).toBe(50);
      expect(await config.get('embedder')).toBe('mine');
      expect(await config.get('registry')).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/not using embedder = .*registry = .*no terminal to ask/);
      expect(config.states().find((s) => s.key === 'registry')).toMatchObject({
        value: undefined,
        heldBack: { value: content.registry },
      });
    });

    it('is asked about once; a yes is remembered for this content only', async () => {
      const file = path.join(project, 'docs.config.json');
      await write(file, content);
      const questions: string[] = [];
      const ask = async (question: string) => {
        questions.push(question);
        return true;
      };
      const first = await loadConfig({ cwd: project, userDir, env: {}, ask });
      expect(await first.get('embedder')).toBe(content.embedder);
      expect(await first.get('registry')).toBe(content.registry);
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('registry = "https://registry.example.com/"');
      const stored = JSON.parse(await readFile(path.join(userDir, 'approvals.json'), 'utf8'));
      expect(Object.keys(stored.approved)).toEqual([file]);

      const again = await loadConfig({ cwd: project, userDir, env: {} });
      expect(again.isApproved()).toBe(true);
      expect(await again.get('embedder')).toBe(content.embedder);

      // A changed file (a pull that swaps the endpoint) is asked about again.
      await write(file, { ...content, embedder: 'http://attacker.example/v1' });
      const changed = await loadConfig({ cwd: project, userDir, env: {}, ask: async () => false });
      expect(changed.isApproved()).toBe(false);
      expect(await changed.get('embedder')).toBeUndefined();
    });

    it('gates a store folder outside the project, not one inside it', async () => {
      await write(path.join(project, 'docs.config.json'), { home: '../elsewhere' });
      const config = await loadConfig({ cwd: project, userDir, env: {} });
      expect(config.gatedKeys()).toEqual(['home']);
      expect(await config.get('home')).toBeUndefined();
      await config.approveProject();
      expect(await (await loadConfig({ cwd: project, userDir, env: {} })).get('home')).toBe(
        path.join(root, 'elsewhere'),
      );
    });

    it('takes the environment without asking', async () => {
      await write(path.join(project, 'docs.config.json'), content);
      const config = await loadConfig({
        cwd: project,
        userDir,
        env: { DOCS_EMBED: 'env-model' },
        ask: () => Promise.reject(new Error('should not ask')),
      });
      expect(await config.get('embedder')).toBe('env-model');
    });
  });
});
