import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';
import type { PublishCommandOptions } from './publish.js';

/** `docs publish <library>`: its flags and help; the handler (`publish.ts`) is imported when it runs. */
export function definePublish(cli: Command): void {
  const publish = commonCommand(cli, 'publish')
    .description('publish an installed package to an npm registry as <scope>/docs-<library> at the library version')
    .argument('<library>', 'name or name@version (a bare name publishes the highest version)')
    .option('--scope <scope>', 'npm scope to publish under, e.g. @acme (its registry and token come from .npmrc)')
    .option('--registry <url>', "registry URL (default: the scope's registry in .npmrc, else the npm registry)")
    .option('--tag <tag>', 'dist-tag (default: latest; a version below the current latest needs its own)')
    .option('--dry-run', 'build the npm package and report it without publishing')
    .action(async (library: string, options: PublishCommandOptions, command: Command) => {
      const { publish } = await import('./publish.js');
      await publish(library, options, globals(command));
    });
  withExamples(publish, ['docs publish vitest@3.2.0 --scope @acme --dry-run']);
}
