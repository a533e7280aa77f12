import { Argument, type Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';
import type { GlobalOptions } from '../options.js';

/**
 * `docs completion <shell>` and the hidden `docs __complete` its scripts call; the handlers (`completion.ts`) are
 * imported when they run.
 */
export function defineCompletion(cli: Command): void {
  const completion = commonCommand(cli, 'completion')
    .description('print a shell completion script (commands, flags and installed library names)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: string, _options: unknown, self: Command) => {
      const { completion } = await import('./completion.js');
      completion(shell, globals(self));
    });
  withExamples(completion, [
    'eval "$(docs completion bash)"          # in ~/.bashrc',
    'eval "$(docs completion zsh)"           # in ~/.zshrc, after compinit',
    'docs completion fish > ~/.config/fish/completions/docs.fish',
  ]);

  // Hidden: the scripts pass the words typed after `docs` (the last one being completed) after a `--`.
  cli
    .command('__complete', { hidden: true })
    .exitOverride()
    .option('--home <dir>', 'store directory')
    .argument('[words...]')
    .action(async (words: string[], options: GlobalOptions) => {
      const { complete } = await import('./completion.js');
      await complete(cli, words, options);
    });
}
