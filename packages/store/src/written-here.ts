import { statSync } from 'node:fs';
import path from 'node:path';

// Package files this process wrote with writePackage, by path, each with what
// identifies the file as it was when written. A build installs its own output
// a moment later; checking every row of a file this code has just written
// finds nothing, and cost most of the install. Any other file (received from
// elsewhere, written by another process, or changed since) is checked whole.
// A file whose rows came from an installed package and whose derived data this process made (a vector job's copy)
// is remembered as `derived`: its rows are checked, its search index is not made again.
const written = new Map<string, { identity: string; origin: Origin }>();

/** Where a package file's rows and derived data come from, as far as this process knows. */
export type Origin = 'written' | 'derived' | 'elsewhere';
// Builds whose output is never installed here (`docs build --output`) must not grow this without end.
const MAX_REMEMBERED = 256;

/** Device, inode, size and change times: another file, or this one written to since, differs in one of them. */
function identity(file: string): string | undefined {
  try {
    const info = statSync(file, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** Remembers a package file just written by this process (or whose derived data it made), at its final path. */
export function rememberWritten(file: string, origin: Exclude<Origin, 'elsewhere'> = 'written'): void {
  const key = path.resolve(file);
  const id = identity(key);
  written.delete(key);
  if (id === undefined) return;
  written.set(key, { identity: id, origin });
  for (const oldest of written.keys()) {
    if (written.size <= MAX_REMEMBERED) break;
    written.delete(oldest);
  }
}

/**
 * What this process knows of `file` as it is now: `written` or `derived` here and unchanged since, else `elsewhere`.
 * Answers once per write: the file is about to be installed (renamed), after which its path names something else.
 */
export function takeOrigin(file: string): Origin {
  const key = path.resolve(file);
  const expected = written.get(key);
  written.delete(key);
  return expected !== undefined && expected.identity === identity(key) ? expected.origin : 'elsewhere';
}
