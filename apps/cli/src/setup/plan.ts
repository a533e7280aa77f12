import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '@docs/store';
import { UsageError } from '../errors.js';
import type { HostFiles } from './hosts.js';
import { type ConfigChange, withoutServer, withServer } from './json-config.js';
import { removeFile } from './remove-file.js';
import { SERVER_NAME, type ServerEntry } from './server-entry.js';
import { withoutRule, withRule } from './usage-rule.js';

// Setup in two steps: every file is read and its new text worked out first, and only when all of them can be is
// anything written. A configuration docs refuses (not JSON, another server of its name) leaves every file as it was.

/** One file's part in a setup: its new text, and what that does to the file. */
export interface FileChange {
  readonly file: string;
  readonly part: 'server' | 'rule';
  readonly change: ConfigChange;
  /** The new text; undefined when the file is deleted or there is none. */
  readonly text: string | undefined;
}

export type SetupPlan =
  | { readonly ok: true; readonly changes: readonly FileChange[] }
  | { readonly ok: false; readonly file: string; readonly code: string; readonly error: string };

/** The changes that add the server `entry` and the usage rule to a host's files. */
export async function planSetup(files: HostFiles, entry: ServerEntry): Promise<SetupPlan> {
  const config = withServer(await readIfExists(files.config), files.serversKey, SERVER_NAME, entry);
  if (!config.ok) return { ...config, file: files.config };
  const changes: FileChange[] = [{ file: files.config, part: 'server', change: config.change, text: config.text }];
  if (files.rule) {
    const rule = withRule(await readIfExists(files.rule.file), files.rule);
    if (!rule.ok) return { ...rule, file: files.rule.file };
    changes.push({ file: files.rule.file, part: 'rule', change: rule.change, text: rule.text });
  }
  return { ok: true, changes };
}

/** The changes that take out of a host's files what {@link planSetup} put in. */
export async function planRemoval(files: HostFiles): Promise<SetupPlan> {
  const config = withoutServer(await readIfExists(files.config), files.serversKey, SERVER_NAME);
  if (!config.ok) return { ...config, file: files.config };
  const changes: FileChange[] = [{ file: files.config, part: 'server', change: config.change, text: config.text }];
  if (files.rule) {
    const rule = withoutRule(await readIfExists(files.rule.file), files.rule);
    if (!rule.ok) return { ...rule, file: files.rule.file };
    changes.push({ file: files.rule.file, part: 'rule', change: rule.change, text: rule.text });
  }
  return { ok: true, changes };
}

/** Writes the changes: each file replaced whole or deleted; the files left unchanged are not touched. */
export async function applyChanges(changes: readonly FileChange[], root: string): Promise<void> {
  for (const { file, change, text } of changes) {
    if (change === 'delete') await removeFile(file, root);
    else if ((change === 'create' || change === 'update') && text !== undefined) await writeFileAtomic(file, text);
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`could not read ${file}: ${(error as Error).message}`, { code: 'unreadable', cause: error });
  }
}
