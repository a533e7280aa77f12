import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';

/** `docs list`: its help; the handler (`list.ts`) is imported when it runs. */
export function defineList(cli: Command): void {
  const list = commonCommand(cli, 'list')
    .description('list installed libraries and versions')
    .action(async (_options: unknown, command: Command) => {
      const { list } = await import('./list.js');
      await list(globals(command));
    });
  withExamples(list, ['docs list', 'docs list --json']);
}
