import { classify, isDocsErrorNamed } from '@docs/errors';
import { Command, CommanderError } from 'commander';
import { withCommonOptions } from './command-kit.js';
import { defineAdd } from './commands/add-command.js';
import { defineCompletion } from './commands/completion-command.js';
import { defineConfig } from './commands/config-command.js';
import { defineEmbed } from './commands/embed-command.js';
import { defineInstall } from './commands/install-command.js';
import { defineList } from './commands/list-command.js';
import { defineModels } from './commands/models-command.js';
import { definePublish } from './commands/publish-command.js';
import { defineRead } from './commands/read-command.js';
import { defineRemove } from './commands/remove-command.js';
import { defineGet, defineSearch } from './commands/search-command.js';
import { defineServe } from './commands/serve-command.js';
import { defineSetup } from './commands/setup-command.js';
import { defineSync } from './commands/sync-command.js';
import { applyConfig } from './config/apply.js';
import { printErrorLine, terminalJson } from './terminal.js';
import { cliVersion } from './version.js';

/**
 * The commands, in the order `docs --help` lists them. Each is defined (flags, help, examples) beside its handler in
 * `commands/<name>-command.ts`, which imports the handler only when the command runs.
 */
const COMMANDS: readonly ((cli: Command) => void)[] = [
  defineAdd,
  defineSync,
  defineEmbed,
  definePublish,
  defineInstall,
  defineList,
  defineRemove,
  defineGet,
  defineSearch,
  defineRead,
  defineConfig,
  defineModels,
  defineServe,
  defineSetup,
  defineCompletion,
];

function program(): Command {
  // Positional options: `add --version 1.2` is the library's version, `docs --version` the CLI's.
  // The version is worked out only when asked for (from a checkout it asks git for the commit).
  const cli = withCommonOptions(new Command('docs'))
    .description('Local documentation search for AI agents: build, install and search documentation packages.')
    .option('-V, --version', 'print the version of docs')
    .on('option:version', () => {
      process.stdout.write(`${cliVersion()}\n`);
      throw new CommanderError(0, 'commander.version', 'version printed');
    })
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`docs: ${text.replace(/^error: /, '').trim()}\n`) });
  for (const define of COMMANDS) define(cli);
  cli.addHelpText(
    'after',
    `\nExamples:\n  $ docs add ./docs --name my-lib --version 1.2.0\n  $ docs get my-lib "how do I configure it"\n  $ docs <command> --help    # each command's options and examples\n`,
  );

  // Config files and the environment fill in the flags a command was not given
  // (`docs config` shows them instead, and completion asks nothing at the shell's prompt).
  cli.hook('preAction', async (_program, action) => {
    if (!['config', 'completion', '__complete'].includes(action.name())) await applyConfig(action);
  });

  return cli;
}

/**
 * Runs the docs command and returns its exit code: 0 done, 2 bad input
 * (one line on stderr), 130 interrupted, 1 an unexpected failure, which is a bug.
 * With --json, an error is also printed on stdout as `{ "error": { "code", "message" } }`.
 */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await program().parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.exitCode === 0) return 0;
    // Commander has already printed its own parse errors on stderr.
    // A message may quote a package's text (a path, a title): shown, never obeyed by the terminal.
    if (!(error instanceof CommanderError)) printErrorLine(`docs: ${failure.message}`);
    if (wantsJson(argv))
      process.stdout.write(`${terminalJson({ error: { code: failure.code, message: failure.message } })}\n`);
    return failure.exitCode;
  }
}

interface Failure {
  readonly exitCode: number;
  /** A stable, machine-readable name of what went wrong. */
  readonly code: string;
  readonly message: string;
}

function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) {
    // Help and version are successful exits; the rest are parse errors (`commander.unknownOption` → `unknown-option`).
    const code = error.code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return { exitCode: error.exitCode === 0 ? 0 : 2, code, message: error.message.replace(/^error: /, '').trim() };
  }
  // classify() knows errors by their brand: a command beside the bundle (scripts/bundle.mjs) throws its own copies.
  const { blame, code, message } = classify(error);
  if (isDocsErrorNamed(error, 'InterruptedError')) return { exitCode: 130, code, message };
  if (blame !== 'bug') return { exitCode: 2, code, message };
  return {
    exitCode: 1,
    code,
    message: `unexpected error (this is a bug, please report it): ${(error as Error)?.stack ?? String(error)}`,
  };
}

/** --json anywhere before a `--` (parse errors happen before commander knows the options). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
