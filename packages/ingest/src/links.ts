import path from 'node:path';
import { DOC_EXTENSIONS } from '@docs/sources';

// Documentation sites link to pages by their source path (`../guide/cors.md`),
// by their rendered one (`cors.html`, `/docs/guide/cors/`) or by a route whose
// leading part is the site's, not the folder's (`/docs/kit-overview` for
// `pg/kit-overview.mdx`). So a link, its extension and index page written
// off, is matched by its endings, longest first: the first ending that any
// page has decides, and it must be one page's alone. The documentation extensions include the rendered `.html`.
const INDEX_PAGE = /(?:^|\/)(?:index|readme)$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A path as links name it: no extension, no trailing index page, `/`-separated segments. */
function pageKey(pagePath: string): string[] {
  let key = pagePath.replace(/\/+$/, '');
  const extension = path.posix.extname(key).toLowerCase();
  if (DOC_EXTENSIONS.includes(extension)) key = key.slice(0, -extension.length);
  key = key.replace(INDEX_PAGE, '');
  return key.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/**
 * Maps links, as written in a page, to the pages of the package they point at.
 * Links to other sites (any URL with a scheme), to a place on the same page
 * (`#usage`) and to paths no page of the package matches resolve to nothing.
 *
 * @param paths - Every page of the package, relative to the docs root, `/`-separated.
 * @returns For a page and its links, the other pages they point at, once each.
 *
 * @example
 * const resolve = createLinkResolver(['guide/cors.md', 'api/app.md']);
 * resolve('api/app.md', ['../guide/cors.md#options', '/docs/guide/cors/', 'https://example.com']); // ['guide/cors.md']
 */
export function createLinkResolver(paths: readonly string[]): (from: string, links: readonly string[]) => string[] {
  const byEnding = new Map<string, string[]>();
  for (const page of paths) {
    const segments = pageKey(page);
    // The root's index page has no segments; its ending is the empty path.
    for (let start = 0; start < Math.max(segments.length, 1); start++) {
      const ending = segments.slice(start).join('/');
      byEnding.set(ending, [...(byEnding.get(ending) ?? []), page]);
    }
  }
  const resolveOne = (from: string, link: string): string | undefined => {
    if (SCHEME.test(link) || link.startsWith('//')) return undefined;
    const target = link.split(/[?#]/)[0] ?? '';
    if (target === '') return undefined;
    let decoded = target;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      // A stray % is a character of the path, not an escape.
    }
    const joined = decoded.startsWith('/') ? decoded : path.posix.join(path.posix.dirname(from), decoded);
    const segments = pageKey(path.posix.normalize(joined));
    // A link to the docs root (`/`, `./`) has no segments and names the root's index page.
    for (let start = 0; start < Math.max(segments.length, 1); start++) {
      const pages = byEnding.get(segments.slice(start).join('/'));
      if (pages !== undefined) return pages.length === 1 ? pages[0] : undefined;
    }
    return undefined;
  };
  return (from, links) => {
    const targets = new Set<string>();
    for (const link of links) {
      const page = resolveOne(from, link);
      if (page !== undefined && page !== from) targets.add(page);
    }
    return [...targets];
  };
}
