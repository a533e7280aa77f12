import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstalledDependency } from '../dependencies.js';
import { type StageOptions, stageDependencyDocs } from '../dependency-docs.js';
import type { ResolvedSource } from '../source.js';
import { tempDir } from '../temp-dir.js';
import { findDocFiles } from '../walk.js';
import { interpretersFor } from './api/parse-modules.js';
import { normaliseName } from './requirements.js';

/** How a Python distribution was staged with `--from-repo`: with its sdist's docs folder, or as without it and why. */
export interface SdistStage {
  readonly result: Awaited<ReturnType<typeof stageDependencyDocs>>;
  readonly from: 'repository' | 'package';
  /** The sdist's file name, when its docs were used. */
  readonly tag?: string;
  readonly fallback?: string;
}

/** Options for {@link stageFromSdist}. */
export interface SdistOptions extends StageOptions {
  readonly signal?: AbortSignal;
  /** The index look-up and the download together. @default 120 s */
  readonly timeoutMs?: number;
  /** The sdist's size, downloaded and unpacked. @default 64 MiB */
  readonly maxBytes?: number;
}

// Where an sdist keeps its Sphinx or MkDocs sources, tried in order.
const SDIST_DOCS = ['docs', 'doc/build', 'doc', 'documentation'];

/**
 * A Python distribution staged with the docs folder of its source distribution at exactly the installed version:
 * the sdist is found on the index pip is configured with (`pip config list`: `index-url` from the environment or a
 * config file, else pip's own default), through the index's JSON API (PEP 691), downloaded (its sha256 checked),
 * and unpacked, regular files only, within `maxBytes`. Nothing in it is built or run: `pip download` would prepare
 * the sdist's metadata by running its build backend (setup.py), which is the package's code. No index, no sdist of
 * that version, no docs folder in it, or a failure: staged as without it, and `fallback` says why.
 */
export async function stageFromSdist(dependency: InstalledDependency, options: SdistOptions = {}): Promise<SdistStage> {
  const asPackage = async (fallback: string): Promise<SdistStage> => ({
    result: await stageDependencyDocs(dependency, options),
    from: 'package',
    fallback,
  });
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const { dir, dispose } = await tempDir('sdist');
  try {
    let found: { url: string; filename: string; sha256?: string };
    try {
      const index = await pipIndexUrl(path.dirname(dependency.dir), signal);
      const file = await sdistOf(index, dependency, signal);
      if (typeof file === 'string') return await asPackage(file);
      found = file;
    } catch (error) {
      options.signal?.throwIfAborted();
      return await asPackage(`cannot find its sdist: ${reasonOf(error, timeout)}`);
    }
    const archive = path.join(dir, found.filename);
    const unpacked = path.join(dir, 'unpacked');
    try {
      await download(found, archive, maxBytes, signal);
      await mkdir(unpacked);
      await unpack(archive, unpacked, maxBytes);
    } catch (error) {
      options.signal?.throwIfAborted();
      return await asPackage(`cannot fetch ${found.filename}: ${reasonOf(error, timeout)}`);
    }
    const docs = await docsFolder(unpacked);
    if (docs === undefined) return await asPackage(`no docs folder in ${found.filename}`);
    return { ...(await withSdistDocs(dependency, options, found.filename, docs)), tag: found.filename };
  } finally {
    await dispose();
  }
}

// pip's answer for each environment, asked once per process (two interpreter starts per distribution otherwise).
const indexUrls = new Map<string, Promise<string>>();

/** The index pip would use: `index-url` from the environment, the site, user or global config, else pip's default. */
function pipIndexUrl(site: string, signal: AbortSignal): Promise<string> {
  const key = `${site}\0${process.env.PIP_INDEX_URL ?? ''}`;
  let found = indexUrls.get(key);
  if (found === undefined) {
    found = askPipIndexUrl(site, signal);
    // A failure is not kept: the next distribution asks again.
    found.catch(() => indexUrls.delete(key));
    indexUrls.set(key, found);
  }
  return found;
}

async function askPipIndexUrl(site: string, signal: AbortSignal): Promise<string> {
  let lastError: unknown;
  for (const python of await interpretersFor(site)) {
    try {
      const listed = await run(python, ['-I', '-m', 'pip', 'config', 'list'], signal);
      const values = new Map<string, string>();
      for (const line of listed.split('\n')) {
        const match = /^([^.]*)\.index-url='(.*)'$/.exec(line.trim());
        if (match?.[2]) values.set(match[1] ?? '', match[2]);
      }
      const configured = values.get(':env:') ?? values.get('site') ?? values.get('user') ?? values.get('global');
      if (configured) return configured;
      // Not configured: pip's own default index, asked of pip rather than written here.
      const fallback = await run(
        python,
        ['-I', '-c', 'from pip._internal.models.index import PyPI; print(PyPI.simple_url)'],
        signal,
      );
      return fallback.trim();
    } catch (error) {
      lastError = error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') break;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('no Python interpreter with pip');
}

/** The sdist of the installed version on the index's JSON page for the project, or why there is none. */
async function sdistOf(
  index: string,
  dependency: InstalledDependency,
  signal: AbortSignal,
): Promise<{ url: string; filename: string; sha256?: string } | string> {
  const page = new URL(`${dependency.name}/`, index.endsWith('/') ? index : `${index}/`);
  const response = await fetch(page, { headers: { Accept: 'application/vnd.pypi.simple.v1+json' }, signal });
  if (!response.ok) return `its index page answered ${response.status}`;
  if (!(response.headers.get('content-type') ?? '').includes('json')) {
    return 'its index does not answer with the JSON simple API (PEP 691)';
  }
  const body = (await response.json()) as { files?: { filename?: unknown; url?: unknown; hashes?: unknown }[] };
  for (const file of body.files ?? []) {
    if (typeof file.filename !== 'string' || typeof file.url !== 'string') continue;
    const match = /^(.+)-([^-]+)\.tar\.gz$/.exec(file.filename);
    if (!match?.[1] || normaliseName(match[1]) !== dependency.name || match[2] !== dependency.version) continue;
    const hashes = (typeof file.hashes === 'object' && file.hashes !== null ? file.hashes : {}) as Record<
      string,
      unknown
    >;
    return {
      url: new URL(file.url, page).href,
      filename: path.basename(file.filename),
      ...(typeof hashes.sha256 === 'string' ? { sha256: hashes.sha256 } : {}),
    };
  }
  return `no sdist (.tar.gz) of ${dependency.version} on its index`;
}

async function download(
  found: { url: string; sha256?: string },
  target: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(found.url, { signal });
  if (!response.ok || !response.body) throw new Error(`answered ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  const data = Buffer.concat(chunks);
  if (found.sha256 && createHash('sha256').update(data).digest('hex') !== found.sha256.toLowerCase()) {
    throw new Error('its sha256 does not match the index');
  }
  await writeFile(target, data);
}

/** Unpacks regular files only (no links, devices or paths out of `folder`), the sdist's top folder stripped. */
async function unpack(archive: string, folder: string, maxBytes: number): Promise<void> {
  const tar = await import('tar');
  let unpacked = 0;
  await tar.x({
    file: archive,
    cwd: folder,
    strip: 1,
    noChmod: true,
    noMtime: true,
    filter: (_, entry) => {
      unpacked += 'size' in entry ? entry.size : 0;
      if (unpacked > maxBytes) throw new Error(`unpacks to more than ${maxBytes} bytes`);
      return 'type' in entry && entry.type === 'File';
    },
  });
}

async function docsFolder(root: string): Promise<{ root: string; docsPath: string } | undefined> {
  const top = await realpath(root);
  for (const candidate of SDIST_DOCS) {
    const real = await realpath(path.join(root, ...candidate.split('/'))).catch(() => undefined);
    if (real === undefined || !real.startsWith(`${top}${path.sep}`) || !(await stat(real)).isDirectory()) continue;
    if ((await findDocFiles(real)).length > 0) return { root: real, docsPath: candidate };
  }
  return undefined;
}

/** The distribution staged as usual, with the sdist's docs folder added under `docs/`. */
async function withSdistDocs(
  dependency: InstalledDependency,
  options: StageOptions,
  filename: string,
  found: { root: string; docsPath: string },
): Promise<SdistStage> {
  const staged = await stageDependencyDocs(dependency, options);
  const base: ResolvedSource | undefined = staged.ok ? staged.value : undefined;
  const { dir, dispose } = base ? { dir: base.root, dispose: base.dispose } : await tempDir('dep');
  try {
    for (const file of await findDocFiles(found.root)) {
      const target = path.join(dir, 'docs', ...file.relativePath.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file.absolutePath, target);
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  const value: ResolvedSource = {
    kind: 'dependency',
    root: dir,
    name: dependency.name,
    version: dependency.version,
    ...(dependency.description ? { description: dependency.description } : {}),
    // Not `pypi:name@version` first: a later --from-repo tells a package built from the installed files by that.
    source: `pypi-sdist:${filename} path ${found.docsPath}, ${base?.source ?? `pypi:${dependency.name}@${dependency.version}`}`,
    warnings: base?.warnings ?? [],
    skipped: [],
    dispose,
  };
  return { result: { ok: true, value }, from: 'repository' };
}

function run(file: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { signal, encoding: 'utf8', maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(Object.assign(new Error(stderr.trim().split('\n').pop() || error.message), { code: error.code }));
      else resolve(stdout);
    });
  });
}

function reasonOf(error: unknown, timeout: AbortSignal): string {
  if (timeout.aborted) return 'timed out';
  return (error as Error).message ?? String(error);
}
