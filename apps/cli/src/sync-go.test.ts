import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, type Ran, run, writeFiles } from './__tests__/run-command.js';

// `docs sync` in a Go module made here, its requirements laid out in a module cache made here as go lays it out;
// go reads that cache only (GOPROXY=off), so nothing is fetched.
const hasGo = (() => {
  try {
    execFileSync('go', ['env', 'GOVERSION'], { stdio: 'ignore', env: { ...process.env, GOTOOLCHAIN: 'local' } });
    return true;
  } catch {
    return false;
  }
})();
let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;

function docs(args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return run(process.execPath, [bin, ...args], cwd, { ...env, ...extra });
}

const COMMAND_GO = `// Package cli builds command-line tools.
package cli

// Command is one command of a tool.
type Command struct {
	// Use is the one-line usage message.
	Use string
}

// AddCommand adds one or more commands to this parent command.
func (c *Command) AddCommand(cmds ...*Command) {}

// Execute runs the command.
func (c *Command) Execute() error { return nil }
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-sync-go-'));
  const cache = path.join(dir, 'modcache');
  project = path.join(dir, 'app');
  env = {
    ...process.env,
    DOCS_HOME: path.join(dir, 'home'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    TMPDIR: dir,
    GOMODCACHE: cache,
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
  };
  await writeFiles(cache, {
    'github.com/!acme/cli/v2@v2.3.0/go.mod': 'module github.com/Acme/cli/v2\n',
    'github.com/!acme/cli/v2@v2.3.0/README.md': '# cli\n\nBuild command-line tools with nested commands.\n',
    'github.com/!acme/cli/v2@v2.3.0/command.go': COMMAND_GO,
  });
  await writeFiles(project, {
    'go.mod':
      'module example.com/app\n\ngo 1.21\n\nrequire (\n\tgithub.com/Acme/cli/v2 v2.3.0\n\texample.com/absent v1.0.0\n\texample.com/helper v0.1.0 // indirect\n)\n',
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(hasGo)('docs sync in a Go module', () => {
  it('builds each required module at its pinned version, and finds it by name or module path', async () => {
    const synced = await docs(['sync', '--json'], project);
    expect(synced.stderr).toBe('');
    expect(synced.code).toBe(0);
    const report = JSON.parse(synced.stdout) as {
      built: Array<{ library: string }>;
      skipped: Array<{ library: string; reason: string }>;
    };
    expect(report.built.map((b) => b.library)).toEqual(['cli@2.3.0']);
    // The indirect requirement is not asked for; the one not downloaded says how to download it.
    expect(report.skipped).toEqual([
      {
        library: 'example.com/absent@1.0.0',
        reason: 'not downloaded (run `go mod download example.com/absent@v1.0.0`)',
      },
    ]);
    for (const library of ['cli', 'github.com/Acme/cli/v2', 'github.com/Acme/cli/v2@v2.3.0']) {
      const got = await docs(['get', library, 'add a subcommand', '--json'], project);
      expect(got.code).toBe(0);
      const answer = JSON.parse(got.stdout) as { results: Array<{ library: string; breadcrumb: string[] }> };
      expect(answer.results[0]?.library).toBe('cli@2.3.0');
      expect(answer.results[0]?.breadcrumb.at(-1)).toBe('Command.AddCommand');
    }
  }, 300_000);

  it('without go on PATH, reads go.mod with its own parser and builds the README alone, saying why', async () => {
    const noGo = (env.PATH ?? '')
      .split(path.delimiter)
      .filter((folder) => folder !== '' && !existsSync(path.join(folder, 'go')))
      .join(path.delimiter);
    const home = path.join(dir, 'home-without-go');
    const synced = await docs(['sync'], project, { PATH: noGo, DOCS_HOME: home });
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain("Go module: go.mod read by docs' parser (go is not on PATH)");
    expect(synced.stdout).toMatch(/Built cli@2\.3\.0: 1 documents/);
    expect(synced.stderr).toContain('docs: warning: cli@2.3.0: no API pages: go is not on PATH');
    const got = await docs(['get', 'cli', 'nested commands', '--json'], project, { PATH: noGo, DOCS_HOME: home });
    expect((JSON.parse(got.stdout) as { results: Array<{ path: string }> }).results[0]?.path).toBe('README.md');
  }, 300_000);
});
