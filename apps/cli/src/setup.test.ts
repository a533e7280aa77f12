import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs setup` as a user runs it, the built command in a real process, on each host's real file formats in temp
// folders standing for the home folder and a project; then an MCP client starts the server the written file
// names, as a host (or the MCP Inspector's --config) would, and lists its tools.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let dir: string;
let store: string;
let home: string;
let xdg: string;
let project: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    env: {
      ...process.env,
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: xdg,
      XDG_CACHE_HOME: cache(),
      DOCS_HOME: store,
    },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(...args: string[]) {
  const result = docs(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** Every file under `root`, with its bytes, to compare before and after. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const { readdir } = await import('node:fs/promises');
  const found: Record<string, string> = {};
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    found[path.relative(root, file)] = entry.isDirectory() ? '<dir>' : await readFile(file, 'utf8');
  }
  return found;
}

/** docs keeps its code cache in the user's cache folder: outside the folders compared before and after. */
const cache = () => path.join(dir, 'cache');

const other = { command: 'npx', args: ['-y', '@acme/mcp-server'], env: { ACME_TOKEN: 'secret' } };

interface HostCase {
  readonly host: string;
  readonly flags: readonly string[];
  /** The config file, under the temp root ({home}, {xdg}, {project} replaced). */
  readonly config: string;
  readonly serversKey: string;
  readonly typed: boolean;
  readonly rule?: string;
  /** The files there before setup, in the host's own format, with a server of the user's and keys docs ignores. */
  readonly before: Readonly<Record<string, string>>;
}

const json2 = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const cases: readonly HostCase[] = [
  {
    host: 'claude-code',
    flags: [],
    config: '{project}/.mcp.json',
    serversKey: 'mcpServers',
    typed: true,
    rule: '{project}/CLAUDE.md',
    before: {
      '{project}/.mcp.json': json2({ mcpServers: { acme: { type: 'stdio', ...other } } }),
      '{project}/CLAUDE.md': '# App\n\nRun `pnpm test` before committing.\n',
    },
  },
  {
    host: 'claude-code',
    flags: ['--user'],
    config: '{home}/.claude.json',
    serversKey: 'mcpServers',
    typed: true,
    rule: '{home}/.claude/CLAUDE.md',
    // ~/.claude.json is Claude Code's own state too: all of it stays.
    before: {
      '{home}/.claude.json': json2({
        numStartups: 12,
        projects: { '/work/app': { mcpServers: {}, allowedTools: [] } },
        mcpServers: { acme: other },
      }),
    },
  },
  {
    host: 'cursor',
    flags: [],
    config: '{project}/.cursor/mcp.json',
    serversKey: 'mcpServers',
    typed: false,
    rule: '{project}/.cursor/rules/docs.mdc',
    before: { '{project}/.cursor/mcp.json': json2({ mcpServers: { acme: other } }) },
  },
  {
    host: 'cursor',
    flags: ['--user'],
    config: '{home}/.cursor/mcp.json',
    serversKey: 'mcpServers',
    typed: false,
    before: { '{home}/.cursor/mcp.json': json2({ mcpServers: { acme: other } }) },
  },
  {
    host: 'vscode',
    flags: [],
    config: '{project}/.vscode/mcp.json',
    serversKey: 'servers',
    typed: true,
    rule: '{project}/AGENTS.md',
    before: {
      '{project}/.vscode/mcp.json': json2({
        inputs: [{ type: 'promptString', id: 'acme-token', description: 'Acme token', password: true }],
        // VS Code's own input variable, kept as written.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a VS Code variable, not a template
        servers: { acme: { type: 'stdio', ...other, env: { ACME_TOKEN: '${input:acme-token}' } } },
      }),
      '{project}/AGENTS.md': '# Agents\n\nKeep changes small.\n',
    },
  },
  {
    host: 'vscode',
    flags: ['--user'],
    config: '{xdg}/Code/User/mcp.json',
    serversKey: 'servers',
    typed: true,
    before: { '{xdg}/Code/User/mcp.json': json2({ servers: {}, inputs: [] }) },
  },
  {
    host: 'windsurf',
    flags: [],
    config: '{home}/.codeium/windsurf/mcp_config.json',
    serversKey: 'mcpServers',
    typed: false,
    rule: '{home}/.codeium/windsurf/memories/global_rules.md',
    before: {
      '{home}/.codeium/windsurf/mcp_config.json': json2({
        mcpServers: { acme: { ...other, disabled: false }, remote: { serverUrl: 'https://example.com/mcp' } },
      }),
    },
  },
  {
    host: 'claude-desktop',
    flags: [],
    // On Linux, where these tests run: $XDG_CONFIG_HOME/Claude (macOS and Windows paths: setup/hosts.test.ts).
    config: '{xdg}/Claude/claude_desktop_config.json',
    serversKey: 'mcpServers',
    typed: false,
    before: { '{xdg}/Claude/claude_desktop_config.json': json2({ mcpServers: { acme: other }, globalShortcut: '' }) },
  },
];

function place(template: string): string {
  return template.replace('{home}', home).replace('{xdg}', xdg).replace('{project}', project);
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-setup-'));
  store = path.join(dir, 'store');
  const added = spawnSync(process.execPath, [bin, 'add', path.join(fixtures, 'alpha@1.0.0'), '--home', store]);
  expect(added.status).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs setup', () => {
  for (const c of cases) {
    it(`${c.host} ${c.flags.join(' ')}: merges, is idempotent, starts, and is taken out again`, async () => {
      const root = await mkdtemp(path.join(dir, `${c.host}-`));
      home = path.join(root, 'home');
      xdg = path.join(root, 'xdg');
      project = path.join(root, 'project');
      for (const folder of [home, xdg, project]) await mkdir(folder, { recursive: true });
      for (const [file, text] of Object.entries(c.before)) {
        await mkdir(path.dirname(place(file)), { recursive: true });
        await writeFile(place(file), text);
      }
      const original = await snapshot(root);

      // --print shows the server and writes nothing.
      const printed = docs('setup', c.host, ...c.flags, '--print');
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain(`"command": ${JSON.stringify(process.execPath)}`);
      expect(printed.stdout).toContain('Nothing written (--print).');
      expect(await snapshot(root)).toEqual(original);

      const first = json('setup', c.host, ...c.flags);
      expect(first.written).toBe(true);
      const config = JSON.parse(await readFile(place(c.config), 'utf8'));
      const entry = config[c.serversKey].docs;
      // The user's servers and the keys docs does not know are all still there.
      const before = JSON.parse(c.before[c.config] ?? '{}');
      for (const [key, value] of Object.entries(before))
        if (key !== c.serversKey) expect(config[key], key).toEqual(value);
      for (const [name, server] of Object.entries(before[c.serversKey] ?? {}))
        expect(config[c.serversKey][name], name).toEqual(server);
      // This Node and this docs by absolute path (never `npx docs`), and the store this command used.
      expect(entry).toEqual({
        ...(c.typed ? { type: 'stdio' } : {}),
        command: process.execPath,
        args: [bin, 'serve'],
        env: { DOCS_HOME: store },
      });
      if (c.rule) {
        const rule = await readFile(place(c.rule), 'utf8');
        expect(rule.match(/<!-- docs setup: begin/g)).toHaveLength(1);
        const mine = c.before[c.rule];
        if (mine) expect(rule.startsWith(mine)).toBe(true);
      }

      // Twice is once: every file byte for byte as the first run left it.
      const once = await snapshot(root);
      const second = json('setup', c.host, ...c.flags);
      expect(second.written).toBe(false);
      expect(second.changes.map((change: { change: string }) => change.change)).toEqual(
        second.changes.map(() => 'unchanged'),
      );
      expect(await snapshot(root)).toEqual(once);

      // The server starts from what the file says, as a host starts it, and its tools are the ones the rule names.
      const tools = await toolsOfConfiguredServer(entry, project);
      expect(tools.map((t) => t.name).sort()).toEqual(['get_docs', 'list_libraries', 'read_doc', 'search_all']);
      if (c.rule) {
        const rule = await readFile(place(c.rule), 'utf8');
        for (const name of rule.match(/`[a-z_]+`/g) ?? [])
          if (name.includes('_')) expect(tools.map((t) => `\`${t.name}\``)).toContain(name);
        const getDocs = tools.find((t) => t.name === 'get_docs');
        for (const input of ['library', 'topic', 'alternatives'])
          expect(Object.keys(getDocs?.inputSchema.properties ?? {})).toContain(input);
      }

      // --remove takes out exactly what setup added: the files as they were, those it made gone.
      const removed = json('setup', c.host, ...c.flags, '--remove');
      expect(removed.written).toBe(true);
      expect(await snapshot(root)).toEqual(original);
      expect(json('setup', c.host, ...c.flags, '--remove').written).toBe(false);
    });
  }

  it('refuses a configuration that is not JSON, or has comments, and writes nothing at all', async () => {
    project = await mkdtemp(path.join(dir, 'refused-'));
    home = path.join(project, 'home');
    const file = path.join(project, '.vscode', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    for (const text of ['{"servers": {', '{\n  // mine\n  "servers": {}\n}\n']) {
      await writeFile(file, text);
      const result = docs('setup', 'vscode');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`docs: ${file}: it `);
      expect(result.stderr).toMatch(text.includes('//') ? /has comments \(JSONC\)/ : /is not valid JSON/);
      // It says what to add by hand.
      expect(result.stderr).toContain(`"docs": {"type":"stdio","command":${JSON.stringify(process.execPath)}`);
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(existsSync(path.join(project, 'AGENTS.md'))).toBe(false);
    }
  });

  it('leaves another server named docs alone, and says how to use a scope the host does not have', async () => {
    project = await mkdtemp(path.join(dir, 'foreign-'));
    home = path.join(project, 'home');
    const text = json2({ mcpServers: { docs: { command: 'python', args: ['-m', 'acme_docs'] } } });
    await writeFile(path.join(project, '.mcp.json'), text);
    const refused = docs('setup', 'claude-code', '--json');
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'foreign-server' });
    expect(refused.stderr).toContain('another server named "docs" (python -m acme_docs)');
    expect(docs('setup', 'claude-code', '--remove').code).toBe(2);
    expect(await readFile(path.join(project, '.mcp.json'), 'utf8')).toBe(text);

    const scope = docs('setup', 'windsurf', '--project', project);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(/--project applies to a project's configuration; Windsurf is set up in the user's/);
    expect(docs('setup', 'emacs').stderr).toMatch(
      /'emacs' is invalid for argument 'host'\. Allowed choices are claude-code, cursor, vscode/,
    );
  });
});

/** Starts the server a host configuration names, with the MCP SDK's own stdio client, and lists its tools. */
async function toolsOfConfiguredServer(
  entry: { command: string; args: string[]; env?: Record<string, string> },
  cwd: string,
) {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    // The host's own environment is the client's default one (PATH, HOME…), with the home folder of this test.
    env: { HOME: home, XDG_CONFIG_HOME: xdg, XDG_CACHE_HOME: cache(), ...entry.env },
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'setup-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const listed = await client.callTool({ name: 'list_libraries', arguments: {} });
    // The store the file names (env DOCS_HOME) is the one served.
    const text = (listed.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    expect(text).toContain('alpha@1.0.0');
    return tools;
  } finally {
    await client.close();
  }
}
