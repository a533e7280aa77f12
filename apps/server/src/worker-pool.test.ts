import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from './worker-pool.js';

// A real worker thread from an ES module file, which reports the data and the Node flags it started with.
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-worker-pool-'));
  script = path.join(dir, 'echo.mjs');
  await writeFile(
    script,
    "import { parentPort, workerData } from 'node:worker_threads';\n" +
      'parentPort.postMessage({ workerData, execArgv: process.execArgv });\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function firstMessage(worker: Worker): Promise<{ workerData: unknown; execArgv: string[] }> {
  return new Promise((resolve, reject) => {
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('startWorker', () => {
  // workers.test.ts starts the CLI under V8 flags; here the flags of a `node -e` process are given as such.
  it("takes the process's own flags as they are when none must go", async () => {
    const { workerData, execArgv } = await firstMessage(startWorker(script, { n: 1 }));
    expect(workerData).toEqual({ n: 1 });
    expect(execArgv).toEqual(process.execArgv);
  });

  it('leaves out --input-type (from node -e), in either spelling, and keeps the other flags', async () => {
    for (const flags of [
      ['--input-type=module', '--conditions=docs-test'],
      ['--input-type', 'module', '--conditions=docs-test'],
    ]) {
      const { execArgv } = await firstMessage(startWorker(script, 2, flags));
      expect(execArgv, flags.join(' ')).toEqual(['--conditions=docs-test']);
    }
  });

  it('starts with no flags when the rest holds one a worker refuses', async () => {
    const { workerData, execArgv } = await firstMessage(
      startWorker(script, 3, ['--input-type=module', '--max-old-space-size=1024']),
    );
    expect(workerData).toBe(3);
    expect(execArgv).toEqual([]);
  });
});
