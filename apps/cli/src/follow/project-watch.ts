import { type FSWatcher, statSync, watch } from 'node:fs';
import { WATCHED_FILES, type WatchedFiles, watchedFolders, watchedState } from './watched-files.js';

/** Options of watchProject. */
export interface ProjectWatchOptions {
  /** Called when what the project installs changed (the watched files differ from the last look). */
  readonly onChange: () => void;
  /** Where to say, once, that the folders cannot be watched. */
  readonly log: (line: string) => void;
  /**
   * How long the watched folders must be quiet before they are looked at: an install writes for a while (each package
   * moved into `node_modules` is an event there), and its lockfiles come last. @default 1000
   */
  readonly quietMs?: number;
  /** @default WATCHED_FILES */
  readonly rows?: readonly WatchedFiles[];
  /** Never use fs.watch: look on each check() only (what a watcher that cannot watch falls back to). @default false */
  readonly statOnly?: boolean;
  /** Called once when the watch turns into checks (a folder could not be watched), after the line is logged. */
  readonly onFallback?: () => void;
  /**
   * How a folder is watched: fs.watch. Replaced in tests by one that fails as a machine out of inotify watches does,
   * which a test cannot make this machine be. @default fs.watch, not persistent
   */
  readonly watchFolder?: (folder: string, onEvent: () => void) => FSWatcher;
}

/** A project being watched. */
export interface ProjectWatch {
  /** `events` while fs.watch tells of changes; `stat` when a folder could not be watched and check() looks instead. */
  readonly mode: 'events' | 'stat';
  /**
   * Looks at the watched files now (a few stats) and calls onChange when they changed since the last look. In `stat`
   * mode the server calls it on each request; in either mode before it answers about a library it lacks.
   */
  check(): boolean;
  close(): void;
}

/**
 * Watches the folders that hold the files of WATCHED_FILES with fs.watch, each folder alone (never recursively: a
 * `node_modules` tree holds thousands of folders, and Node 20 watches a tree on Linux one folder at a time from
 * JavaScript). Idle, that is a few inotify watches and no timer: nothing runs until a file changes. A folder that
 * appears (`node_modules` after the first install, a new virtualenv) is watched from the next event in the project
 * folder; one that cannot be watched (too many watches, a file system without events) turns the watch into checks on
 * each request, said once.
 *
 * @example
 * const watching = watchProject('/repo', { onChange: () => follower.schedule(), log: console.error });
 */
export function watchProject(project: string, options: ProjectWatchOptions): ProjectWatch {
  const rows = options.rows ?? WATCHED_FILES;
  const watchFolder =
    options.watchFolder ?? ((folder: string, onEvent: () => void) => watch(folder, { persistent: false }, onEvent));
  const quietMs = options.quietMs ?? 1000;
  let last = watchedState(project, rows);
  let mode: 'events' | 'stat' = options.statOnly ? 'stat' : 'events';
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Each watched folder, with the inode it had: a folder removed and made again (`rm -rf node_modules`) is new. */
  const watchers = new Map<string, { watcher: FSWatcher; ino: number }>();

  const check = (): boolean => {
    if (closed) return false;
    const now = watchedState(project, rows);
    if (now === last) return false;
    last = now;
    options.onChange();
    return true;
  };
  const fallBack = (folder: string, error: unknown) => {
    if (mode === 'stat') return;
    mode = 'stat';
    for (const { watcher } of watchers.values()) watcher.close();
    watchers.clear();
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    options.log(`cannot watch ${folder} (${why}): checking the project's lockfiles on each request instead`);
    options.onFallback?.();
  };
  const settled = () => {
    timer = undefined;
    arm();
    check();
  };
  const arm = () => {
    if (mode !== 'events' || closed) return;
    const folders = watchedFolders(project, rows);
    for (const [folder, { watcher, ino }] of watchers) {
      if (!folders.includes(folder) || inode(folder) !== ino) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      const ino = inode(folder);
      if (ino === undefined) continue;
      try {
        const watcher = watchFolder(folder, () => {
          clearTimeout(timer);
          timer = setTimeout(settled, quietMs);
          timer.unref();
        });
        watcher.on('error', (error) => fallBack(folder, error));
        watchers.set(folder, { watcher, ino });
      } catch (error) {
        fallBack(folder, error);
        return;
      }
    }
  };
  arm();
  return {
    get mode() {
      return mode;
    },
    check,
    close() {
      closed = true;
      clearTimeout(timer);
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function inode(folder: string): number | undefined {
  try {
    const info = statSync(folder);
    return info.isDirectory() ? info.ino : undefined;
  } catch {
    return undefined;
  }
}
