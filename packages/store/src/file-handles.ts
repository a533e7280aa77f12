import { closeSync, openSync } from 'node:fs';

/**
 * Why opening `file` for reading fails, when the reason is one the store acts on: the process (EMFILE) or the system
 * (ENFILE) has no file handle left — a store that keeps many packages open closes some of them and tries again — or
 * this process may not read it (its permissions, or the directory's). SQLite says only "unable to open database
 * file" whatever stops an open, so the file is opened once more here to learn why. Undefined: it opens, or fails
 * for another reason.
 */
export function whyOpenFails(file: string): 'out-of-file-handles' | 'not-permitted' | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EMFILE' || code === 'ENFILE') return 'out-of-file-handles';
    if (code === 'EACCES' || code === 'EPERM') return 'not-permitted';
    return undefined;
  }
  closeSync(fd);
  return undefined;
}
