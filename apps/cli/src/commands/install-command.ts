import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';
import type { InstallCommandOptions } from './install.js';

/** `docs install <spec...>`: its flags and help; the handler (`install.ts`) is imported when it runs. */
export function defineInstall(cli: Command): void {
  const install = commonCommand(cli, 'install')
    .description('install documentation packages from an npm registry (integrity and package checked first)')
    .argument('<spec...>', '@scope/docs-<library>[@range], or <library>[@range] with --scope')
    .option('--scope <scope>', 'npm scope the doc packages are published under, e.g. @acme')
    .option('--registry <url>', "registry URL (default: the scope's registry in .npmrc, else the npm registry)")
    .action(async (specs: string[], options: InstallCommandOptions, command: Command) => {
      const { install } = await import('./install.js');
      await install(specs, options, globals(command));
    });
  withExamples(install, ['docs install @acme/docs-vitest@^3', 'docs install vitest@3 hono --scope @acme']);
}
