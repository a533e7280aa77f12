import { type Command, Option } from 'commander';
import { commonCommand, globals, wholeNumber, withExamples } from '../command-kit.js';

/** `docs read <library> <path>`: its flags and help; the handler (`read.ts`) is imported when it runs. */
export function defineRead(cli: Command): void {
  const read = commonCommand(cli, 'read')
    .description('print a whole document of a library')
    .argument('<library>', 'name or name@version')
    .argument('<path>', 'document path inside the package, as search results show it')
    .addOption(
      new Option('--tokens <n>', 'at most this many tokens (0 = the whole page)').argParser(wholeNumber).default(0),
    )
    .addOption(
      new Option('--offset <n>', 'character offset to start at (from a previous part)')
        .argParser(wholeNumber)
        .default(0),
    )
    .action(async (library: string, path: string, options: { tokens: number; offset: number }, command: Command) => {
      const { read } = await import('./read.js');
      await read(library, path, options, globals(command));
    });
  withExamples(read, [
    'docs read vitest guide/mocking.md',
    'docs read vitest guide/mocking.md --tokens 1000 --offset 4000',
  ]);
}
