import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { normaliseName } from './requirements.js';

/** A distribution installed in a Python environment, as its `.dist-info` folder describes it. */
export interface InstalledDistribution {
  /** The PEP 503 normalised name. */
  readonly name: string;
  readonly version: string;
  /** Its `.dist-info` folder. */
  readonly dir: string;
  /** The `site-packages` folder it is installed in (its files' paths in RECORD are relative to it). */
  readonly site: string;
  readonly summary?: string;
}

// Folders a project keeps its virtualenv in, in the order tried.
const VIRTUALENV_FOLDERS = ['.venv', 'venv', 'env', '.env'];

/**
 * The `site-packages` folders of a project's Python environment: a virtualenv (a `pyvenv.cfg`) in the project
 * folder itself, in `.venv`, `venv`, `env` or `.env`, or else the active one (`$VIRTUAL_ENV`); or only `venv` when
 * given (relative to the project). Found by their
 * layout (`lib/pythonX.Y/site-packages`, `Lib/site-packages` on Windows); no interpreter is run.
 */
export async function findSitePackages(
  project: string,
  env: NodeJS.ProcessEnv = process.env,
  venv?: string,
): Promise<string[]> {
  // A virtualenv named by the user is the one read, and only it.
  if (venv !== undefined) return sitePackagesOf(path.resolve(project, venv));
  const found: string[] = [];
  const candidates = ['', ...VIRTUALENV_FOLDERS].map((folder) => path.join(project, folder));
  for (const venv of candidates) found.push(...(await sitePackagesOf(venv)));
  if (found.length === 0 && env.VIRTUAL_ENV) found.push(...(await sitePackagesOf(path.resolve(env.VIRTUAL_ENV))));
  return [...new Set(found)];
}

async function sitePackagesOf(venv: string): Promise<string[]> {
  if (!(await stat(path.join(venv, 'pyvenv.cfg')).catch(() => undefined))) return [];
  const found: string[] = [];
  for (const lib of ['lib', 'lib64', 'Lib']) {
    const libDir = path.join(venv, lib);
    if (lib === 'Lib' && (await stat(path.join(libDir, 'site-packages')).catch(() => undefined))) {
      found.push(await realpath(path.join(libDir, 'site-packages')));
    }
    for (const entry of await readdir(libDir).catch(() => [] as string[])) {
      if (!/^python\d/.test(entry)) continue;
      const site = path.join(libDir, entry, 'site-packages');
      if (await stat(site).catch(() => undefined)) found.push(await realpath(site));
    }
  }
  return found;
}

/** The distributions installed in `site`, by normalised name, and the `.dist-info` folders that could not be read. */
export async function installedDistributions(
  site: string,
): Promise<{ distributions: Map<string, InstalledDistribution>; problems: { name: string; reason: string }[] }> {
  const distributions = new Map<string, InstalledDistribution>();
  const problems: { name: string; reason: string }[] = [];
  const entries: Dirent[] = await readdir(site, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory() || !entry.name.endsWith('.dist-info')) continue;
    const dir = path.join(site, entry.name);
    const metadata = await readFile(path.join(dir, 'METADATA'), 'utf8').catch(() => undefined);
    if (metadata === undefined) continue;
    const headers = parseMetadata(metadata).headers;
    const rawName = headers.get('name');
    const version = headers.get('version');
    if (!rawName || !version) {
      problems.push({ name: entry.name, reason: 'METADATA without a name or version' });
      continue;
    }
    const name = normaliseName(rawName);
    if (distributions.has(name)) continue;
    const summary = headers.get('summary');
    distributions.set(name, {
      name,
      version,
      dir,
      site,
      ...(summary && summary !== 'UNKNOWN' ? { summary } : {}),
    });
  }
  return { distributions, problems };
}

/**
 * A Python core-metadata file (`METADATA`, `PKG-INFO`): its headers (lower-case
 * names, first value wins) and its long description, from the body after the
 * headers or, in older files, the `Description:` header.
 */
export function parseMetadata(text: string): { headers: Map<string, string>; description: string } {
  const normalised = text.replace(/\r\n?/g, '\n');
  const blank = normalised.indexOf('\n\n');
  const head = blank === -1 ? normalised : normalised.slice(0, blank);
  const body = blank === -1 ? '' : normalised.slice(blank + 2);
  const headers = new Map<string, string>();
  let descriptionHeader = '';
  let current: string | undefined;
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && current !== undefined) {
      // Continuation lines; the old Description header indents them with 8 spaces or `|`.
      if (current === 'description') descriptionHeader += `\n${line.replace(/^(?: {8}|\t|\s*\|)/, '')}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (current === 'description') descriptionHeader = value;
    else if (!headers.has(current)) headers.set(current, value);
  }
  return { headers, description: (body.trim() !== '' ? body : descriptionHeader).trim() };
}

/**
 * The files a distribution installed, from its RECORD (CSV: path, hash, size), as paths relative to its
 * `site-packages`; those outside it (`../../bin/tool`) left out. Without a RECORD, none.
 */
export async function recordedFiles(distInfo: string): Promise<string[]> {
  const text = await readFile(path.join(distInfo, 'RECORD'), 'utf8').catch(() => '');
  const files: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const file = firstCsvField(line);
    if (file === '' || file.startsWith('/') || /^[A-Za-z]:/.test(file)) continue;
    const normalised = path.posix.normalize(file.replace(/\\/g, '/'));
    if (normalised.startsWith('../') || normalised === '..') continue;
    files.push(normalised);
  }
  return files;
}

/** The first field of a CSV line (RECORD quotes a path holding a comma or a quote, doubling its quotes). */
function firstCsvField(line: string): string {
  if (!line.startsWith('"')) {
    const comma = line.indexOf(',');
    return comma === -1 ? line : line.slice(0, comma);
  }
  let field = '';
  for (let i = 1; i < line.length; i++) {
    const char = line[i];
    if (char === '"') {
      if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else return field;
    } else field += char;
  }
  return field;
}
