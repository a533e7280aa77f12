import type { SourceSpec } from './detect.js';
import { SourceError } from './errors.js';
import { openFolder } from './folder.js';
import { cloneGitSource } from './git.js';
import type { ResolvedSource, SourceProgress } from './source.js';
import { fetchWebsite, type WebsiteOptions } from './website.js';

/** Options for {@link openSource}. */
export interface OpenSourceOptions {
  /** Git: the tag, branch or commit (overrides one in a `/tree/<ref>` URL). */
  readonly ref?: string;
  /** Git: the docs folder in the repository (overrides one in a `/tree/<ref>/<path>` URL). */
  readonly path?: string;
  /** Websites: limits on what is fetched. */
  readonly website?: Pick<
    WebsiteOptions,
    'timeoutMs' | 'maxDocumentBytes' | 'maxTotalBytes' | 'maxPages' | 'concurrency'
  >;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: SourceProgress) => void;
}

/**
 * Resolves a detected source (anything but a package file, which is installed
 * as it is) to a local folder of documentation: a folder as it is, a
 * repository cloned, a website fetched. Always pair with `dispose()`.
 *
 * @example
 * const source = await openSource(await detectSource(input), { signal });
 * try { await buildPackage({ root: source.root, ... }) } finally { await source.dispose() }
 */
export async function openSource(
  spec: Exclude<SourceSpec, { kind: 'package-file' }>,
  options: OpenSourceOptions = {},
): Promise<ResolvedSource> {
  const common = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  if (spec.kind !== 'git' && (options.ref !== undefined || options.path !== undefined)) {
    throw new SourceError(
      'invalid-source',
      `--ref and --path apply to git repositories, and ${describe(spec)} is not one`,
    );
  }
  switch (spec.kind) {
    case 'folder':
      return openFolder(spec.folder);
    case 'website':
      return fetchWebsite({ url: spec.url, ...options.website, ...common });
    case 'git': {
      const ref = options.ref ?? spec.ref;
      const path = options.path ?? spec.path;
      return cloneGitSource({
        url: spec.url,
        name: spec.name,
        ...(ref === undefined ? {} : { ref }),
        ...(path === undefined ? {} : { path }),
        ...common,
      });
    }
  }
}

function describe(spec: Exclude<SourceSpec, { kind: 'package-file' | 'git' }>): string {
  return spec.kind === 'folder' ? `the folder ${spec.folder}` : `the website ${spec.url}`;
}
