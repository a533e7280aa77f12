import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';

/**
 * Where named local models live: an explicit `modelsDir`, then $DOCS_MODELS, then `models` in the
 * user's data directory (e.g. ~/.local/share/docs/models on Linux, beside the store's packages).
 */
export function resolveModelsDir(
  options: { modelsDir?: string | undefined; env?: NodeJS.ProcessEnv | undefined } = {},
): string {
  const env = options.env ?? process.env;
  // Absolute, so a folder found in it is never read as a hub name: `models/tiny-embedder` looks like `org/name`.
  if (options.modelsDir) return path.resolve(options.modelsDir);
  if (env.DOCS_MODELS) return path.resolve(env.DOCS_MODELS);
  return path.join(envPaths('docs', { suffix: '' }).data, 'models');
}

/** The Hugging Face hub cache, where the Python libraries and `huggingface-cli download` put models. */
export function resolveHubCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HUB_CACHE) return path.resolve(env.HF_HUB_CACHE);
  if (env.HF_HOME) return path.resolve(env.HF_HOME, 'hub');
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'huggingface', 'hub');
}

/** Where a model folder was found. */
export interface FoundModel {
  /** The model's name as written in ids: the last part of its hub name, or the folder's name. */
  readonly name: string;
  /** `org/name` when known (a hub cache entry, or a folder nested under its org). */
  readonly repo?: string | undefined;
  readonly path: string;
  readonly source: 'path' | 'models-dir' | 'hub-cache';
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDir(path.join(dir, e.name))))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The snapshot `refs/main` points at, else the most recently changed one. */
function snapshotOf(entry: string): string | undefined {
  const snapshots = path.join(entry, 'snapshots');
  try {
    const main = readFileSync(path.join(entry, 'refs', 'main'), 'utf8').trim();
    if (main && isDir(path.join(snapshots, main))) return path.join(snapshots, main);
  } catch {
    // no refs/main: fall back to the newest snapshot
  }
  const all = subdirs(snapshots).map((s) => path.join(snapshots, s));
  return all.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** The model's name for a folder: `models--org--name/snapshots/<rev>` → name, else the folder's own name. */
export function nameOfFolder(folder: string): { name: string; repo?: string } {
  const parts = path.resolve(folder).split(path.sep);
  const snapshots = parts.lastIndexOf('snapshots');
  const entry = snapshots > 0 ? parts[snapshots - 1] : undefined;
  const hub = entry ? /^models--(.+?)--(.+)$/.exec(entry) : null;
  if (hub?.[1] && hub[2]) return { name: hub[2], repo: `${hub[1]}/${hub[2]}` };
  return { name: parts[parts.length - 1] || folder };
}

/**
 * Looks a model name up: `<modelsDir>/<name>` (an `org/name` as nested folders), then for `org/name`
 * also `<modelsDir>/<name>`, for a bare name also `<modelsDir>/<any org>/<name>`; then the hub cache
 * (`models--org--name`, or `models--<any org>--name` for a bare name). The first folder found wins.
 */
export function findModel(name: string, modelsDir: string, hubCache: string): FoundModel | undefined {
  const parts = name.split('/').filter(Boolean);
  const base = parts[parts.length - 1] ?? name;
  const repo = parts.length > 1 ? parts.join('/') : undefined;
  const local = [path.join(modelsDir, ...parts)];
  if (repo) local.push(path.join(modelsDir, base));
  else for (const org of subdirs(modelsDir)) local.push(path.join(modelsDir, org, base));
  for (const candidate of local) {
    if (isDir(candidate) && existsSync(path.join(candidate, 'config.json'))) {
      return { name: base, repo, path: candidate, source: 'models-dir' };
    }
  }
  const entries = repo
    ? [`models--${parts.join('--')}`]
    : subdirs(hubCache).filter((e) => e.toLowerCase().endsWith(`--${base.toLowerCase()}`) && e.startsWith('models--'));
  for (const entry of entries) {
    const snapshot = snapshotOf(path.join(hubCache, entry));
    if (snapshot) return { ...nameOfFolder(snapshot), path: snapshot, source: 'hub-cache' };
  }
  return undefined;
}

/** Every model folder in the models directory (one or two levels deep) and the hub cache. */
export function allModels(modelsDir: string, hubCache: string): FoundModel[] {
  const found: FoundModel[] = [];
  for (const top of subdirs(modelsDir)) {
    const dir = path.join(modelsDir, top);
    if (existsSync(path.join(dir, 'config.json'))) {
      found.push({ name: top, path: dir, source: 'models-dir' });
      continue;
    }
    for (const inner of subdirs(dir)) {
      if (existsSync(path.join(dir, inner, 'config.json'))) {
        found.push({ name: inner, repo: `${top}/${inner}`, path: path.join(dir, inner), source: 'models-dir' });
      }
    }
  }
  for (const entry of subdirs(hubCache).filter((e) => e.startsWith('models--'))) {
    const snapshot = snapshotOf(path.join(hubCache, entry));
    if (snapshot) found.push({ ...nameOfFolder(snapshot), path: snapshot, source: 'hub-cache' });
  }
  return found;
}
