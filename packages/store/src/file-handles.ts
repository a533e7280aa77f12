import { closeSync, openSync } from 'node:fs';

/**
 * Whether opening `file` fails because the process (EMFILE) or the system (ENFILE) has no file handle left: SQLite
 * says only "unable to open database file", the same as for a file it may not read, so the file is opened once more
 * here to learn why. A store that keeps many packages open closes some of them and tries again (PackageStore).
 */
export function outOfFileHandles(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EMFILE' || code === 'ENFILE';
  }
  closeSync(fd);
  return false;
}
