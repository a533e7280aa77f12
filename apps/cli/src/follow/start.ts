import path from 'node:path';
import { resolveHome } from '@docs/store';
import type { GlobalOptions } from '../options.js';
import { type FollowerOptions, ProjectFollower } from './follower.js';
import type { DocsCommand } from './sync-child.js';

/**
 * How this process runs docs again: the same Node and the same bin (`dist/bin.cjs`, which loads the bundle), never a
 * `docs` found on the PATH, which may be another install.
 */
export function thisDocs(): DocsCommand {
  const bin = process.argv[1];
  if (bin === undefined) throw new Error('docs was started without a script path (process.argv[1])');
  return { command: process.execPath, args: [bin] };
}

/**
 * A follower of `project` building into the store the command uses, started; undefined (said why) when the store came
 * with the project's config: such a store is shared, validated before use, and not docs' to write to on its own.
 */
export function startFollowing(
  project: string,
  globals: GlobalOptions,
  options: Pick<FollowerOptions, 'log' | 'onEvent' | 'syncArgs'>,
): ProjectFollower | undefined {
  if (globals.homeFromProject) {
    options.log("not following the project's installs: its store comes with its config (docs sync builds into it)");
    return undefined;
  }
  const follower = new ProjectFollower({
    ...options,
    project: path.resolve(project),
    home: resolveHome({ home: globals.home }),
    docs: thisDocs(),
  });
  follower.start();
  return follower;
}
