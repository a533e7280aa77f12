import path from 'node:path';
import { DOC_FORMATS, type DocFormat, htmlToMarkdown } from '@docs/sources/formats';
import { asciidocToMarkdown } from './asciidoc.js';
import { rstToMarkdown } from './rst.js';
import { textToMarkdown } from './text.js';

// The format table is @docs/sources' DOC_FORMATS, the one the walker finds files by (doc-formats.ts there says why
// it lives there); this file owns what each format is converted with.
export type { DocFormat };

// The llms.txt convention: markdown under a .txt name.
const MARKDOWN_TEXT_FILES = /^llms(?:-full)?\.txt$/i;

/**
 * The format of a document, from its file name (case-insensitive); undefined
 * for files that are not documentation.
 *
 * @example
 * formatOf('guide/intro.rst'); // → 'rst'
 */
export function formatOf(file: string): DocFormat | undefined {
  const name = path.basename(file);
  if (MARKDOWN_TEXT_FILES.test(name)) return 'markdown';
  return DOC_FORMATS.get(path.extname(name).toLowerCase());
}

/**
 * A document's text as markdown, so that every format goes through the same
 * markdown parser and gets the same sections, breadcrumbs and index: RST
 * underline levels and AsciiDoc `=` levels become `#` levels, HTML goes through
 * Readability and Turndown, plain text becomes one preamble section. Markdown
 * is returned unchanged.
 *
 * @example
 * toMarkdown('Intro\n=====\n\nText.\n', 'rst'); // → '# Intro\n\nText.\n'
 */
export function toMarkdown(source: string, format: DocFormat): string {
  switch (format) {
    case 'markdown':
      return source;
    case 'rst':
      return rstToMarkdown(source);
    case 'asciidoc':
      return asciidocToMarkdown(source);
    case 'html':
      return htmlToMarkdown(source).markdown;
    case 'text':
      return textToMarkdown(source);
  }
}
