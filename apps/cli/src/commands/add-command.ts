import { type Command, Option } from 'commander';
import { commonCommand, globals, positiveNumber, withExamples } from '../command-kit.js';
import type { AddOptions } from './add.js';

/** `docs add <source>`: its flags and help; the handler (`add.ts`) is imported when it runs. */
export function defineAdd(cli: Command): void {
  const add = commonCommand(cli, 'add')
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
      const { add } = await import('./add.js');
      await add(source, options, globals(command));
    });
  withExamples(add, [
    'docs add ./docs --name my-lib --version 1.2.0',
    'docs add https://github.com/vitest-dev/vitest --ref v3.2.0 --path docs',
    'docs add ./vitest@3.2.0.db',
  ]);
}
