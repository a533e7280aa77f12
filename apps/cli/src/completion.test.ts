import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real command in a real process, and its scripts in real shells, over a real store.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let home: string;
/** A folder holding a `docs` that runs the built CLI, as the scripts call it by name. */
let binDir: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function candidates(...words: string[]): string[] {
  const result = docs('__complete', '--', ...words);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

function inShell(shell: string, script: string) {
  return spawnSync(shell, ['-c', script], {
    env: { ...process.env, DOCS_HOME: home, PATH: `${binDir}${path.delimiter}${process.env.PATH}` },
    encoding: 'utf8',
  });
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  home = await mkdtemp(path.join(tmpdir(), 'docs-completion-'));
  binDir = path.join(home, 'bin');
  await mkdir(binDir);
  await writeFile(path.join(binDir, 'docs'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  await chmod(path.join(binDir, 'docs'), 0o755);
  for (const library of ['alpha@1.0.0', 'beta@2.0.0']) expect(docs('add', path.join(fixtures, library)).code).toBe(0);
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('docs __complete', () => {
  it('completes commands, subcommands and flags from the program itself', () => {
    const commands = candidates('');
    for (const command of ['add', 'get', 'search', 'read', 'serve', 'completion']) expect(commands).toContain(command);
    expect(commands).not.toContain('__complete');
    expect(candidates('se')).toEqual(['search', 'serve', 'setup']);
    expect(candidates('models', '')).toEqual(['pull']);
    expect(candidates('get', 'alpha', '--to')).toEqual(['--tokens']);
    // A command's own flags, then those every command shares.
    expect(candidates('search', '--')).toEqual(
      expect.arrayContaining(['--library', '--format', '--json', '--home', '--help']),
    );
    expect(candidates('completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes the values of flags with choices', () => {
    expect(candidates('get', 'alpha', 'x', '--format', '')).toEqual(['full', 'index']);
    expect(candidates('search', 'x', '--mode', 'h')).toEqual(['hybrid']);
    // `--format=index` carries its value: what follows is a flag or the topic again.
    expect(candidates('get', '--format=index', 'alpha', 'x', '--li')).toEqual(['--limit']);
  });

  it('completes installed library names where a library comes next, and nothing where free text does', () => {
    const all = ['alpha', 'beta', 'alpha@1.0.0', 'beta@2.0.0'];
    expect(candidates('get', '')).toEqual(all);
    expect(candidates('get', 'a')).toEqual(['alpha', 'alpha@1.0.0']);
    expect(candidates('read', 'b')).toEqual(['beta', 'beta@2.0.0']);
    expect(candidates('remove', '')).toEqual(all);
    // Variadic: every word after --library is another library, until a flag.
    expect(candidates('search', 'x', '--library', 'alpha', 'b')).toEqual(['beta', 'beta@2.0.0']);
    expect(candidates('embed', 'alpha', 'b')).toEqual(['beta', 'beta@2.0.0']);
    expect(candidates('serve', '--libs', '')).toEqual(all);
    // The topic is the user's to type (the shell then offers file names).
    expect(candidates('get', 'alpha', '')).toEqual([]);
    expect(candidates('add', '')).toEqual([]);
  });

  it("completes `docs read <library> <path>` with that library's document paths", () => {
    expect(candidates('read', 'alpha', '')).toEqual(['guide/config.mdx', 'guide/timers.md']);
    expect(candidates('read', 'alpha@1.0.0', 'guide/t')).toEqual(['guide/timers.md']);
    expect(candidates('read', 'beta', '')).toEqual(['cors.md', 'routing.md']);
    expect(candidates('read', '--tokens', '500', 'beta', 'r')).toEqual(['routing.md']);
    // A library that is not installed has no paths: the shell falls back to file names.
    expect(candidates('read', 'gamma', '')).toEqual([]);
    expect(candidates('read', 'alpha', 'guide/timers.md', '')).toEqual([]);
  });

  it('reads the store the words name with --home', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'docs-completion-empty-'));
    try {
      expect(candidates('--home', empty, 'get', '')).toEqual([]);
      expect(candidates('get', '--home', empty, '')).toEqual([]);
      expect(candidates('get', '--home', home, 'al')).toEqual(['alpha', 'alpha@1.0.0']);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('docs completion', () => {
  it('with --json, prints one JSON object holding the script it prints without', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const plain = docs('completion', shell);
      const json = docs('completion', shell, '--json');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ shell, script: plain.stdout });
    }
  });

  it('refuses a shell it has no script for', () => {
    const result = docs('completion', 'ksh');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bash, zsh, fish/);
  });

  it.skipIf(!hasShell('bash'))('bash: the script completes through COMP_WORDS in a real bash', () => {
    const complete = (...words: string[]) => {
      const quoted = words.map((w) => `'${w}'`).join(' ');
      const result = inShell(
        'bash',
        `eval "$(docs completion bash)"; COMP_WORDS=(docs ${quoted}); COMP_CWORD=${words.length}; _docs_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
      expect(result.stderr).toBe('');
      return result.stdout.split('\n').filter(Boolean);
    };
    expect(complete('ge')).toEqual(['get']);
    expect(complete('get', '')).toEqual(['alpha', 'beta', 'alpha@1.0.0', 'beta@2.0.0']);
    expect(complete('get', 'alpha', 'timers', '--form')).toEqual(['--format']);
    expect(complete('read', 'beta', '')).toEqual(['cors.md', 'routing.md']);
    expect(inShell('bash', 'eval "$(docs completion bash)"; complete -p docs').stdout).toMatch(
      /-F _docs_complete docs/,
    );
  });

  it.skipIf(!hasShell('zsh'))('zsh: the script loads in a real zsh and registers itself', () => {
    const result = inShell(
      'zsh',
      'autoload -U compinit && compinit -u && eval "$(docs completion zsh)" && print -r -- $_comps[docs]',
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('_docs');
  });

  it.skipIf(!hasShell('fish'))('fish: the script completes in a real fish', () => {
    const result = inShell('fish', 'docs completion fish | source; complete -C "docs get a"');
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['alpha', 'alpha@1.0.0']);
  });
});

describe('docs --help', () => {
  it('shows an example for every command', () => {
    const help = docs('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    const commands = candidates('').filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(10);
    for (const command of [...commands, 'models pull']) {
      const own = docs(...command.split(' '), '--help');
      expect(own.code, command).toBe(0);
      expect(own.stdout, command).toMatch(new RegExp(`Examples:\\n(  \\$ .*docs ${command}\\b.*\\n)+`));
    }
  });
});
