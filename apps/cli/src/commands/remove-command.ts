import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';

/** `docs remove <library>`: its help; the handler (`remove.ts`) is imported when it runs. */
export function defineRemove(cli: Command): void {
  const remove = commonCommand(cli, 'remove')
    .description('remove an installed library (name@version, or name when only one version is installed)')
    .argument('<library>', 'name or name@version')
    .action(async (library: string, _options: unknown, command: Command) => {
      const { remove } = await import('./remove.js');
      await remove(library, globals(command));
    });
  withExamples(remove, ['docs remove vitest@3.2.0']);
}
