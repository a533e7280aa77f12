import { classify, isDocsErrorNamed } from '@docs/errors';
import { SEARCH_DEFAULTS } from '@docs/search';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { AddOptions } from './commands/add.js';
import type { EmbedOptions } from './commands/embed.js';
import type { InstallCommandOptions } from './commands/install.js';
import type { PublishCommandOptions } from './commands/publish.js';
import type { ServeOptions } from './commands/serve.js';
import type { SetupOptions } from './commands/setup.js';
import type { SyncOptions } from './commands/sync.js';
import { addCompletionCommands } from './completion-commands.js';
import { applyConfig } from './config/apply.js';
import { addHelpExamples } from './help-examples.js';
import type { GlobalOptions, QueryOptions } from './options.js';
import { hostIds } from './setup/host-ids.js';
import { printErrorLine, terminalJson } from './terminal.js';
import { cliVersion } from './version.js';

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('expected a whole number ≥ 0');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n === 0)
    throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

function withQueryOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--tokens <n>', 'token budget over all results (0 = no budget)')
        .argParser(wholeNumber)
        .default(SEARCH_DEFAULTS.tokens),
    )
    .addOption(new Option('--limit <n>', 'results per page').argParser(positiveNumber).default(SEARCH_DEFAULTS.limit))
    .addOption(new Option('--offset <n>', 'results to skip').argParser(wholeNumber).default(SEARCH_DEFAULTS.offset))
    .addOption(
      new Option('--format <format>', 'full: with content; index: without')
        .choices(['full', 'index'])
        .default(SEARCH_DEFAULTS.format),
    )
    .addOption(
      new Option(
        '--mode <mode>',
        'lexical: keywords alone; hybrid: keywords and meaning, for packages with vectors (default: hybrid where a package has vectors and their model is here)',
      ).choices(['lexical', 'hybrid']),
    )
    .option(
      '--embed <spec>',
      'query embedder: a model folder, a model name or openai:<model> (default: $DOCS_EMBED, else the model each package was embedded with)',
    )
    .option(
      '--rerank <spec>',
      're-rank the first results with this cross-encoder: a model folder, a model name or openai:<model> (default: $DOCS_RERANK)',
    )
    .option(
      '--project <dir>',
      'a bare library name means the version this project installs, when installed (default: the working directory)',
    );
}

/** `--also "<phrasing>"`, repeatable: other phrasings of the topic, searched in the same call. */
function withAlso(command: Command): Command {
  return command.option(
    '--also <phrasing>',
    "another phrasing of the topic in the docs' own terms, searched with it (repeatable, up to 4)",
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}

function withCommonOptions(command: Command): Command {
  return command
    .option('--home <dir>', 'store directory (default: $DOCS_HOME, else the user data directory)')
    .option('--json', 'print one JSON object instead of text');
}

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
  const command = (name: string) => withCommonOptions(cli.command(name)).exitOverride();

  const globals = (command: Command) => command.optsWithGlobals() as GlobalOptions;

  command('add')
    .description(
      'build a documentation package from a folder, git repository or website and install it, or install a .db package file',
    )
    .argument(
      '<source>',
      'a folder; a git repository (https://host/org/repo[/tree/<ref>], git@host:org/repo, a local clone); a website URL; a .db package file',
    )
    .option(
      '--name <name>',
      'library name (default: from package.json, the repository, the host, or a "name@version" folder)',
    )
    .option(
      '--version <version>',
      'library version (default: from package.json, the tag or commit, the date for websites, or a "name@version" folder)',
    )
    .option('--description <text>', 'one line about the library')
    .option('--ref <ref>', 'git: the tag, branch or commit to build (default: the default branch)')
    .option(
      '--path <folder>',
      'git: the docs folder (default: docs/, documentation/, doc/, website/docs, else the root)',
    )
    .option('--save <path>', 'also write the package file here to share it (a folder, or a file name ending in .db)')
    .addOption(
      new Option('--max-pages <n>', 'website: fetch at most this many pages (default 500)').argParser(positiveNumber),
    )
    .addOption(new Option('--timeout <seconds>', 'website: per request (default 15)').argParser(positiveNumber))
    .option(
      '--embed <spec>',
      'also store a vector per section, made by this embedder: a model folder, a model name or openai:<model> (see docs embed)',
    )
    .option('--no-embed', 'make no vectors in the background, though an embedder is configured')
    .action(async (source: string, options: AddOptions, command: Command) => {
      const { add } = await import('./commands/add.js');
      await add(source, options, globals(command));
    });

  command('sync')
    .description('build a package for each installed dependency of a project, at its installed version')
    .argument(
      '[dir]',
      'the project folder (package.json and node_modules; pyproject.toml / requirements.txt / Pipfile and a .venv; a go.mod or go.work; or Cargo.toml and Cargo.lock)',
      '.',
    )
    .option(
      '--dev',
      "include devDependencies (a Python project's dependency groups and dev requirements; Rust: dev-dependencies)",
    )
    .option(
      '--all',
      "every dependency, not only those the project declares: a Python virtualenv's every distribution, Go's '// indirect' requirements",
    )
    .option(
      '--venv <dir>',
      'a Python project: the virtualenv to read (default: .venv, venv, env, .env, else $VIRTUAL_ENV)',
    )
    .option('--no-types', 'leave out the API page written from the JSDoc of type declarations')
    .option('--save <dir>', 'also write each package file into this folder to share them')
    .option(
      '--filter <pattern...>',
      'at a workspace root: only the workspace packages whose name or path matches (globs: @acme/*, packages/*)',
    )
    .option(
      '--from-repo',
      "build from each dependency's repository docs at the installed version's tag (falls back to the package, saying why); rebuilds one built earlier from its package",
    )
    .option('--only <library...>', 'only these dependencies (name or name@version); the others are left as they are')
    .option('--rebuild', 'build every selected dependency again, replacing its package once the new one is built')
    .option('--dry-run', 'list what would be built, from where, and what is skipped and why; build nothing')
    .option(
      '--scope <scope>',
      "first install each dependency's doc package from this npm scope when one is published for its version",
    )
    .option('--registry <url>', "with --scope: registry URL (default: the scope's registry in .npmrc)")
    .option('--watch', 'then keep watching the project, building what each install changes, until Ctrl-C')
    .option('--no-embed', 'make no vectors in the background, though an embedder is configured')
    .action(async (dir: string, options: SyncOptions, command: Command) => {
      const { sync } = await import('./commands/sync.js');
      if (!options.watch) return sync(dir, options, globals(command));
      const { checkWatchOptions, watchSync } = await import('./commands/sync-watch.js');
      checkWatchOptions(options);
      await sync(dir, options, globals(command));
      await watchSync(dir, options, globals(command));
    });

  command('embed')
    .description(
      'add vectors to installed packages (no re-parsing), so searches can use meaning as well as keywords; resumable',
    )
    .argument('[library...]', 'name or name@version of each library to embed')
    .option('--all', 'every installed library (the highest version of each)')
    .option('--embed <spec>', 'the embedder: a model folder, a model name or openai:<model> (default: $DOCS_EMBED)')
    .addOption(
      new Option('--batch-size <n>', 'sections per batch, committed as it is done (default 32)').argParser(
        positiveNumber,
      ),
    )
    // The background worker docs add and docs sync start (commands/vector-worker.ts); not for people.
    .addOption(new Option('--worker').hideHelp())
    .action(async (libraries: string[], options: EmbedOptions, command: Command) => {
      const { embed } = await import('./commands/embed.js');
      await embed(libraries, options, globals(command));
    });

  command('publish')
    .description('publish an installed package to an npm registry as <scope>/docs-<library> at the library version')
    .argument('<library>', 'name or name@version (a bare name publishes the highest version)')
    .option('--scope <scope>', 'npm scope to publish under, e.g. @acme (its registry and token come from .npmrc)')
    .option('--registry <url>', "registry URL (default: the scope's registry in .npmrc, else the npm registry)")
    .option('--tag <tag>', 'dist-tag (default: latest; a version below the current latest needs its own)')
    .option('--dry-run', 'build the npm package and report it without publishing')
    .action(async (library: string, options: PublishCommandOptions, command: Command) => {
      const { publish } = await import('./commands/publish.js');
      await publish(library, options, globals(command));
    });

  command('install')
    .description('install documentation packages from an npm registry (integrity and package checked first)')
    .argument('<spec...>', '@scope/docs-<library>[@range], or <library>[@range] with --scope')
    .option('--scope <scope>', 'npm scope the doc packages are published under, e.g. @acme')
    .option('--registry <url>', "registry URL (default: the scope's registry in .npmrc, else the npm registry)")
    .action(async (specs: string[], options: InstallCommandOptions, command: Command) => {
      const { install } = await import('./commands/install.js');
      await install(specs, options, globals(command));
    });

  command('list')
    .description('list installed libraries and versions')
    .action(async (_options: unknown, command: Command) => {
      const { list } = await import('./commands/list.js');
      await list(globals(command));
    });

  command('remove')
    .description('remove an installed library (name@version, or name when only one version is installed)')
    .argument('<library>', 'name or name@version')
    .action(async (library: string, _options: unknown, command: Command) => {
      const { remove } = await import('./commands/remove.js');
      await remove(library, globals(command));
    });

  withAlso(
    withQueryOptions(
      command('get')
        .description("search one library's documentation")
        .argument(
          '<library>',
          "name or name@version (a bare name uses the project's installed version when it is in the store, else the highest)",
        )
        .argument('<topic...>', 'what to look for'),
    ),
  ).action(async (library: string, topic: string[], options: QueryOptions, command: Command) => {
    const { get } = await import('./commands/search.js');
    await get(library, topic.join(' '), options, globals(command));
  });

  withAlso(
    withQueryOptions(
      command('search')
        .description('search every installed library at once')
        .argument('<topic...>', 'what to look for')
        .option('--library <name...>', 'only these libraries (name or name@version)'),
    ),
  ).action(async (topic: string[], options: QueryOptions & { library?: string[] }, command: Command) => {
    const { search } = await import('./commands/search.js');
    await search(topic.join(' '), options, globals(command));
  });

  command('read')
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
      const { read } = await import('./commands/read.js');
      await read(library, path, options, globals(command));
    });

  command('config')
    .description(
      `show each setting, its value and where it comes from (${'flag > environment > docs.config.json > user config'})`,
    )
    .option(
      '--approve',
      "approve this project's docs.config.json and .npmrc as they are now, including settings that reach outside the project",
    )
    .action(async (options: { approve?: boolean }, command: Command) => {
      const { config } = await import('./commands/config.js');
      await config(options, globals(command));
    });

  const modelsCommand = command('models')
    .description(
      'list the local embedders and re-rankers (models directory, Hugging Face cache) and whether each is ready',
    )
    .action(async (_options: unknown, command: Command) => {
      const { models } = await import('./commands/models.js');
      await models(globals(command));
    });
  withCommonOptions(modelsCommand.command('pull'))
    .exitOverride()
    .description('fetch a model folder (with its ONNX export) from the Hugging Face hub into the models directory')
    .argument('<repo>', 'the hub repository, <org>/<name>, e.g. Xenova/bge-small-en-v1.5')
    .action(async (repo: string, _options: unknown, command: Command) => {
      const { pull } = await import('./commands/models.js');
      await pull(repo, globals(command));
    });

  command('serve')
    .description('serve the tools over MCP on stdio, or with --http: MCP at /mcp, a JSON API at /api/, a page at /')
    .option('--http [port]', 'serve HTTP (MCP, the JSON API and the page) on this port instead of stdio (default 7800)')
    .option('--host <host>', 'address to bind with --http (default 127.0.0.1; any other needs a token)')
    .option('--token <token>', 'bearer token every HTTP request must carry (default: $DOCS_TOKEN)')
    .option(
      '--allowed-host <host...>',
      'with --http: host names a reverse proxy forwards (Host/Origin headers accepted)',
    )
    .option('--libs <library...>', 'serve only these libraries (name or name@version)')
    .addOption(
      new Option('--headers-timeout <s>', "with --http: seconds to receive a request's headers (default 10)").argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        '--request-timeout <s>',
        'with --http: seconds to receive a whole request, body included (default 30)',
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        '--max-connections <n>',
        'with --http: requests answered at once, counted after the token check (default 128)',
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option('--max-batch <n>', 'with --http: JSON-RPC calls in one batch (default 16)').argParser(positiveNumber),
    )
    .addOption(
      new Option('--max-response <mib>', 'with --http: largest answer of /mcp and /api/, in MiB (default 4)').argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        '--workers <n>',
        'with --http: threads answering MCP and API requests (0 = the main thread; default: one per core, at most 4)',
      ).argParser(wholeNumber),
    )
    .option(
      '--embed <spec>',
      "query embedder for packages with vectors (default: $DOCS_EMBED, else each package's own)",
    )
    .option('--rerank <spec>', 're-rank the first results with this cross-encoder (default: $DOCS_RERANK)')
    .option(
      '--project <dir>',
      'get_docs answers a bare name from the version this project installs, when installed (default: the working directory)',
    )
    .option(
      '--no-follow',
      "leave the store as it is when the project's installs change (default: stdio, and --http with --project, build what changed)",
    )
    .action(async (options: ServeOptions, command: Command) => {
      const { serve } = await import('./commands/serve.js');
      await serve(options, globals(command));
    });

  command('setup')
    .description(
      "add the docs MCP server to an agent host's configuration, and a rule on when to use its tools where the host reads one",
    )
    .addArgument(new Argument('<host>', 'the agent host').choices(hostIds))
    .option('--user', "the user's configuration, for every project (default: the project's, where the host has one)")
    .option('--project <dir>', 'the project folder (default: the working directory)')
    .option('--print', 'show what would be written, and write nothing')
    .option('--remove', 'take out what setup added')
    .action(async (host: string, options: SetupOptions, command: Command) => {
      const { setup } = await import('./commands/setup.js');
      // The store the server is to use: only one named on the command line, not one a config file gives docs.
      const home = command.getOptionValueSourceWithGlobals('home') === 'cli' ? globals(command).home : undefined;
      await setup(host, { ...options, home }, globals(command));
    });

  addCompletionCommands(cli, command);
  addHelpExamples(cli);

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
