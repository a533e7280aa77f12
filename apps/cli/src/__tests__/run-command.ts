import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The built docs command as the end-to-end tests run it, and the files they lay out (not part of the build).

/** The built command the tests run. */
export const bin: string = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

/** What a command printed and how it exited. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command (npm, docs) asynchronously, in `cwd` with exactly `env`: a test registry answers from this process,
 * which a synchronous spawn would block.
 */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Writes each file (a path relative to `root`, with its folders) with its content. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}
