import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectPackageFile } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs add` killed with SIGKILL at points through its run: the next store
// operation leaves only whole packages and no partial or side files. A few
// trials here; `pnpm fuzz` runs a hundred.

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let source: string;
let home: string;

function run(args: readonly string[], killAfterMs?: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '--home', home], { stdio: 'ignore' });
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('error', reject);
    child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-crash-'));
  source = path.join(dir, 'source');
  home = path.join(dir, 'home');
  await mkdir(path.join(source, 'guide'), { recursive: true });
  for (let p = 0; p < 150; p++) {
    const parts = Array.from({ length: 5 }, (_, s) => `## Part ${s}\n\nEnable CORS and retry ${'text '.repeat(50)}`);
    await writeFile(path.join(source, 'guide', `page-${p}.md`), `# Page ${p}\n\n${parts.join('\n\n')}\n`);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs add killed midway', () => {
  it('leaves only whole packages once the next store operation has run', async () => {
    const started = performance.now();
    await run(['add', source, '--name', 'crashlib', '--version', '1.0.0']);
    const whole = performance.now() - started;
    let killed = 0;
    for (const [i, fraction] of [0.35, 0.6, 0.8, 0.95].entries()) {
      if ((await run(['add', source, '--name', 'crashlib', '--version', `2.0.${i}`], fraction * whole)) === 'SIGKILL') {
        killed += 1;
      }
      await run(['list']);
      // Package files, and the store's catalog (derived data a killed add may leave behind as it was).
      const entries = (await readdir(home)).filter((e) => e !== '.catalog');
      expect(entries.filter((e) => !/^[^.].*@.*\.db$/.test(e))).toEqual([]);
      for (const entry of entries) await expect(inspectPackageFile(path.join(home, entry))).resolves.toBeDefined();
    }
    // Timing on a loaded machine varies; most kills land before the build ends.
    expect(killed).toBeGreaterThan(0);
  }, 120_000);
});
