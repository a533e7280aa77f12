import { closeSync, openSync } from 'node:fs';

// SQLite says only "unable to open database file" whatever stops an open, so the file is opened once more here to
// learn why.

/**
 * Whether opening `file` fails because the process (EMFILE) or the system (ENFILE) has no file handle left. A store
 * that keeps many packages open closes some of them and tries again (PackageStore).
 */
export function outOfFileHandles(file: string): boolean {
  const code = openFailure(file);
  return code === 'EMFILE' || code === 'ENFILE';
}

/** Whether opening `file` fails because this process may not read it (its permissions, or the directory's). */
export function notPermitted(file: string): boolean {
  const code = openFailure(file);
  return code === 'EACCES' || code === 'EPERM';
}

/** Why opening `file` for reading fails (its error code), or undefined when it opens. */
function openFailure(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unknown';
  }
  closeSync(fd);
  return undefined;
}
