import { describe, expect, it } from 'vitest';
import { hostIds } from './host-ids.js';
import { type HostFiles, hosts, type Places } from './hosts.js';

const linux: Places = { platform: 'linux', home: '/home/ann', project: '/work/app' };
const mac: Places = { platform: 'darwin', home: '/Users/ann', project: '/work/app' };
const windows: Places = {
  platform: 'win32',
  home: 'C:\\Users\\ann',
  appData: 'C:\\Users\\ann\\AppData\\Roaming',
  project: 'C:\\work\\app',
};

function files(id: keyof typeof hosts, scope: 'project' | 'user', places: Places): HostFiles {
  const of = hosts[id].scopes[scope];
  if (!of) throw new Error(`${id} has no ${scope} scope`);
  return of(places);
}

describe('hosts', () => {
  it.each([
    ['claude-code', 'project', linux, '/work/app/.mcp.json', 'mcpServers', '/work/app/CLAUDE.md'],
    ['claude-code', 'user', linux, '/home/ann/.claude.json', 'mcpServers', '/home/ann/.claude/CLAUDE.md'],
    ['cursor', 'project', linux, '/work/app/.cursor/mcp.json', 'mcpServers', '/work/app/.cursor/rules/docs.mdc'],
    ['cursor', 'user', windows, 'C:\\Users\\ann\\.cursor\\mcp.json', 'mcpServers', undefined],
    ['vscode', 'project', windows, 'C:\\work\\app\\.vscode\\mcp.json', 'servers', 'C:\\work\\app\\AGENTS.md'],
    ['vscode', 'user', linux, '/home/ann/.config/Code/User/mcp.json', 'servers', undefined],
    ['vscode', 'user', mac, '/Users/ann/Library/Application Support/Code/User/mcp.json', 'servers', undefined],
    [
      'windsurf',
      'user',
      linux,
      '/home/ann/.codeium/windsurf/mcp_config.json',
      'mcpServers',
      '/home/ann/.codeium/windsurf/memories/global_rules.md',
    ],
    [
      'claude-desktop',
      'user',
      mac,
      '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
      'mcpServers',
      undefined,
    ],
    [
      'claude-desktop',
      'user',
      windows,
      'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'mcpServers',
      undefined,
    ],
    [
      'claude-desktop',
      'user',
      { ...linux, xdgConfig: '/cfg' },
      '/cfg/Claude/claude_desktop_config.json',
      'mcpServers',
      undefined,
    ],
  ] as const)('%s, %s scope (%o): %s', (id, scope, places, config, serversKey, rule) => {
    const found = files(id, scope, places);
    expect(found.config).toBe(config);
    expect(found.serversKey).toBe(serversKey);
    expect(found.rule?.file).toBe(rule);
    // A host without a rule file says why.
    if (!rule) expect(found.noRule).toMatch(/\w/);
  });

  it('has a user scope for every host, and removes emptied folders only inside the project or the home folder', () => {
    for (const id of hostIds) {
      expect(hosts[id].id).toBe(id);
      expect(files(id, 'user', linux).root).toBe('/home/ann');
      const project = hosts[id].scopes.project?.(linux);
      if (project) expect(project.root).toBe('/work/app');
    }
    // VS Code requires each server's transport; Claude Code's own `claude mcp add` writes it.
    expect(files('vscode', 'project', linux).typed).toBe(true);
    expect(files('cursor', 'project', linux).typed).toBe(false);
  });
});
