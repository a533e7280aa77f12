import { execFile } from 'node:child_process';
import path from 'node:path';

/** What a run of the user's `go` printed, or why it did not run. */
export type GoRun = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly error: string };

/** Options for {@link runGo}. */
export interface GoRunOptions {
  readonly cwd?: string;
  /** Variables set over the user's environment for this run. */
  readonly env?: Readonly<Record<string, string>>;
  /** @default 60_000 */
  readonly timeoutMs?: number;
  /** @default 64 MiB */
  readonly maxBuffer?: number;
}

/**
 * Runs the user's `go` (the one on PATH) with `args`, never a toolchain a go.mod asks for: `GOTOOLCHAIN=local`
 * keeps a `toolchain` line of a module docs reads from choosing a binary to download and run. A missing `go`, a
 * failure or a timeout is a result with the reason, for the caller to report.
 *
 * @example
 * const run = await runGo(['env', 'GOMODCACHE']); // → { ok: true, stdout: '/home/me/go/pkg/mod\n' }
 */
export function runGo(args: readonly string[], options: GoRunOptions = {}): Promise<GoRun> {
  return runProgram('go', args, { ...options, env: { GOTOOLCHAIN: 'local', ...options.env } });
}

/** Runs `file` (`go`, or the reader docs built with it) as {@link runGo} does, its failure a result. */
export function runProgram(file: string, args: readonly string[], options: GoRunOptions = {}): Promise<GoRun> {
  const name = file === 'go' ? `go ${args[0]}` : path.basename(file);
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        ...(options.cwd ? { cwd: options.cwd } : {}),
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        const reason =
          code === 'ENOENT'
            ? `${file} is not on PATH`
            : error.killed
              ? `${name} did not finish in ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s`
              : (stderr.trim().split('\n').slice(-3).join(' ') || error.message).slice(0, 500);
        resolve({ ok: false, error: reason });
      },
    );
  });
}

let available: Promise<boolean> | undefined;

/** Whether `go` is on PATH (asked once per process). */
export function goOnPath(): Promise<boolean> {
  available ??= runGo(['env', 'GOVERSION'], { timeoutMs: 20_000 }).then((run) => run.ok);
  return available;
}
