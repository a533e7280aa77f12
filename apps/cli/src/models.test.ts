import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built command in a real process, over a models directory holding the fixture models.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const embedPackage = path.dirname(createRequire(import.meta.url).resolve('@docs/embed/package.json'));
const fixtures = path.join(embedPackage, 'fixtures');
let dir: string;
let env: NodeJS.ProcessEnv;

function docs(args: string[], extra: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, [...nodeArgs, bin, ...args], {
    env: { ...env, ...extra },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = mkdtempSync(path.join(tmpdir(), 'docs-models-'));
  cpSync(path.join(fixtures, 'tiny-embedder'), path.join(dir, 'models', 'tiny-embedder'), { recursive: true });
  cpSync(path.join(fixtures, 'tiny-reranker'), path.join(dir, 'models', 'acme', 'tiny-reranker'), { recursive: true });
  // A folder without its ONNX graph: listed, not ready.
  cpSync(path.join(fixtures, 'tiny-embedder'), path.join(dir, 'models', 'broken'), { recursive: true });
  rmSync(path.join(dir, 'models', 'broken', 'onnx'), { recursive: true });
  const { DOCS_EMBED_URL: _url, OPENAI_BASE_URL: _base, ...rest } = process.env;
  env = {
    ...rest,
    DOCS_HOME: path.join(dir, 'home'),
    DOCS_MODELS: path.join(dir, 'models'),
    HF_HOME: path.join(dir, 'hf'),
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs models', () => {
  it('lists the local embedders and re-rankers and whether each is ready', () => {
    const result = docs(['models', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ modelsDir: path.join(dir, 'models'), runtime: { installed: true }, endpoint: null });
    const bySpec = Object.fromEntries(report.models.map((m: { spec: string }) => [m.spec, m]));
    expect(bySpec['tiny-embedder']).toMatchObject({
      kind: 'embedder',
      ready: true,
      dimensions: 32,
      id: 'transformers:tiny-embedder:32',
    });
    expect(bySpec['acme/tiny-reranker']).toMatchObject({ kind: 'reranker', ready: true });
    expect(bySpec.broken).toMatchObject({ ready: false, problem: expect.stringMatching(/lacks onnx\/model\.onnx/) });

    const text = docs(['models'], { DOCS_EMBED_URL: 'http://localhost:11434/v1' });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/embedder {2}tiny-embedder\s+32 dims {2}ready/);
    expect(text.stdout).toMatch(/reranker {2}acme\/tiny-reranker\s+ready/);
    expect(text.stdout).toMatch(/broken\s+32 dims {2}not ready: .*lacks onnx\/model\.onnx/);
    expect(text.stdout).toContain('Endpoint:           http://localhost:11434/v1 (use openai:<model>)');
  });

  it('says how to get a model when there is none', () => {
    const result = docs(['models'], { DOCS_MODELS: path.join(dir, 'empty') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('docs models pull Xenova/bge-small-en-v1.5');
  });

  it('pull from an unreachable hub fails in one line with exit code 2, leaving nothing behind', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const models = path.join(dir, 'pulled');
    const result = docs(['models', 'pull', 'Xenova/bge-small-en-v1.5'], {
      HF_ENDPOINT: `http://127.0.0.1:${port}`,
      DOCS_MODELS: models,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^docs: cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/models\/Xenova\/bge-small-en-v1\.5 \(ECONNREFUSED\): pull on a machine that can reach the Hugging Face hub/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(models) ? readdirSync(models, { recursive: true }) : []).toEqual([]);
    expect(docs(['models', 'pull', 'bge-small-en-v1.5']).stderr).toMatch(/give <org>\/<name>/);
  });

  it('docs search and docs models never load the optional runtime', () => {
    // A module hook that reports every module resolved from @huggingface/transformers or onnxruntime.
    const hook = path.join(dir, 'hook.mjs');
    writeFileSync(
      hook,
      `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/@huggingface|onnxruntime/.test(result.url)) process.stderr.write('LOADED ' + result.url + '\\n');
  return result;
}\n`,
    );
    const register = path.join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hook}`)});\n`,
    );
    for (const args of [['search', 'enable cors'], ['models']]) {
      const result = docs(args, {}, ['--import', register]);
      expect(result.stderr).not.toContain('LOADED');
    }
    // The hook does see it when a model is opened, so the check above can fail.
    const opened = spawnSync(
      process.execPath,
      [
        '--import',
        register,
        '--input-type=module',
        '-e',
        `const { openEmbedder } = await import(${JSON.stringify(path.join(embedPackage, 'dist', 'index.js'))});
         await (await openEmbedder(${JSON.stringify(path.join(fixtures, 'tiny-embedder'))})).close();`,
      ],
      { encoding: 'utf8' },
    );
    expect(opened.stderr).not.toMatch(/Error/);
    expect(opened.status).toBe(0);
    expect(opened.stderr).toContain('LOADED');
  });
});
