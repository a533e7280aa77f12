import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Root ignores file permissions: tests of what a user may not read or write run their commands as the unprivileged
// `nobody` user when they run as root.

/** The unprivileged user's id (and group's), as most systems number `nobody`. */
export const NOBODY = 65_534;

const bin = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

/** Whether the tests run as root. */
export const isRoot: boolean = process.getuid?.() === 0;

/**
 * Whether the commands run as `nobody`: as root, and only where nobody can reach node and the built command (a
 * checkout in a 0700 folder cannot be).
 */
export const asNobody: boolean =
  isRoot &&
  spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(bin)})`], {
    uid: NOBODY,
    gid: NOBODY,
  }).status === 0;
