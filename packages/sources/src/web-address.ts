import { createRequire } from 'node:module';
import type hostedGitInfo from 'hosted-git-info';

const load = createRequire(import.meta.url);

/** hosted-git-info 9 as it is (its @types stop at 3, before `browseFile`, the address of a file rather than a tree). */
type HostedRepository = NonNullable<ReturnType<typeof hostedGitInfo.fromUrl>> & {
  browseFile(path: string, options: { readonly committish: string }): string | undefined;
};

// What a git build records as its package's source (git.ts, repository-docs.ts):
// `<repository>#<commit>`, then ` path <folder>` when the docs sit in a folder of
// it, then anything after ` (` or `, ` (the tag, the npm package it documents).
const GIT_SOURCE = /^(\S+)#([0-9a-f]{7,40})(?: path (.*?))?(?: \(|, |$)/;

/**
 * The address of a page on the web, where the package's recorded source says
 * where it was built from: a commit of a repository on a host npm's
 * hosted-git-info knows (GitHub, GitLab, Bitbucket, sourcehut), so the page is
 * the file at that commit, never a branch that has moved on. `undefined` for
 * a folder, a website (its pages' addresses are not recorded), an unknown host
 * or a path that is not plainly inside the package.
 *
 * The source is a package's own text, so it is untrusted: the answer is an
 * https address on that host, built by hosted-git-info, with the path's
 * segments encoded.
 *
 * @example
 * pageWebAddress('https://github.com/colinhacks/zod#0a1b2c3 path packages/docs', 'api.md');
 * // → 'https://github.com/colinhacks/zod/blob/0a1b2c3/packages/docs/api.md'
 */
export function pageWebAddress(source: string, pagePath: string): string | undefined {
  const match = GIT_SOURCE.exec(source);
  if (!match) return undefined;
  const [, repository = '', commit = '', folder = ''] = match;
  const segments = [...folder.split('/'), ...pagePath.split('/')].filter((s) => s !== '');
  if (segments.length === 0 || segments.some((s) => s === '.' || s === '..')) return undefined;
  const hosted = (load('hosted-git-info') as typeof hostedGitInfo).fromUrl(repository) as HostedRepository | undefined;
  if (!hosted || hosted.type === 'gist') return undefined;
  const address = hosted.browseFile(segments.map(encodeURIComponent).join('/'), { committish: commit });
  return address?.startsWith('https://') ? address : undefined;
}
