import { Argument, type Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';
import { hostIds } from '../setup/host-ids.js';
import type { SetupOptions } from './setup.js';

/** `docs setup <host>`: its flags and help; the handler (`setup.ts`) is imported when it runs. */
export function defineSetup(cli: Command): void {
  const setup = commonCommand(cli, 'setup')
    .description(
      "add the docs MCP server to an agent host's configuration, and a rule on when to use its tools where the host reads one",
    )
    .addArgument(new Argument('<host>', 'the agent host').choices(hostIds))
    .option('--user', "the user's configuration, for every project (default: the project's, where the host has one)")
    .option('--project <dir>', 'the project folder (default: the working directory)')
    .option('--print', 'show what would be written, and write nothing')
    .option('--remove', 'take out what setup added')
    .action(async (host: string, options: SetupOptions, command: Command) => {
      const { setup } = await import('./setup.js');
      // The store the server is to use: only one named on the command line, not one a config file gives docs.
      const home = command.getOptionValueSourceWithGlobals('home') === 'cli' ? globals(command).home : undefined;
      await setup(host, { ...options, home }, globals(command));
    });
  withExamples(setup, ['docs setup claude-code', 'docs setup cursor --user --print', 'docs setup vscode --remove']);
}
