import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestRegistry } from '../../../../scripts/verdaccio.mjs';

// The built docs command run against a test registry (scripts/verdaccio.mjs), for the tests that publish and install
// (not part of the build).

/** The built command the tests run. */
export const bin: string = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

/** What a command printed and how it exited. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs docs in the registry's project folder (its .npmrc applies) on the store `home`, with the registry's
 * environment (no npm settings of the machine) plus `env`, and `nodeArgs` before the command.
 */
export function runDocs(
  registry: TestRegistry,
  home: string,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly nodeArgs?: readonly string[] } = {},
): Promise<Ran> {
  return run(process.execPath, [...(options.nodeArgs ?? []), bin, ...args, '--home', home], registry.project, {
    ...registry.env,
    ...options.env,
  });
}

/** Runs a command (npm, docs) asynchronously: the registry answers from this process, which a synchronous spawn would block. */
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
