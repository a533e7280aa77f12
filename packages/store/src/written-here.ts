import { statSync } from 'node:fs';
import path from 'node:path';

// Package files this process wrote with writePackage, by path, each with what
// identifies the file as it was when written. A build installs its own output
// a moment later; checking every row of a file this code has just written
// finds nothing, and cost most of the install. Any other file (received from
// elsewhere, written by another process, or changed since) is checked whole.
const written = new Map<string, string>();
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

/** Remembers a package file just written by this process, at its final path. */
export function rememberWritten(file: string): void {
  const key = path.resolve(file);
  const id = identity(key);
  written.delete(key);
  if (id === undefined) return;
  written.set(key, id);
  for (const oldest of written.keys()) {
    if (written.size <= MAX_REMEMBERED) break;
    written.delete(oldest);
  }
}

/**
 * Whether `file` is, unchanged, a package file this process wrote. Answers
 * once per write: the file is about to be installed (renamed), after which
 * its path names something else.
 */
export function takeWrittenHere(file: string): boolean {
  const key = path.resolve(file);
  const expected = written.get(key);
  written.delete(key);
  return expected !== undefined && expected === identity(key);
}
