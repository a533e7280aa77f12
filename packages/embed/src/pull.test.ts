import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openEmbedder, pullModel } from './index.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const QUANTIZED = 'onnx/model_quantized.onnx';

/** A stub of the hub's two routes: the file listing and file downloads, serving the fixture folders as acme/<name>. */
function startHub(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    const listing = /^\/api\/models\/acme\/([\w.-]+)$/.exec(url);
    const file = /^\/acme\/([\w.-]+)\/resolve\/main\/(.+)$/.exec(url);
    const folder = path.join(fixtures, (listing ?? file)?.[1] ?? '-');
    if (!existsSync(folder)) {
      res.writeHead(404).end('not found');
      return;
    }
    if (listing) {
      const siblings = readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => ({ rfilename: path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/') }));
      // Every repository also lists an int8 graph, served as a copy of its full-precision one.
      siblings.push({ rfilename: QUANTIZED });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: url, siblings }));
      return;
    }
    const served = file?.[2] === QUANTIZED ? 'onnx/model.onnx' : (file?.[2] ?? '');
    res.writeHead(200).end(readFileSync(path.join(folder, served)));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }),
    ),
  );
}

describe('pullModel', () => {
  let dir: string;
  let hub: Awaited<ReturnType<typeof startHub>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'docs-pull-'));
    hub = await startHub();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => hub.server.close(resolve));
  });

  test('fetches a model folder from the hub into <models dir>/<org>/<name>, ready to open by name', async () => {
    const modelsDir = path.join(dir, 'models');
    const fetched: string[] = [];
    const pulled = await pullModel('acme/tiny-embedder', {
      modelsDir,
      env: { HF_ENDPOINT: hub.url },
      onFile: (file) => fetched.push(file),
    });
    expect(pulled).toMatchObject({
      repo: 'acme/tiny-embedder',
      kind: 'embedder',
      path: path.join(modelsDir, 'acme', 'tiny-embedder'),
    });
    expect(fetched).toEqual(
      expect.arrayContaining(['config.json', 'tokenizer.json', '1_Pooling/config.json', 'onnx/model.onnx', QUANTIZED]),
    );
    expect(fetched).not.toContain('README.md');
    expect(readdirSync(path.join(modelsDir, 'acme'))).toEqual(['tiny-embedder']);
    // The int8 graph by default, the full-precision one still there for the ids that name it.
    for (const [spec, id] of [
      ['tiny-embedder', 'transformers:tiny-embedder@q8:32'],
      ['transformers:tiny-embedder:32', 'transformers:tiny-embedder:32'],
    ]) {
      const embedder = await openEmbedder(spec as string, { modelsDir, env: {} });
      expect(embedder.id).toBe(id);
      await embedder.close();
    }
  });

  test('a re-ranker is fetched with its first graph only', async () => {
    const fetched: string[] = [];
    await pullModel('acme/tiny-reranker', {
      modelsDir: path.join(dir, 'models-reranker'),
      env: { HF_ENDPOINT: hub.url },
      onFile: (file) => fetched.push(file),
    });
    expect(fetched).toContain('onnx/model.onnx');
    expect(fetched).not.toContain(QUANTIZED);
  });

  test('a repository that is not on the hub is not-found, and leaves nothing behind', async () => {
    const modelsDir = path.join(dir, 'models-404');
    await expect(pullModel('acme/missing', { modelsDir, env: { HF_ENDPOINT: hub.url } })).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(existsSync(path.join(modelsDir, 'acme', 'missing'))).toBe(false);
  });

  test('an unreachable hub is a clear error, and leaves nothing behind', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const modelsDir = path.join(dir, 'models-offline');
    const error = await pullModel('Xenova/bge-small-en-v1.5', {
      modelsDir,
      env: { HF_ENDPOINT: `http://127.0.0.1:${port}` },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unreachable' });
    expect((error as Error).message).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/models\/Xenova\/bge-small-en-v1\.5 \(ECONNREFUSED\)/,
    );
    expect(existsSync(modelsDir) ? readdirSync(modelsDir, { recursive: true }) : []).toEqual([]);
  });

  test('a name that is not <org>/<name> is refused before any request', async () => {
    await expect(pullModel('bge-small-en-v1.5', { env: { HF_ENDPOINT: hub.url } })).rejects.toMatchObject({
      code: 'invalid-spec',
    });
  });
});
