// A process run to its end under GNU time, for the figures a busy machine disturbs least: the CPU of the process
// and every child it waited for, and the peak RSS of the largest one.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/** A process run to its end under /usr/bin/time: wall, CPU of it and every child it waited for, its peak RSS. */
export interface Measured {
  readonly code: number | null;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssKb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` in `cwd` under `/usr/bin/time` (killed after `timeMs`) and reports its wall time, user + system
 * CPU (of it and every descendant it waited for), peak RSS and output.
 */
export function runTimed(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeMs = 600_000,
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const [program, ...rest] = command as [string, ...string[]];
    const timing = path.join(cwd, `.time-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const started = performance.now();
    // GNU time reports the rusage wait4 returns: user + system time of the process and every descendant it waited
    // for, and the peak RSS of the largest one.
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', timing, '--', program, ...rest], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeMs);
    child.on('error', reject);
    child.on('close', async (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const report = await readFile(timing, 'utf8').catch(() => '');
      await rm(timing, { force: true });
      const last = report.trim().split('\n').at(-1) ?? '';
      const [user, system, rss] = last.split(' ').map(Number);
      resolve({
        code,
        wallMs,
        cpuMs: ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000,
        peakRssKb: rss ?? Number.NaN,
        stdout,
        stderr,
      });
    });
  });
}
