import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { ChunkInput } from '@docs/store';
import { fitBreadcrumb } from '@docs/store/section-text';
import { foldSmallSections } from './fold.js';
import { formatOf, toMarkdown } from './formats/convert.js';
import { splitFrontMatter } from './front-matter.js';
import { indexText } from './identifiers.js';
import { parseStrippedMarkdown } from './markdown.js';
import { stripMdx } from './mdx.js';
import { countTokens } from './tokens.js';

/** How each file is cut into sections; the same for every file of a build. */
export interface FileOptions {
  readonly maxSectionTokens?: number;
  readonly minSectionTokens: number;
  readonly maxFileBytes: number;
}

/** One file, indexed: its page and its sections, or why it was skipped. */
export type ProcessedFile =
  | { readonly kind: 'skipped'; readonly reason: string; readonly bytes: number }
  | {
      readonly kind: 'document';
      readonly title: string;
      readonly content: string;
      readonly chunks: readonly ChunkInput[];
      /** Link targets as the page writes them; the build resolves them against the other pages. */
      readonly links: readonly string[];
      readonly bytes: number;
    };

/**
 * Everything a build does to one file that depends on that file alone:
 * read it, turn its format into markdown, cut it into sections, fold the
 * small ones, count tokens and make the index text. Pure apart from reading
 * the file, so it can run on any thread.
 */
export async function processFile(
  absolutePath: string,
  relativePath: string,
  options: FileOptions,
): Promise<ProcessedFile> {
  // Read synchronously, through one descriptor: a worker thread has nothing else to do meanwhile, and the promise
  // API's stat, open, stat, read and close each went through the thread pool and back, per file.
  const fd = openSync(absolutePath, 'r');
  let size: number;
  let raw: string;
  try {
    size = fstatSync(fd).size;
    if (size > options.maxFileBytes) {
      return { kind: 'skipped', reason: `larger than ${options.maxFileBytes} bytes (${size})`, bytes: 0 };
    }
    raw = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  // Other formats become markdown first, so every format gets the same sections, folding and index.
  const format = formatOf(relativePath) ?? 'markdown';
  const source = format === 'markdown' ? raw : toMarkdown(raw, format);
  // Split and stripped once: the sections and the page text both start from it.
  const { data, body } = splitFrontMatter(source);
  const stripped = stripMdx(body);
  const parsed = parseStrippedMarkdown(stripped, data, {
    path: relativePath,
    ...(options.maxSectionTokens === undefined ? {} : { maxSectionTokens: options.maxSectionTokens }),
  });
  const sections = foldSmallSections(parsed.sections, { minTokens: options.minSectionTokens, countTokens });
  return {
    kind: 'document',
    title: parsed.title,
    content: pageText(stripped),
    chunks: sections.map((s) => {
      // Headings as the package stores them (a line each), so the tokens count what an answer carries.
      const breadcrumb = fitBreadcrumb(s.breadcrumb);
      return {
        breadcrumb,
        level: s.level,
        content: s.content,
        tokens: s.tokens + headingTokens({ level: s.level, breadcrumb }),
        indexText: indexText(s.text),
      };
    }),
    links: parsed.links,
    bytes: size,
  };
}

/**
 * The tokens of a section's own heading, which every result of it carries beside its content: a section's
 * stored tokens count both, so a 200 KB heading is no "14 tokens" section. The preamble (level 0) has none.
 */
function headingTokens(section: { readonly level: number; readonly breadcrumb: readonly string[] }): number {
  const heading = section.breadcrumb.at(-1);
  return section.level === 0 || heading === undefined ? 0 : countTokens(heading);
}

/** The page as a reader sees it, from its text without front matter and MDX: no runs of blank lines. */
function pageText(stripped: string): string {
  return stripped.replace(/\n{3,}/g, '\n\n').trim();
}
