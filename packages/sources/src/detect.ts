import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SourceError } from './errors.js';
import { nameFromHost } from './website.js';

/** What the user named as the documentation to add, once its kind is known. */
export type SourceSpec =
  /** A package file built elsewhere (`react@19.2.db`). */
  | { readonly kind: 'package-file'; readonly file: string }
  /**
   * A git repository: a URL on a known host, a URL ending in `.git`, `git@host:org/repo`, or a local
   * folder with a `.git`. A `/tree/<ref>/<path>` URL gives the ref and docs folder.
   */
  | {
      readonly kind: 'git';
      /** What git clones: the repository URL, or the local repository's absolute path. */
      readonly url: string;
      /** The repository's name, from its URL or folder. */
      readonly name: string;
      readonly ref?: string;
      readonly path?: string;
      readonly local: boolean;
    }
  /** Any other http(s) URL: a documentation website, named by its host when the host names a project. */
  | { readonly kind: 'website'; readonly url: string; readonly name?: string }
  /** A local folder of documentation files. */
  | { readonly kind: 'folder'; readonly folder: string };

/** Hosts whose URLs are repositories, not websites. */
const GIT_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org']);

/**
 * Works out what kind of source `input` names: a path ending in `.db` is a
 * package file; an http(s) URL on a known git host (GitHub, GitLab,
 * Bitbucket, Codeberg) or ending in `.git`, an `ssh://`/`git://` URL,
 * `git@host:org/repo`, or a local folder holding `.git` is a git repository;
 * any other http(s) URL is a website; another local folder is a folder.
 * Throws SourceError('not-found') for a path that does not exist and
 * SourceError('invalid-source') for anything else it cannot use.
 *
 * @example
 * await detectSource('https://github.com/vitest-dev/vitest/tree/v3.2.0/docs');
 * // → { kind: 'git', url: 'https://github.com/vitest-dev/vitest', name: 'vitest', ref: 'v3.2.0', path: 'docs', local: false }
 */
export async function detectSource(input: string): Promise<SourceSpec> {
  const spec = input.trim();
  if (spec === '')
    throw new SourceError('invalid-source', 'name a folder, a git repository, a URL or a .db package file');
  const scp = /^[\w.-]+@([\w.-]+):(?!\/\/)(.+)$/.exec(spec);
  if (scp) return { kind: 'git', url: spec, name: repositoryName(scp[2] as string, spec), local: false };
  if (/^(?:ssh|git|git\+ssh|git\+https?):\/\//i.test(spec)) {
    const url = spec.replace(/^git\+(?=https?:)/i, '');
    return { kind: 'git', url, name: repositoryName(safeUrl(url, spec).pathname, spec), local: false };
  }
  if (/^https?:\/\//i.test(spec)) {
    const url = safeUrl(spec, spec);
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    if (GIT_HOSTS.has(host)) return hostedRepository(url, spec);
    if (url.pathname.endsWith('.git')) {
      return { kind: 'git', url: spec, name: repositoryName(url.pathname, spec), local: false };
    }
    const name = nameFromHost(url.hostname);
    return { kind: 'website', url: url.href, ...(name ? { name } : {}) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new SourceError(
      'invalid-source',
      `unsupported URL scheme in ${spec}: use http(s), ssh or a git@host: address`,
    );
  }
  const absolute = path.resolve(spec);
  if (absolute.toLowerCase().endsWith('.db')) return { kind: 'package-file', file: absolute };
  const info = await stat(absolute).catch(() => undefined);
  if (!info)
    throw new SourceError(
      'not-found',
      `nothing at ${spec}: name a folder of documentation, a git repository, a URL or a .db package file`,
    );
  if (!info.isDirectory()) {
    throw new SourceError(
      'invalid-source',
      `${spec} is a file: name a folder of documentation, a git repository, a URL or a .db package file`,
    );
  }
  if (await stat(path.join(absolute, '.git')).catch(() => undefined)) {
    return { kind: 'git', url: absolute, name: path.basename(absolute), local: true };
  }
  return { kind: 'folder', folder: absolute };
}

function safeUrl(url: string, spec: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new SourceError('invalid-source', `not a valid URL: ${spec}`, { cause: error });
  }
}

/** `https://github.com/org/repo[.git][/tree/<ref>[/<path>]]` and the GitLab, Bitbucket and Codeberg forms. */
function hostedRepository(url: URL, spec: string): SourceSpec {
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  // GitLab (sub)groups: everything before `/-/` is the project.
  const dash = segments.indexOf('-');
  let project: string[];
  let rest: string[];
  if (dash >= 2) {
    project = segments.slice(0, dash);
    rest = segments.slice(dash + 1);
  } else {
    project = segments.slice(0, 2);
    rest = segments.slice(2);
  }
  if (project.length < 2) {
    throw new SourceError(
      'invalid-source',
      `${spec} does not name a repository (expected ${url.origin}/<owner>/<repo>)`,
    );
  }
  let ref: string | undefined;
  let docsPath: string[] = [];
  const [view, ...after] = rest;
  if (view === 'tree' || view === 'blob') {
    ref = after[0];
    docsPath = after.slice(1);
  } else if (view === 'src') {
    // Codeberg: /src/branch|tag|commit/<ref>/…; Bitbucket: /src/<ref>/…
    const typed = after[0] === 'branch' || after[0] === 'tag' || after[0] === 'commit';
    ref = typed ? after[1] : after[0];
    docsPath = after.slice(typed ? 2 : 1);
  }
  const name = repositoryName(project.join('/'), spec);
  return {
    kind: 'git',
    url: `${url.origin}/${project.join('/')}`,
    name,
    local: false,
    ...(ref ? { ref } : {}),
    ...(docsPath.length > 0 ? { path: docsPath.join('/') } : {}),
  };
}

function repositoryName(repositoryPath: string, spec: string): string {
  const last = repositoryPath
    .replace(/\/+$/, '')
    .split('/')
    .at(-1)
    ?.replace(/\.git$/, '');
  if (!last) throw new SourceError('invalid-source', `${spec} does not name a repository`);
  return last;
}
