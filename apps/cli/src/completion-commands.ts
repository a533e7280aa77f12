import { Argument, type Command } from 'commander';
import type { GlobalOptions } from './options.js';

/**
 * `docs completion <shell>` and the hidden `docs __complete` its scripts call.
 * `command` makes a subcommand with the options every command shares.
 */
export function addCompletionCommands(cli: Command, command: (name: string) => Command): void {
  command('completion')
    .description('print a shell completion script (commands, flags and installed library names)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: string, _options: unknown, self: Command) => {
      const { completion } = await import('./commands/completion.js');
      completion(shell, self.optsWithGlobals() as GlobalOptions);
    });

  // Hidden: the scripts pass the words typed after `docs` (the last one being completed) after a `--`.
  cli
    .command('__complete', { hidden: true })
    .exitOverride()
    .option('--home <dir>', 'store directory')
    .argument('[words...]')
    .action(async (words: string[], options: GlobalOptions) => {
      const { complete } = await import('./commands/completion.js');
      await complete(cli, words, options);
    });
}
