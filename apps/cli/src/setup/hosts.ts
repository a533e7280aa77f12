import path from 'node:path';
import { type HostId, hostIds } from './host-ids.js';

// The agent hosts `docs setup` knows, as data: where each reads its MCP servers and a usage rule. Checked against
// each host's documentation (2026-11), cited per host below; a host moving a file is a change here only.

/** The folders a host's files are found from: given, not read here, so a test can point them anywhere. */
export interface Places {
  readonly platform: NodeJS.Platform;
  /** The user's home folder. */
  readonly home: string;
  /** %APPDATA% (Windows). */
  readonly appData?: string | undefined;
  /** $XDG_CONFIG_HOME (Linux). */
  readonly xdgConfig?: string | undefined;
  /** The project: where a project's configuration and rule go. */
  readonly project: string;
}

/** Project: the files a project holds (and may commit). User: the user's own, for every project. */
export type Scope = 'project' | 'user';

/** A markdown file the host reads instructions from; `docs setup` keeps one marked block of its own in it. */
export interface RuleFile {
  readonly file: string;
  /** Written above the block when the file is made (a Cursor rule's front matter), and removed with it. */
  readonly header?: string;
}

/** Where one host, in one scope, reads its servers and its rule. */
export interface HostFiles {
  /** The JSON file holding the MCP servers. */
  readonly config: string;
  /** The key of the object of servers in it, by name. */
  readonly serversKey: 'mcpServers' | 'servers';
  /** VS Code requires each server's transport; Claude Code writes it too. */
  readonly typed: boolean;
  readonly rule?: RuleFile;
  /** Why there is no rule file, said when there is none. */
  readonly noRule?: string;
  /** Folders `--remove` leaves empty are removed up to this one (the project, or the home folder), never above it. */
  readonly root: string;
}

export interface Host {
  readonly id: HostId;
  readonly title: string;
  /** Every host has a user scope; without `--user`, the project scope is used where the host has one. */
  readonly scopes: { readonly user: (places: Places) => HostFiles; readonly project?: (places: Places) => HostFiles };
  /** What to do next for the host to start the server. */
  readonly next: string;
}

/** `path` for the platform the places are of, so a test on Linux can ask for Windows' paths. */
function pathOf(places: Places): path.PlatformPath {
  return places.platform === 'win32' ? path.win32 : path.posix;
}

/** The folder desktop apps keep their settings in: Application Support, %APPDATA%, or ~/.config. */
function appSupport(places: Places): string {
  const p = pathOf(places);
  if (places.platform === 'darwin') return p.join(places.home, 'Library', 'Application Support');
  if (places.platform === 'win32') return places.appData || p.join(places.home, 'AppData', 'Roaming');
  return places.xdgConfig || p.join(places.home, '.config');
}

const RULE_FOR_CURSOR =
  '---\ndescription: How to look up library documentation with the docs MCP tools\nalwaysApply: true\n---\n\n';

export const hosts: Readonly<Record<HostId, Host>> = {
  // Claude Code (code.claude.com/docs/en/mcp): project scope is .mcp.json at the project root, user scope the
  // top-level "mcpServers" of ~/.claude.json (where `claude mcp add --scope user` writes); `claude mcp add` writes
  // "type": "stdio". Memory (docs.anthropic.com/en/docs/claude-code/memory): ./CLAUDE.md, and ~/.claude/CLAUDE.md for
  // every project.
  'claude-code': {
    id: 'claude-code',
    title: 'Claude Code',
    scopes: {
      project: (places) => {
        const p = pathOf(places);
        return {
          config: p.join(places.project, '.mcp.json'),
          serversKey: 'mcpServers',
          typed: true,
          rule: { file: p.join(places.project, 'CLAUDE.md') },
          root: places.project,
        };
      },
      user: (places) => {
        const p = pathOf(places);
        return {
          config: p.join(places.home, '.claude.json'),
          serversKey: 'mcpServers',
          typed: true,
          rule: { file: p.join(places.home, '.claude', 'CLAUDE.md') },
          root: places.home,
        };
      },
    },
    next: 'Claude Code asks to approve a project\'s .mcp.json servers when it next starts there; "/mcp" lists them.',
  },
  // Cursor (cursor.com/docs/mcp): .cursor/mcp.json in a project, ~/.cursor/mcp.json for every project, servers
  // under "mcpServers". Rules (cursor.com/docs/context/rules): .cursor/rules/*.mdc, front matter "description",
  // "globs", "alwaysApply"; user rules are kept in Cursor's settings, not in a file.
  cursor: {
    id: 'cursor',
    title: 'Cursor',
    scopes: {
      project: (places) => {
        const p = pathOf(places);
        return {
          config: p.join(places.project, '.cursor', 'mcp.json'),
          serversKey: 'mcpServers',
          typed: false,
          rule: { file: p.join(places.project, '.cursor', 'rules', 'docs.mdc'), header: RULE_FOR_CURSOR },
          root: places.project,
        };
      },
      user: (places) => ({
        config: pathOf(places).join(places.home, '.cursor', 'mcp.json'),
        serversKey: 'mcpServers',
        typed: false,
        noRule: "Cursor keeps user rules in its settings, not in a file; the tools' descriptions say when to use them",
        root: places.home,
      }),
    },
    next: 'Cursor lists the server under Settings > MCP: turn it on there if it is off.',
  },
  // VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration): .vscode/mcp.json in a workspace, or
  // mcp.json in the user profile folder (Code/User), servers under "servers", each with "type": "stdio"; the file
  // may be JSONC. Instructions (code.visualstudio.com/docs/copilot/customization/custom-instructions): an AGENTS.md
  // at the workspace root is read by the agent.
  vscode: {
    id: 'vscode',
    title: 'VS Code',
    scopes: {
      project: (places) => {
        const p = pathOf(places);
        return {
          config: p.join(places.project, '.vscode', 'mcp.json'),
          serversKey: 'servers',
          typed: true,
          rule: { file: p.join(places.project, 'AGENTS.md') },
          root: places.project,
        };
      },
      user: (places) => ({
        config: pathOf(places).join(appSupport(places), 'Code', 'User', 'mcp.json'),
        serversKey: 'servers',
        typed: true,
        noRule:
          "VS Code's user instructions live in its profile's prompts folder; the tools' descriptions say when to use them",
        root: places.home,
      }),
    },
    next: 'VS Code starts the server when agent mode first needs it, or from "MCP: List Servers".',
  },
  // Windsurf (docs.windsurf.com/windsurf/cascade/mcp): one file for every project, ~/.codeium/windsurf/mcp_config.json,
  // servers under "mcpServers" (Claude Desktop's schema). Rules (docs.windsurf.com/windsurf/cascade/memories): global
  // rules in global_rules.md, kept in ~/.codeium/windsurf/memories/.
  windsurf: {
    id: 'windsurf',
    title: 'Windsurf',
    scopes: {
      user: (places) => {
        const p = pathOf(places);
        const windsurf = p.join(places.home, '.codeium', 'windsurf');
        return {
          config: p.join(windsurf, 'mcp_config.json'),
          serversKey: 'mcpServers',
          typed: false,
          rule: { file: p.join(windsurf, 'memories', 'global_rules.md') },
          root: places.home,
        };
      },
    },
    next: "Press refresh in Cascade's MCP panel (or restart Windsurf).",
  },
  // Claude Desktop (modelcontextprotocol.io/quickstart/user): claude_desktop_config.json in
  // ~/Library/Application Support/Claude (macOS) or %APPDATA%\Claude (Windows), servers under "mcpServers"; there is
  // no Linux build, and Linux builds by others read ~/.config/Claude. It reads no rule file.
  'claude-desktop': {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    scopes: {
      user: (places) => ({
        config: pathOf(places).join(appSupport(places), 'Claude', 'claude_desktop_config.json'),
        serversKey: 'mcpServers',
        typed: false,
        noRule: "Claude Desktop reads no rule file; the tools' descriptions say when to use them",
        root: places.home,
      }),
    },
    next: 'Quit and reopen Claude Desktop.',
  },
};

/** Whether `id` names a host `docs setup` knows. */
export function isHostId(id: string): id is HostId {
  return (hostIds as readonly string[]).includes(id);
}
