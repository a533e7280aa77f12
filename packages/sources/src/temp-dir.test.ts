import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, utimes } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeStaleTempDirs } from './temp-dir.js';

// What kill -9 of docs sync or docs install leaves in the temp folder, made by a real process that is really killed.

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Starts a process that makes a temp folder as docs does and then waits; the folder and the process. */
function processWithTempDir(purpose: string): Promise<{ dir: string; kill: () => Promise<void> }> {
  const module = new URL('../dist/temp-dir.js', import.meta.url).href;
  const script = `const { makeTempDir } = await import(${JSON.stringify(module)});
    console.log(await makeTempDir(${JSON.stringify(purpose)})); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => {
      const dir = line.trim();
      made.push(dir);
      resolve({
        dir,
        kill: async () => {
          child.kill('SIGKILL');
          await closed;
        },
      });
    });
  });
}

const twoMinutesAgo = () => new Date(Date.now() - 120_000);

describe('temp folders of killed processes', () => {
  it('are removed by the next run once their process is gone and they are old enough, and only then', async () => {
    const killed = await processWithTempDir('dep');
    const running = await processWithTempDir('install');
    expect(killed.dir).toMatch(/docs-dep-\d+-\w{6}$/);
    await killed.kill();
    expect(existsSync(killed.dir)).toBe(true);
    // Just killed: younger than the threshold, kept (its pid might be a new process's soon).
    removeStaleTempDirs();
    expect(existsSync(killed.dir)).toBe(true);
    await utimes(killed.dir, twoMinutesAgo(), twoMinutesAgo());
    await utimes(running.dir, twoMinutesAgo(), twoMinutesAgo());
    // The next run's first temp folder sweeps them.
    made.push(await makeTempDir('install'));
    expect(existsSync(killed.dir)).toBe(false);
    // The folder of a process that still runs stays, however old.
    expect(existsSync(running.dir)).toBe(true);
    await running.kill();
  });
});
