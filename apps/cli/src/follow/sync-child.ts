import { type ChildProcess, spawn } from 'node:child_process';

/** How to run this docs as a command: the program and the arguments before the command's name. */
export interface DocsCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** What a `docs sync --json` run printed and how it ended. */
export interface SyncRun {
  /** The JSON it printed on stdout (an `error` object when it failed), undefined when it printed none. */
  readonly output: Record<string, unknown> | undefined;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The end of its stderr, for a message when it printed no JSON. */
  readonly stderr: string;
}

/** A `docs sync` running as a child process. */
export interface RunningSync {
  readonly done: Promise<SyncRun>;
  /** Interrupts it (SIGTERM): sync removes what it had not finished, and keeps what it had built. */
  stop(): void;
}

/**
 * Runs `docs sync <project> --json --home <home> ...args` as a child process of this docs. A build parses and
 * type-checks for seconds on end: in a process of its own it never holds up the server's answers, its memory goes
 * when it ends, and what it builds follows exactly the rules of `docs sync` (it is `docs sync`).
 */
export function runSync(docs: DocsCommand, project: string, home: string, args: readonly string[]): RunningSync {
  const child: ChildProcess = spawn(docs.command, [...docs.args, 'sync', project, '--json', '--home', home, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    // Only the end is kept: it says why a run failed.
    stderr = (stderr + text).slice(-4000);
  });
  const done = new Promise<SyncRun>((resolve) => {
    child.once('error', (error) => resolve({ output: undefined, code: null, signal: null, stderr: error.message }));
    child.once('close', (code, signal) => resolve({ output: parseJson(stdout), code, signal, stderr }));
  });
  return {
    done,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
