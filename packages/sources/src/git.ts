import { execFile } from 'node:child_process';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareVersions } from '@docs/store';
import { SourceError } from './errors.js';
import type { ResolvedSource, SourceProgress } from './source.js';
import { tempDir } from './temp-dir.js';
import { findDocFiles } from './walk.js';

/** Options for {@link cloneGitSource}. */
export interface GitSourceOptions {
  /** The repository: a URL git understands, or the path of a local repository. */
  readonly url: string;
  /** The repository's name, used as the library name unless its package.json names a published package. */
  readonly name?: string;
  /** A tag, branch or commit (a full or abbreviated hash). @default the remote's default branch */
  readonly ref?: string;
  /** The documentation folder inside the repository. @default the first of docs/, documentation/, doc/, website/docs that has documentation, else the root */
  readonly path?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: SourceProgress) => void;
}

/** Folders where repositories keep their documentation, in order of preference. */
export const DOCS_FOLDERS = ['docs', 'documentation', 'doc', 'website/docs'];
// What a package version may be (see @docs/store's names).
const VERSION_LABEL = /^[a-z0-9][a-z0-9._+-]*$/i;
// Files every repository has; a root with little else has no documentation to speak of.
const BOILERPLATE_DOC =
  /^(?:changelog|changes|history|license|licence|contributing|code_of_conduct|security|support|authors|notice|news)(?:\.\w+)?$/i;

/**
 * Clones one ref of a repository (shallow, with the `git` binary) into a
 * temporary folder and resolves it to its documentation folder. The version
 * is the tag (`v1.2.3` → `1.2.3`) when the ref is one or a tag points at the
 * commit, else the short commit. Symlinks are checked out as plain files so a
 * repository cannot pull files from outside itself into a package. The clone
 * is removed by `dispose()`, and at once when anything fails or the signal
 * aborts.
 *
 * @example
 * const source = await cloneGitSource({ url: 'https://github.com/honojs/website', ref: 'main' });
 * try { await buildPackage({ root: source.root, ... }) } finally { await source.dispose() }
 */
export async function cloneGitSource(options: GitSourceOptions): Promise<ResolvedSource> {
  const started = performance.now();
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(options.url) && !/^[\w.-]+@[\w.-]+:/.test(options.url);
  const remote = local ? pathToFileURL(path.resolve(options.url)).href : options.url;
  const shown = local ? path.resolve(options.url) : options.url;
  const progress = (documents = 0) =>
    options.onProgress?.({
      phase: 'clone',
      documents,
      bytes: 0,
      elapsedMs: performance.now() - started,
      current: shown,
    });
  const { dir, dispose } = await tempDir('git');
  try {
    const run = (args: readonly string[]) => git(['-C', dir, ...args], options.signal);
    progress();
    await git(['init', '-q', dir], options.signal);
    // Links would let a repository pull any file of this machine into a shared package.
    await run(['config', 'core.symlinks', 'false']);
    await run(['remote', 'add', 'origin', remote]);
    const wanted = options.ref ?? 'HEAD';
    let commit: string;
    try {
      await run(['fetch', '-q', '--depth', '1', '--no-tags', 'origin', wanted]);
      commit = (await run(['rev-parse', 'FETCH_HEAD^{commit}'])).trim();
    } catch (error) {
      if (isAbort(error, options.signal) || !(options.ref && /^[0-9a-f]{4,39}$/i.test(options.ref))) {
        throw gitFailure(error, options.signal, `cannot fetch ${options.ref ? `"${options.ref}" from ` : ''}${shown}`);
      }
      // An abbreviated commit cannot be fetched by name: fetch the history and look it up.
      try {
        await run(['fetch', '-q', '--no-tags', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
        commit = (await run(['rev-parse', '--verify', `${options.ref}^{commit}`])).trim();
      } catch (inner) {
        throw gitFailure(inner, options.signal, `cannot find "${options.ref}" in ${shown}`);
      }
    }
    await run(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', commit]);
    const shortCommit = (await run(['rev-parse', '--short', commit])).trim();

    const tag = await tagFor(run, commit, options.ref);
    const version = tag && VERSION_LABEL.test(versionFromTag(tag)) ? versionFromTag(tag) : undefined;
    const { root, docsPath } = await docsFolder(dir, options.path, shown);
    const files = await findDocFiles(root);
    progress(files.length);

    const manifest = await readManifest(dir);
    const warnings: string[] = [];
    const substantial = files.filter((f) => !BOILERPLATE_DOC.test(path.basename(f.relativePath)));
    if (docsPath === '' && substantial.length <= 2) {
      warnings.push(littleDocumentation(options.url, options.name, substantial.length, local));
    }
    const name = manifest.name && !manifest.private ? manifest.name : options.name;
    return {
      kind: 'git',
      root,
      ...(name ? { name } : {}),
      version: version ?? shortCommit,
      ...(manifest.description ? { description: manifest.description } : {}),
      source: `${shown}#${commit}${docsPath === '' ? '' : ` path ${docsPath}`}`,
      commit,
      warnings,
      skipped: [],
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** `v1.2.3` → `1.2.3`, `pkg@1.2.3` → `1.2.3`, `release-2.0` → `2.0`; other tags as they are. */
export function versionFromTag(tag: string): string {
  return tag
    .replace(/^refs\/tags\//, '')
    .replace(/^.*@(?=[^@]+$)/, '')
    .replace(/^.*\//, '')
    .replace(/^(?:v|version-|release-|rel-)(?=\d)/i, '');
}

/** The tag naming `commit`: the ref itself when it is a tag, else the highest tag pointing at the commit. */
async function tagFor(
  run: (args: readonly string[]) => Promise<string>,
  commit: string,
  ref: string | undefined,
): Promise<string | undefined> {
  let listing: string;
  try {
    listing = await run(['ls-remote', '--tags', 'origin']);
  } catch {
    // Tags only name the version; a commit does too.
    return undefined;
  }
  const tags = parseTagListing(listing);
  if (ref !== undefined && tags.has(ref.replace(/^refs\/tags\//, ''))) return ref.replace(/^refs\/tags\//, '');
  const pointing = [...tags].filter(([, hash]) => hash === commit).map(([tag]) => tag);
  const valid = pointing.filter((tag) => VERSION_LABEL.test(versionFromTag(tag)));
  return valid.sort((a, b) => compareVersions(versionFromTag(b), versionFromTag(a)))[0];
}

/** `git ls-remote --tags` output as tag → the commit it names. */
export function parseTagListing(listing: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const [hash, refName] = line.trim().split(/\s+/);
    if (!hash || !refName?.startsWith('refs/tags/')) continue;
    // Annotated tags appear twice; the peeled line (`^{}`) carries the commit.
    const tag = refName.slice('refs/tags/'.length).replace(/\^\{\}$/, '');
    if (refName.endsWith('^{}') || !tags.has(tag)) tags.set(tag, hash);
  }
  return tags;
}

async function docsFolder(
  repository: string,
  requested: string | undefined,
  shown: string,
): Promise<{ root: string; docsPath: string }> {
  if (requested !== undefined) {
    const clean = requested.replace(/^\/+|\/+$/g, '');
    const root = path.resolve(repository, clean);
    const top = await realpath(repository);
    const real = await realpath(root).catch(() => undefined);
    const inside = real !== undefined && (real === top || real.startsWith(`${top}${path.sep}`));
    if (!inside || !(await stat(root)).isDirectory()) {
      throw new SourceError('not-found', `no folder "${requested}" in ${shown}`);
    }
    return { root, docsPath: clean };
  }
  for (const candidate of DOCS_FOLDERS) {
    const root = path.join(repository, ...candidate.split('/'));
    const info = await stat(root).catch(() => undefined);
    if (info?.isDirectory() && (await findDocFiles(root)).length > 0) return { root, docsPath: candidate };
  }
  return { root: repository, docsPath: '' };
}

async function readManifest(dir: string): Promise<{ name?: string; description?: string; private?: boolean }> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    return {
      ...(typeof manifest.name === 'string' ? { name: manifest.name } : {}),
      ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
      private: manifest.private === true,
    };
  } catch {
    return {};
  }
}

function littleDocumentation(url: string, name: string | undefined, files: number, local: boolean): string {
  const what =
    files === 0 ? 'no documentation' : files === 1 ? 'little documentation (one file)' : 'little documentation';
  const repo = name ?? 'repo';
  const hosted = /^(?:https?:\/\/[^/]+\/|[\w.-]+@[\w.-]+:)([^/]+)\//.exec(url);
  if (local || !hosted) {
    return `${url} has ${what} and no docs folder; projects like this often keep their documentation in a separate repository, such as ${repo}-docs, ${repo}.dev or a website repository`;
  }
  const owner = hosted[1] as string;
  const base = url.slice(0, url.indexOf(`${owner}/`) + owner.length + 1);
  return (
    `${url} has ${what} and no docs folder; projects like this often keep their documentation in a separate repository, ` +
    `such as ${owner}/${repo}-docs, ${owner}/${repo}.dev, ${owner}/docs or ${owner}/website: try docs add ${base}${repo}-docs`
  );
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

export function gitFailure(error: unknown, signal: AbortSignal | undefined, what: string): unknown {
  if (isAbort(error, signal) || error instanceof SourceError) return error;
  const stderr = String((error as { stderr?: unknown }).stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  const reason = (stderr.at(-1) ?? (error as Error).message).replace(/^fatal:\s*/, '');
  return new SourceError('git-failed', `${what}: ${reason}`, { cause: error });
}

/** Runs git without prompts (no terminal, no askpass, batch ssh); rejects with its stderr on failure. */
export function git(args: readonly string[], signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        ...(signal ? { signal } : {}),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GCM_INTERACTIVE: 'never',
          GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
          LC_ALL: 'C',
        },
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(new SourceError('git-failed', 'git is not installed (or not on PATH)', { cause: error }));
          return;
        }
        if (signal?.aborted) {
          reject(signal.reason ?? error);
          return;
        }
        reject(Object.assign(error, { stderr }));
      },
    );
  });
}
