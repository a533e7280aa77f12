import path from 'node:path';
import { UsageError } from '../errors.js';
import type { FollowEvent } from '../follow/follower.js';
import { startFollowing } from '../follow/start.js';
import type { GlobalOptions } from '../options.js';
import { groupDigits, terminalJson } from '../terminal.js';
import type { SyncOptions } from './sync.js';

/** The sync options a follower passes to each build; the others are refused with --watch (see checkWatchOptions). */
function followedArgs(options: SyncOptions): string[] {
  return [
    ...(options.dev ? ['--dev'] : []),
    ...(options.types === false ? ['--no-types'] : []),
    ...(options.save === undefined ? [] : ['--save', options.save]),
    ...(options.filter?.length ? ['--filter', ...options.filter] : []),
  ];
}

/**
 * Refuses what --watch cannot repeat on every install: a dry run builds nothing to follow; --rebuild, --from-repo and
 * --scope would rebuild, fetch every repository or ask the registry again at each change.
 */
export function checkWatchOptions(options: SyncOptions): void {
  const refused = [
    options.dryRun && '--dry-run',
    options.rebuild && '--rebuild',
    options.fromRepo && '--from-repo',
    options.scope !== undefined && '--scope',
    options.only !== undefined && '--only',
  ].find((flag) => typeof flag === 'string');
  if (refused) throw new UsageError(`--watch builds as a plain sync does, and cannot be used with ${refused}`);
}

/**
 * `docs sync --watch`, after the sync itself: follows the project as `docs serve` does (follow/follower.ts), building
 * what each install changes, one line (or one JSON object per line with --json) per library, until Ctrl-C.
 */
export async function watchSync(dir: string, options: SyncOptions, globals: GlobalOptions): Promise<void> {
  const project = path.resolve(dir);
  const say = (event: FollowEvent) => {
    if (globals.json) {
      // One object per line: a reader takes each as it comes.
      process.stdout.write(`${terminalJson(event).replace(/\n */g, '')}\n`);
    } else if (event.kind === 'built') {
      const { summary } = event;
      process.stdout.write(
        `Built ${event.library}: ${summary.documents} documents, ${summary.chunks} sections, ` +
          `${groupDigits(summary.tokens)} tokens, ${(summary.bytes / 1e6).toFixed(1)} MB (${event.seconds.toFixed(1)} s)\n`,
      );
    } else if (event.kind === 'skipped') {
      process.stdout.write(`Skipped ${event.library}: ${event.reason}\n`);
    }
  };
  const follower = startFollowing(project, globals, {
    log: (line) => process.stderr.write(`docs: ${line}\n`),
    onEvent: say,
    syncArgs: followedArgs(options),
  });
  if (!follower) return;
  if (!globals.json) process.stdout.write(`Watching ${project} for installs (Ctrl-C to stop)\n`);
  // Nothing else holds the process open: the watches and the follower's timers are not persistent (a server's
  // transport holds it), and a signal handler holds nothing.
  const open = setInterval(() => undefined, 2 ** 31 - 1);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(open);
  await follower.close();
}
