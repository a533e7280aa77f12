// The built docs command run against a test registry (scripts/verdaccio.mjs), for the tests that publish and install
// (not part of the build).
import type { TestRegistry } from '../../../../scripts/verdaccio.mjs';
import { bin, type Ran, run } from './run-command.js';

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
