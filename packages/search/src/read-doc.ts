import { tokenBudget } from '@docs/rank';
import { formatPackageId, type InstalledPackage, loadTokenCounter, type PackageStore } from '@docs/store';
import { ANSWER_LIMITS, shortLabel } from './answer-limits.js';
import { SearchOptionError } from './errors.js';
import { answerFromInstalled } from './gone.js';
import { type LibraryScope, resolveLibrary } from './library-scope.js';

export interface ReadDocOptions {
  /** Token budget for the page; 0 means the whole page (from `offset`). @default 0 */
  readonly tokens?: number;
  /** Character offset to start at, from a previous response's `nextOffset`. @default 0 */
  readonly offset?: number;
  /** Version when `library` is a bare name. @default the highest installed */
  readonly version?: string;
  /** Only these libraries may be read (see LibraryScope); one outside it is refused, naming those served. */
  readonly scope?: LibraryScope;
}

/** A whole page, or one budgeted part of it. */
export interface ReadDocResponse {
  readonly status: 'ok' | 'no-packages' | 'unknown-library' | 'unknown-version' | 'unknown-path';
  readonly message: string;
  /** `name@version`, once resolved. */
  readonly library?: string;
  readonly path?: string;
  readonly title?: string;
  readonly content: string;
  readonly tokens: number;
  readonly offset: number;
  /** Where the next part starts; absent when this part reaches the end of the page. */
  readonly nextOffset?: number;
  /** Document paths close to the one asked for, when it is unknown. */
  readonly suggestions?: readonly string[];
  readonly installed?: readonly string[];
  /** The closest installed library, when the one asked for is unknown. */
  readonly suggestion?: string;
}

const EXTENSIONS = ['', '.md', '.mdx', '.markdown', '/index.md', '/index.mdx', '/README.md'];

/**
 * Reads one document of a package, looked up by its path inside the package
 * (never on disk, so no path can reach outside it). Paths match with or
 * without their extension and case-insensitively.
 *
 * @example
 * const page = await readDoc(store, 'vitest', 'guide/mocking.md', { tokens: 4000 });
 * if (page.nextOffset !== undefined) await readDoc(store, 'vitest', 'guide/mocking.md', { tokens: 4000, offset: page.nextOffset });
 */
export async function readDoc(
  store: PackageStore,
  library: string,
  path: string,
  options: ReadDocOptions = {},
): Promise<ReadDocResponse> {
  const budget = options.tokens ?? 0;
  const offset = options.offset ?? 0;
  if (!Number.isInteger(budget) || budget < 0)
    throw new SearchOptionError(`tokens must be a whole number ≥ 0, got ${budget}`);
  if (!Number.isInteger(offset) || offset < 0)
    throw new SearchOptionError(`offset must be a whole number ≥ 0, got ${offset}`);
  // A package another process removes mid-request is looked up again: the answer then says it is not installed.
  return answerFromInstalled(
    () => resolveLibrary(store, library, { version: options.version, scope: options.scope }),
    (found) => readFrom(store, found.value, path, budget, offset),
    (error) => ({
      status: error.code,
      message: error.message,
      content: '',
      tokens: 0,
      offset,
      installed: error.installed,
      ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    }),
  );
}

async function readFrom(
  store: PackageStore,
  pkg: InstalledPackage,
  path: string,
  budget: number,
  offset: number,
): Promise<ReadDocResponse> {
  const label = formatPackageId(pkg);
  const reader = store.reader(pkg);
  const wanted = path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/#.*$/, '');
  let doc = await reader.document(wanted);
  if (!doc) {
    const all = await reader.documents();
    const lower = wanted.toLowerCase().replace(/\/+$/, '');
    const match = all.find((d) => EXTENSIONS.some((ext) => d.path.toLowerCase() === lower + ext));
    if (match) doc = await reader.document(match.path);
    if (!doc) {
      const base =
        lower
          .split('/')
          .at(-1)
          ?.replace(/\.[a-z]+$/, '') ?? lower;
      const suggestions = all
        .filter((d) => d.path.toLowerCase().includes(base))
        .slice(0, 5)
        .map((d) => shortLabel(d.path));
      const hint = suggestions.length > 0 ? ` Close: ${suggestions.join(', ')}` : ' Search first to find a page path.';
      return {
        status: 'unknown-path',
        message: `${label} has no document "${path}".${hint}`,
        library: label,
        content: '',
        tokens: 0,
        offset,
        suggestions,
      };
    }
  }
  const rest = doc.content.slice(offset);
  const countTokens = await loadTokenCounter();
  // Under a budget, only what could fit is counted (a page may be 10 MB), and the part sent is bounded in bytes too.
  const part =
    budget === 0 ? { content: rest, tokens: countTokens(rest), truncated: false } : budgeted(rest, budget, countTokens);
  const content = part?.content ?? '';
  const consumed = offset + content.length;
  // Skip the blank lines after the cut so the next part starts on text.
  const next = part?.truncated
    ? consumed + (doc.content.slice(consumed).length - doc.content.slice(consumed).trimStart().length)
    : undefined;
  const more = next !== undefined && next < doc.content.length;
  return {
    status: 'ok',
    message: more ? `Part of ${doc.path}; continue with offset ${next}.` : `${doc.path} (${label})`,
    library: label,
    path: doc.path,
    title: shortLabel(doc.title),
    content,
    tokens: part?.tokens ?? 0,
    offset,
    ...(more ? { nextOffset: next } : {}),
  };
}

/**
 * The first part of `text` that fits `budget` tokens and `ANSWER_LIMITS.bytesPerToken × budget` bytes. Only a
 * prefix that could fit is counted: each character takes at least a byte, so one longer than the budget in bytes
 * cannot, and a long page is not counted whole for a small part of it.
 */
function budgeted(
  text: string,
  budget: number,
  countTokens: (text: string) => number,
): { content: string; tokens: number; truncated: boolean } | undefined {
  const { bytesPerToken } = ANSWER_LIMITS;
  const longest = bytesPerToken * budget;
  const head = text.length > longest ? text.slice(0, longest) : text;
  // Counted as over the budget when the text goes on past what could fit, so the head is cut, never kept whole.
  const tokens = head === text ? countTokens(head) : budget + 1;
  return tokenBudget([{ content: head, tokens }], { budget, countTokens, bytesPerToken }).items[0];
}
