import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * One kind of file that says what a project installs, and the folders that hold it. A server following its project
 * (follower.ts) watches these folders, not the trees below them, and looks again when one of these files changes: an
 * ecosystem is one row or two here (its manifests and lockfiles; the marker its installer writes last).
 */
export interface WatchedFiles {
  readonly ecosystem: 'npm' | 'python' | 'go' | 'rust';
  /** What the files are, for a reader of this table. */
  readonly what: string;
  /** The folders holding them, found from the project folder with a few stats; a folder not there is left out. */
  readonly folders: (project: string) => readonly string[];
  /** Whether an entry of such a folder is one of them. */
  readonly matches: (entry: string) => boolean;
}

const named =
  (...names: string[]) =>
  (entry: string) =>
    names.includes(entry);

/** The project folder itself. */
const root = (project: string) => [project];
/** `node_modules` in the project folder, where npm, pnpm and yarn write what they installed. */
const nodeModules = (project: string) => existing([path.join(project, 'node_modules')]);

/** The folders a Python virtualenv (`.venv`, `venv`, `env`, `.env` or the project itself) installs into. */
function sitePackages(project: string): string[] {
  const found: string[] = [];
  for (const candidate of ['', '.venv', 'venv', 'env', '.env']) {
    const venv = path.join(project, candidate);
    if (!isFile(path.join(venv, 'pyvenv.cfg'))) continue;
    for (const lib of ['lib', 'lib64']) {
      for (const entry of list(path.join(venv, lib))) {
        if (/^python\d/.test(entry)) found.push(path.join(venv, lib, entry, 'site-packages'));
      }
    }
    found.push(path.join(venv, 'Lib', 'site-packages'));
  }
  return existing(found);
}

/**
 * What is watched, ecosystem by ecosystem: the manifests and lockfiles `docs sync` reads, and what each installer
 * writes into the installed folder when it is done (npm's hidden lockfile, pnpm's `.modules.yaml`, yarn's state file,
 * a Python distribution's `.dist-info` folder).
 */
export const WATCHED_FILES: readonly WatchedFiles[] = [
  {
    ecosystem: 'npm',
    what: 'manifest and lockfiles',
    folders: root,
    matches: named(
      'package.json',
      'package-lock.json',
      'npm-shrinkwrap.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'yarn.lock',
      'bun.lock',
      'bun.lockb',
    ),
  },
  {
    ecosystem: 'npm',
    what: 'what npm, pnpm and yarn write once an install is done',
    folders: nodeModules,
    matches: named('.package-lock.json', '.modules.yaml', '.yarn-state.yml', '.yarn-integrity'),
  },
  {
    ecosystem: 'python',
    what: 'manifests and lockfiles',
    folders: root,
    matches: (entry) =>
      ['pyproject.toml', 'uv.lock', 'poetry.lock', 'pdm.lock', 'Pipfile.lock'].includes(entry) ||
      /^requirements.*\.txt$/.test(entry),
  },
  {
    ecosystem: 'python',
    what: "a virtualenv's installed distributions",
    folders: sitePackages,
    matches: (entry) => entry.endsWith('.dist-info'),
  },
  { ecosystem: 'go', what: 'module files', folders: root, matches: named('go.mod', 'go.sum', 'go.work') },
  { ecosystem: 'rust', what: 'manifest and lockfile', folders: root, matches: named('Cargo.toml', 'Cargo.lock') },
];

/**
 * What the watched files are now, as one string: each one's path, size, modification time and inode (a lockfile is
 * replaced by a rename, a new inode). Equal strings: nothing the project installs changed. A few stats and a listing
 * of each watched folder (no tree below it).
 */
export function watchedState(project: string, rows: readonly WatchedFiles[] = WATCHED_FILES): string {
  const lines: string[] = [];
  for (const row of rows) {
    for (const folder of row.folders(project)) {
      for (const entry of list(folder).filter(row.matches).sort()) {
        const info = statOf(path.join(folder, entry));
        if (info) lines.push(`${path.join(folder, entry)} ${info.size} ${info.mtimeMs} ${info.ino}`);
      }
    }
  }
  return lines.join('\n');
}

/** Every folder the rows watch, the project folder first (a `node_modules` or a virtualenv made later appears there). */
export function watchedFolders(project: string, rows: readonly WatchedFiles[] = WATCHED_FILES): string[] {
  return [...new Set([project, ...rows.flatMap((row) => row.folders(project))])];
}

function list(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function statOf(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  return statOf(file)?.isFile() === true;
}

function existing(folders: readonly string[]): string[] {
  return folders.filter((folder) => statOf(folder)?.isDirectory() === true);
}
