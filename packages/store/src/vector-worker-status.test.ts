import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clearVectorWork,
  readVectorWork,
  tryVectorWorkerLock,
  vectorWorkOf,
  writeVectorWork,
} from './vector-worker-status.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-vector-worker-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe("the store's vector worker status and lock", () => {
  it('one worker at a time: the lock is refused while held, and taken again once let go', async () => {
    const release = await tryVectorWorkerLock(dir);
    expect(release).toBeDefined();
    expect(await tryVectorWorkerLock(dir)).toBeUndefined();
    await release?.();
    const again = await tryVectorWorkerLock(dir);
    expect(again).toBeDefined();
    await again?.();
  });

  it('a lock left by a process that is gone is taken over', async () => {
    await writeFile(path.join(dir, '.@vectors@build.lock'), String(deadPid()));
    const release = await tryVectorWorkerLock(dir);
    expect(release).toBeDefined();
    await release?.();
  });

  it('says what a running worker does with each package, and nothing once it is cleared', async () => {
    await writeVectorWork(dir, {
      pid: process.pid,
      embedder: 'transformers:m:4',
      current: { file: 'a@1.0.0.db', done: 3, total: 12 },
      waiting: ['b@1.0.0.db'],
      failed: [{ file: 'c@1.0.0.db', error: 'the model failed' }],
    });
    const work = await readVectorWork(dir);
    expect(work?.running).toBe(true);
    expect(vectorWorkOf(work, path.join(dir, 'a@1.0.0.db'))).toEqual({
      state: 'embedding',
      embedder: 'transformers:m:4',
      done: 3,
      total: 12,
    });
    expect(vectorWorkOf(work, 'b@1.0.0.db')).toEqual({ state: 'waiting', embedder: 'transformers:m:4' });
    expect(vectorWorkOf(work, 'c@1.0.0.db')).toMatchObject({ state: 'failed', error: 'the model failed' });
    expect(vectorWorkOf(work, 'd@1.0.0.db')).toBeUndefined();
    await clearVectorWork(dir);
    expect(await readVectorWork(dir)).toBeUndefined();
  });

  it('a worker that is gone embeds nothing, but what failed is still said', async () => {
    await writeVectorWork(dir, {
      pid: deadPid(),
      embedder: 'transformers:m:4',
      current: { file: 'a@1.0.0.db', done: 3, total: 12 },
      waiting: [],
      failed: [{ file: 'c@1.0.0.db', error: 'no model' }],
    });
    const work = await readVectorWork(dir);
    expect(work?.running).toBe(false);
    expect(vectorWorkOf(work, 'a@1.0.0.db')).toBeUndefined();
    expect(vectorWorkOf(work, 'c@1.0.0.db')).toMatchObject({ state: 'failed' });
  });

  it.each([
    ['not JSON', '{"pid": 1,'],
    ['another shape', '{"pid": "1", "embedder": 2}'],
    ['an array', '[]'],
  ])('a status file that is %s counts as none', async (_, text) => {
    await writeFile(path.join(dir, '.vectors-worker.json'), text);
    expect(await readVectorWork(dir)).toBeUndefined();
  });
});
