import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { hostIds } from '../setup/host-ids.js';
import { type HostFiles, hosts, isHostId, type Places, type Scope } from '../setup/hosts.js';
import { applyChanges, type FileChange, planRemoval, planSetup } from '../setup/plan.js';
import { SERVER_NAME, serverEntry } from '../setup/server-entry.js';
import { RULE_BLOCK } from '../setup/usage-rule.js';
import { printLine } from '../terminal.js';

/** Options of `docs setup`, as commander parses them. */
export interface SetupOptions {
  /** The user's configuration, for every project, rather than the project's. */
  readonly user?: boolean;
  /** The project folder (default: the working directory). */
  readonly project?: string;
  /** Show what would be written; write nothing. */
  readonly print?: boolean;
  /** Take out what setup added. */
  readonly remove?: boolean;
  /** The store given on the command line (--home), which the server is to use too. */
  readonly home?: string | undefined;
}

/**
 * `docs setup <host>`: adds the docs MCP server to the host's configuration (the project's, or with --user the
 * user's), and a short rule on when to use its tools where the host reads one; --remove takes both out again.
 */
export async function setup(hostId: string, options: SetupOptions, globals: GlobalOptions): Promise<void> {
  if (!isHostId(hostId)) throw new UsageError(`no setup for "${hostId}": choose one of ${hostIds.join(', ')}`);
  const host = hosts[hostId];
  const scope: Scope = host.scopes.project && !options.user ? 'project' : 'user';
  if (options.project !== undefined && scope === 'user')
    throw new UsageError(
      `--project applies to a project's configuration; ${host.title}${options.user ? ' with --user' : ''} is set up in the user's, for every project`,
    );
  const files = (host.scopes[scope] ?? host.scopes.user)(places(options.project, scope));
  const entry = serverEntry(
    { node: process.execPath, bin: runningBin(), home: storeHome(options.home) },
    { typed: files.typed },
  );
  const plan = options.remove ? await planRemoval(files) : await planSetup(files, entry);
  if (!plan.ok) {
    // What setup would have added, for a user who adds it by hand to a file docs will not rewrite.
    const byHand =
      plan.code === 'invalid-config' && !options.remove
        ? ` The server: "${SERVER_NAME}": ${JSON.stringify(entry)}`
        : '';
    throw new UsageError(`${plan.file}: ${plan.error}; nothing was written.${byHand}`, { code: plan.code });
  }
  if (!options.print) await applyChanges(plan.changes, files.root);

  const notes = [
    ...(files.rule || options.remove ? [] : [`No usage rule: ${files.noRule}.`]),
    ...(!options.remove && /[\\/]_npx[\\/]/.test(entry.args[0] ?? '')
      ? [
          "This docs runs from npx's cache, which npm may clear: install it (npm install -g @docs/cli) and run docs setup again.",
        ]
      : []),
    ...(scope === 'project' && !options.remove
      ? ["The configuration names this machine's Node and docs: on another machine, run docs setup there."]
      : []),
  ];
  const changed = plan.changes.some((c) => c.change !== 'unchanged' && c.change !== 'absent');
  if (globals.json) {
    printJson({
      host: host.id,
      scope,
      ...(options.remove ? {} : { server: { name: SERVER_NAME, ...entry } }),
      written: !options.print && changed,
      changes: plan.changes.map(({ file, part, change }) => ({ file, part, change })),
      notes,
      ...(options.remove ? {} : { next: host.next }),
    });
    return;
  }
  const where = scope === 'project' ? `the project ${files.root}` : "the user's configuration";
  printLine(`${host.title}, ${where}${options.remove ? ', taking docs out' : ''}${options.print ? ' (--print)' : ''}:`);
  for (const change of plan.changes) {
    const label = options.print ? planned[change.change] : done[change.change];
    printLine(`  ${label.padEnd(options.print ? 12 : 9)} ${change.file}${partName(change, files)}`);
    // What setup puts in the file, to see before it is written (or to add by hand to a file it refuses).
    if (options.print && !options.remove && (change.change === 'create' || change.change === 'update'))
      printLine(indent(change.part === 'server' ? `"${SERVER_NAME}": ${JSON.stringify(entry, null, 2)}` : RULE_BLOCK));
  }
  for (const note of notes) printLine(note);
  if (options.print) printLine('Nothing written (--print).');
  else if (!changed) printLine(options.remove ? 'Nothing to take out.' : 'Already set up: nothing changed.');
  else if (!options.remove) printLine(`Next: ${host.next}`);
}

const done: Record<FileChange['change'], string> = {
  create: 'created',
  update: 'updated',
  unchanged: 'unchanged',
  delete: 'deleted',
  absent: 'absent',
};

const planned: Record<FileChange['change'], string> = {
  create: 'Would create',
  update: 'Would update',
  unchanged: 'Unchanged',
  delete: 'Would delete',
  absent: 'Absent',
};

function partName(change: FileChange, files: HostFiles): string {
  return change.part === 'server' ? `: server "${SERVER_NAME}" in "${files.serversKey}"` : ': the usage rule';
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** Where the host's files are, from this machine: the environment's home and app folders, and the project. */
function places(project: string | undefined, scope: Scope): Places {
  const folder = path.resolve(project ?? process.cwd());
  if (scope === 'project' && !statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--project ${project}: no such folder`);
  return {
    platform: process.platform,
    home: homedir(),
    appData: process.env.APPDATA,
    xdgConfig: process.env.XDG_CONFIG_HOME,
    project: folder,
  };
}

/**
 * The bin this docs was started from, absolute: the path it was run by when that is this package's bin (a link
 * such as node_modules/.bin/docs keeps working after an upgrade), else the bin beside this file.
 */
function runningBin(): string {
  const dist = fileURLToPath(new URL('..', import.meta.url));
  const started = process.argv[1];
  try {
    if (started && path.dirname(realpathSync(started)) === realpathSync(dist)) return path.resolve(started);
  } catch {
    // Not a file: fall back to this package's own bin.
  }
  return path.join(dist, 'bin.cjs');
}

/** The store the server is to use: --home, else $DOCS_HOME, absolute; else none (the server's default). */
function storeHome(flag: string | undefined): string | undefined {
  const home = flag ?? process.env.DOCS_HOME;
  return home ? path.resolve(home) : undefined;
}
