import type { Command } from 'commander';

/**
 * One or two typical calls per command, shown at the end of its `--help`.
 * Keyed by the command's path below `docs` (`models pull`); a command
 * without an entry fails the CLI test that reads every command's help.
 */
const examples: Readonly<Record<string, readonly string[]>> = {
  add: [
    'docs add ./docs --name my-lib --version 1.2.0',
    'docs add https://github.com/vitest-dev/vitest --ref v3.2.0 --path docs',
    'docs add ./vitest@3.2.0.db',
  ],
  sync: ['docs sync', 'docs sync ~/code/app --dev --dry-run', 'docs sync --from-repo'],
  embed: ['docs embed vitest --embed Xenova/bge-small-en-v1.5', 'docs embed --all'],
  publish: ['docs publish vitest@3.2.0 --scope @acme --dry-run'],
  install: ['docs install @acme/docs-vitest@^3', 'docs install vitest@3 hono --scope @acme'],
  list: ['docs list', 'docs list --json'],
  remove: ['docs remove vitest@3.2.0'],
  get: [
    'docs get vitest "fake timers"',
    'docs get vitest@3 mock timers --format index --limit 20',
    'docs get fastapi "run code at startup" --also "lifespan events"',
  ],
  search: ['docs search "enable CORS"', 'docs search retries --library httpx hono --tokens 500'],
  read: ['docs read vitest guide/mocking.md', 'docs read vitest guide/mocking.md --tokens 1000 --offset 4000'],
  config: ['docs config', 'docs config --approve'],
  models: ['docs models'],
  'models pull': ['docs models pull Xenova/bge-small-en-v1.5'],
  serve: ['docs serve', 'docs serve --libs vitest hono', 'docs serve --http 7800'],
  setup: ['docs setup claude-code', 'docs setup cursor --user --print', 'docs setup vscode --remove'],
  completion: [
    'eval "$(docs completion bash)"          # in ~/.bashrc',
    'eval "$(docs completion zsh)"           # in ~/.zshrc, after compinit',
    'docs completion fish > ~/.config/fish/completions/docs.fish',
  ],
};

/** Adds the examples to each command's help, and the program's first steps to `docs --help`. */
export function addHelpExamples(cli: Command): void {
  const visit = (command: Command, path: string) => {
    const lines = examples[path];
    if (lines) command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(cli, '');
  cli.addHelpText(
    'after',
    `\nExamples:\n  $ docs add ./docs --name my-lib --version 1.2.0\n  $ docs get my-lib "how do I configure it"\n  $ docs <command> --help    # each command's options and examples\n`,
  );
}
