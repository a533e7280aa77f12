// The hosts' names alone, for the argument parser: the bundle every command starts with needs them, not the hosts.

/** The agent hosts `docs setup` knows (see hosts.ts). */
export const hostIds = ['claude-code', 'cursor', 'vscode', 'windsurf', 'claude-desktop'] as const;
export type HostId = (typeof hostIds)[number];
