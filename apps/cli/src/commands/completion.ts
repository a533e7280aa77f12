import type { PackageStore } from '@docs/store';
import { type Command, Help, type Option } from 'commander';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';

/** The shells `docs completion` writes a script for. */
const completionShells = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof completionShells)[number];

/**
 * The scripts only forward the words typed so far to `docs __complete`, so what
 * they complete (commands, flags, installed libraries) is always this docs's
 * own, and a shell that finds nothing falls back to file names (sources, paths).
 */
const scripts: Record<Shell, string> = {
  bash: `# docs completion for bash: add  eval "$(docs completion bash)"  to ~/.bashrc
_docs_complete() {
  local IFS=$'\\n'
  local current="\${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=($(compgen -W "$(docs __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$current"))
}
complete -o default -F _docs_complete docs
`,
  zsh: `#compdef docs
# docs completion for zsh: add  eval "$(docs completion zsh)"  to ~/.zshrc (after compinit)
_docs() {
  local -a found
  found=("\${(@f)$(docs __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  found=(\${found:#})
  if (( \${#found} )); then
    compadd -a found
  else
    _files
  fi
}
if [[ "\${funcstack[1]}" == "_docs" ]]; then _docs "$@"; else compdef _docs docs; fi
`,
  fish: `# docs completion for fish: docs completion fish > ~/.config/fish/completions/docs.fish
function __docs_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l found (docs __complete -- $words[2..-1] 2>/dev/null)
    if test (count $found) -gt 0
        printf '%s\\n' $found
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c docs -f -a '(__docs_complete)'
`,
};

/** `docs completion <shell>`: prints the completion script for the shell (with --json, one object holding it). */
export function completion(shell: string, globals: GlobalOptions = {}): void {
  if (!(completionShells as readonly string[]).includes(shell))
    throw new UsageError(`no completion for "${shell}": choose one of ${completionShells.join(', ')}`);
  const script = scripts[shell as Shell];
  process.stdout.write(globals.json ? `${JSON.stringify({ shell, script })}\n` : script);
}

/**
 * `docs __complete -- <words...>`: the candidates for the last word (the one
 * being typed, possibly empty), one a line, given the words before it.
 * Installed libraries are read from the store the words (`--home`) or the
 * settings name, and only when a library is what comes next; a library's
 * document paths only where a path of it comes next (`docs read <library> <path>`).
 */
export async function complete(program: Command, words: readonly string[], globals: GlobalOptions): Promise<void> {
  const home = homeIn(words) ?? globals.home;
  const found = await completeWords(program, words, {
    libraries: () => installedLibraries(home),
    documents: (library) => documentPaths(home, library),
  });
  if (found.length > 0) process.stdout.write(`${found.join('\n')}\n`);
}

/** Where a command stands after the words before the one being typed. */
interface Position {
  readonly command: Command;
  /** How many arguments the command has been given. */
  readonly given: number;
  /** Those arguments, in order. */
  readonly args: readonly string[];
  /** The option whose value comes next (a variadic one takes every word until the next flag). */
  readonly awaiting?: Option;
}

/** What completion may read from the store, asked for only when it is what comes next. */
interface StoreLookups {
  /** Each installed library's name, then each name@version. */
  readonly libraries: () => Promise<readonly string[]>;
  /** The document paths of a library (a name or name@version), none when it is not installed. */
  readonly documents: (library: string) => Promise<readonly string[]>;
}

/** The candidates for the last of `words`, those starting with it, in the program's order. */
async function completeWords(program: Command, words: readonly string[], store: StoreLookups): Promise<string[]> {
  const { libraries } = store;
  const typed = words.at(-1) ?? '';
  const { command, given, args, awaiting } = positionAfter(program, words.slice(0, -1));
  const help = new Help();
  const startsWithTyped = (list: readonly string[]) => [...new Set(list.filter((w) => w.startsWith(typed)))];
  if (awaiting && !(awaiting.variadic && typed.startsWith('-'))) {
    if (awaiting.argChoices) return startsWithTyped(awaiting.argChoices);
    return isLibraryOption(awaiting) ? startsWithTyped(await libraries()) : [];
  }
  if (typed.startsWith('-')) {
    const flags: string[] = [];
    for (let c: Command | null = command; c; c = c.parent)
      for (const option of help.visibleOptions(c)) if (option.long) flags.push(option.long);
    return startsWithTyped(flags);
  }
  const subcommands = help.visibleCommands(command).map((c) => c.name());
  if (subcommands.length > 0 && given === 0) return startsWithTyped(subcommands);
  const parameters = command.registeredArguments;
  const last = parameters.at(-1);
  const parameter = parameters[given] ?? (last?.variadic ? last : undefined);
  if (parameter?.argChoices) return startsWithTyped(parameter.argChoices);
  if (parameter?.name() === 'library') return startsWithTyped(await libraries());
  // `docs read <library> <path>`: the paths of the library named before.
  const library = args[parameters.findIndex((p) => p.name() === 'library')];
  if (parameter?.name() === 'path' && library) return startsWithTyped(await store.documents(library));
  return [];
}

function positionAfter(program: Command, words: readonly string[]): Position {
  let command = program;
  const args: string[] = [];
  let awaiting: Option | undefined;
  for (const [i, word] of words.entries()) {
    if (word === '--') {
      args.push(...words.slice(i + 1));
      return { command, given: args.length, args };
    }
    if (word.startsWith('-') && word.length > 1) {
      const option = optionNamed(command, word.split('=')[0] as string);
      // `--tokens=500` carries its value; `[value]` options take the next word only as commander does, when it is no flag.
      awaiting = option && (option.required || option.optional) && !word.includes('=') ? option : undefined;
      continue;
    }
    if (awaiting) {
      if (!awaiting.variadic) awaiting = undefined;
      continue;
    }
    const subcommand = args.length === 0 ? command.commands.find((c) => c.name() === word) : undefined;
    if (subcommand) command = subcommand;
    else args.push(word);
  }
  const given = args.length;
  return awaiting ? { command, given, args, awaiting } : { command, given, args };
}

/** The option a flag names on the command or a command above it. */
function optionNamed(command: Command, flag: string): Option | undefined {
  for (let c: Command | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

function isLibraryOption(option: Option): boolean {
  return option.long === '--library' || option.long === '--libs';
}

/** `--home <dir>` or `--home=<dir>` among the words typed. */
function homeIn(words: readonly string[]): string | undefined {
  for (const [i, word] of words.entries()) {
    if (word === '--home' && i + 1 < words.length - 1) return words[i + 1];
    if (word.startsWith('--home=')) return word.slice('--home='.length);
  }
  return undefined;
}

/** Opens the store a command would read, runs `read` on it and closes it. */
async function withStore<T>(home: string | undefined, read: (store: PackageStore) => Promise<T>): Promise<T> {
  const [{ PackageStore, resolveHome }, { loadConfig }] = await Promise.all([
    import('@docs/store'),
    import('../config/load.js'),
  ]);
  // As a command would find the store, without asking anything: completion runs inside the shell's prompt.
  const configured = home ?? (await (await loadConfig({ warn: () => {} })).get('home'));
  const store = new PackageStore(resolveHome({ home: configured }));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/** Each installed library's name, then each name@version. */
function installedLibraries(home: string | undefined): Promise<string[]> {
  return withStore(home, async (store) => {
    const packages = await store.list();
    return [...packages.map((p) => p.name), ...packages.map((p) => `${p.name}@${p.version}`)];
  });
}

/** The document paths of the library `spec` names, as `docs read` takes them; none when it is not installed. */
function documentPaths(home: string | undefined, spec: string): Promise<string[]> {
  return withStore(home, async (store) => {
    const found = await store.resolve(spec);
    if (!found.ok) return [];
    return (await store.reader(found.value).documents()).map((d) => d.path);
  });
}
