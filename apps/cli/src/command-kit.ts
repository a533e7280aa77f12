// What every command's definition (commands/*-command.ts) shares: the options all commands take, the query options,
// the number parsers, and the examples at the end of a command's help.
import { SEARCH_DEFAULTS } from '@docs/search';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { GlobalOptions } from './options.js';

export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('expected a whole number ≥ 0');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n === 0)
    throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

/** The options every command takes, the program itself included. */
export function withCommonOptions(command: Command): Command {
  return command
    .option('--home <dir>', 'store directory (default: $DOCS_HOME, else the user data directory)')
    .option('--json', 'print one JSON object instead of text');
}

/** A subcommand of `parent` (the program, or `docs models`) with the options every command shares. */
export function commonCommand(parent: Command, name: string): Command {
  return withCommonOptions(parent.command(name)).exitOverride();
}

/** The options of a command, with the program's (`--home`, `--json`) as every command reads them. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

/**
 * One to three typical calls, shown at the end of the command's `--help`. Every command has some: the CLI test that
 * reads every command's help fails for one without.
 */
export function withExamples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** The options of the commands that search (`get`, `search`). */
export function withQueryOptions(command: Command): Command {
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
export function withAlso(command: Command): Command {
  return command.option(
    '--also <phrasing>',
    "another phrasing of the topic in the docs' own terms, searched with it (repeatable, up to 4)",
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}
