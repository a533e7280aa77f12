import { createRequire } from 'node:module';
import path from 'node:path';
import type { MarkdownIt, default as MarkdownItClass, Token } from 'markdown-it';
import { type CodeFence, isFenceClose, matchFenceOpen } from './fence.js';
import { splitFrontMatter } from './front-matter.js';
import { withoutHeadingAttributes } from './heading-attributes.js';
import { stripMdx } from './mdx.js';
import { isBlank, joinTexts, sliceContent } from './section-content.js';
import { type Block, sectionSplitter } from './split-section.js';
import { countTokens as countO200kTokens } from './tokens.js';

/** One retrievable unit of a document: the text under an h1–h3 heading (or the preamble before the first). */
export interface Section {
  /**
   * Heading texts from the top-level heading down to this section's own
   * heading (h1–h3 only), as plain text: inline markdown removed, `{#anchor}`
   * suffixes and closing `#`s dropped. `[]` for the preamble before the first heading.
   */
  readonly breadcrumb: readonly string[];
  /** 0 for the preamble, else the heading level 1–3. */
  readonly level: number;
  /**
   * The section's markdown source without its own heading line, MDX stripped,
   * surrounding blank lines removed. h4–h6 sub-headings and code fences stay
   * inside. This is what an agent reads.
   */
  readonly content: string;
  /**
   * Plain text to index: `content` without markdown syntax (link and image
   * URLs and HTML tags dropped; link text, image alt text, code spans and
   * fenced code kept), whitespace collapsed to single spaces.
   */
  readonly text: string;
  /** Token count of `content` (the configured counter, o200k_base by default). */
  readonly tokens: number;
}

/** A parsed markdown / MDX document. */
export interface ParsedDocument {
  readonly title: string;
  readonly sections: readonly Section[];
  /** The targets of the page's markdown links, as written (`../api.md#options`, `/guide/`, `https://…`), once each. */
  readonly links: readonly string[];
}

/** Options for {@link parseMarkdown}. */
export interface ParseOptions {
  /** The document's path (relative or absolute); used for the fallback title, e.g. "getting-started". */
  readonly path: string;
  /**
   * Sections longer than this are split at top-level block boundaries
   * (paragraph, list item, table, fenced code, blockquote). A fenced code
   * block, a table and a list item are never split; a single block larger than
   * the limit stays whole. Each piece keeps the section's breadcrumb and level.
   * @default 800
   */
  readonly maxSectionTokens?: number;
  /**
   * Sources longer than this many characters are cut, before parsing, at a
   * heading line (failing that a blank line) outside code fences, and the
   * pieces parsed in turn with the heading stack carried over, so memory stays
   * bounded on huge files.
   * @default 1_000_000
   */
  readonly maxPieceChars?: number;
  /** Token counter used for `Section.tokens` and splitting. @default countTokens from tokens.ts (o200k_base) */
  readonly countTokens?: (text: string) => number;
}

// One shared instance: construction compiles rule chains and is far costlier
// than a parse. `html: true` so leftover HTML becomes html_block/html_inline
// tokens that the text extraction can drop, instead of literal `<div>` text.
// The default preset keeps GFM tables and strikethrough; linkify and
// typographer stay off since they only change rendering, not structure.
// Made on first use (markdown-it's CommonJS build, so parsing stays synchronous): a build's main thread, whose
// workers parse, and a process that only searches never load it.
const load = createRequire(import.meta.url);
let parser: MarkdownIt | undefined;
function markdownParser(): MarkdownIt {
  if (parser !== undefined) return parser;
  const Parser = load('markdown-it') as typeof MarkdownItClass;
  const markdown = new Parser('default', { html: true, linkify: false, typographer: false });
  // Link URLs are dropped from the text and never rendered, so the per-link URL
  // parsing, punycode and percent-encoding work is wasted (~5% of parse time).
  markdown.normalizeLink = (url) => url;
  markdown.normalizeLinkText = (text) => text;
  markdown.validateLink = () => true;
  parser = markdown;
  return markdown;
}

const DEFAULT_MAX_SECTION_TOKENS = 800;
const DEFAULT_MAX_PIECE_CHARS = 1_000_000;
const HTML_TAG = /<[^>]*>/g;
const WHITESPACE = /\s+/g;
const ATX_HEADING_LINE = /^#{1,6}(?:[ \t]|$)/;
const REFERENCE_DEFINITION = /^ {0,3}\[((?:[^\]\\]|\\.){1,999})\]:[ \t]*(\S+)/;
// An unindented line that cannot continue a list or blockquote.
const PARAGRAPH_START = /^(?![-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>)[^\s]/;

interface SectionDraft {
  readonly breadcrumb: readonly string[];
  readonly level: number;
  readonly blocks: Block[];
}

/**
 * Parses a markdown or MDX document into a title and sections.
 *
 * - Title: front-matter `title` (a non-empty string) if present, else the
 *   first h1's text, else a title from the file name.
 * - Sections start at h1, h2 and h3 headings (ATX or setext) at the top level
 *   of the document; h4–h6 stay in their parent's content. Text before the
 *   first heading is the preamble (level 0, breadcrumb `[]`).
 * - MDX syntax is stripped first (see {@link stripMdx}); headings inside fenced
 *   code are never headings.
 * - Sections with no content or no indexable text are dropped, as are exact
 *   duplicates (same breadcrumb and content) within the document.
 * - Sections over `maxSectionTokens` are split at block boundaries.
 */
export function parseMarkdown(source: string, options: ParseOptions): ParsedDocument {
  const { data, body } = splitFrontMatter(source);
  return parseStrippedMarkdown(stripMdx(body), data, options);
}

/**
 * {@link parseMarkdown} of a source whose front matter (`data`) is already
 * split off and whose MDX is already stripped: a build needs both for the page
 * text too, and doing them once saves a YAML parse and an MDX pass per file.
 */
export function parseStrippedMarkdown(
  stripped: string,
  data: Readonly<Record<string, unknown>>,
  options: ParseOptions,
): ParsedDocument {
  const maxTokens = options.maxSectionTokens ?? DEFAULT_MAX_SECTION_TOKENS;
  const maxPieceChars = options.maxPieceChars ?? DEFAULT_MAX_PIECE_CHARS;
  const count = options.countTokens ?? countO200kTokens;

  const lines = stripped.split('\n');

  let current: SectionDraft = { breadcrumb: [], level: 0, blocks: [] };
  const drafts: SectionDraft[] = [current];
  const headings: { level: number; text: string }[] = [];
  let firstH1: string | undefined;
  const pieces = pieceRanges(lines, stripped.length, maxPieceChars);
  // Shared across pieces so that reference-style links resolve in every piece,
  // wherever their definition is (one piece cannot see another's).
  const env = pieces.length > 1 ? { references: collectReferences(lines) } : {};

  const links = new Set<string>();
  for (const [from, to] of pieces) {
    const pieceSource = from === 0 && to === lines.length ? stripped : lines.slice(from, to).join('\n');
    const tokens = markdownParser().parse(pieceSource, env);
    collectLinks(tokens, links);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      const close = token.nesting === 1 ? findClose(tokens, i) : i;
      const map = token.map;
      if (map === null) {
        i = close;
        continue;
      }
      const level = token.type === 'heading_open' ? headingLevel(token.tag) : 0;
      if (level >= 1 && level <= 3) {
        // A heading of punctuation alone (`## ---`, used as a divider) names nothing.
        const written = headingText(tokens[i + 1]);
        const text = /[\p{L}\p{N}]/u.test(written) ? written : '';
        if (level === 1 && firstH1 === undefined && text !== '') firstH1 = text;
        while (headings.length > 0 && (headings[headings.length - 1] as { level: number }).level >= level) {
          headings.pop();
        }
        headings.push({ level, text });
        // An empty heading (`##` alone, or a divider) still ends the section
        // above, but has no words to contribute to the breadcrumb.
        const breadcrumb = headings.filter((heading) => heading.text !== '').map((heading) => heading.text);
        current = { breadcrumb, level, blocks: [] };
        drafts.push(current);
      } else {
        current.blocks.push(toBlock(tokens, i, close, from));
      }
      i = close;
    }
  }

  const sections: Section[] = [];
  // Contents seen per breadcrumb: duplicates can only share a breadcrumb, and
  // grouping by it avoids hashing every section's whole content.
  const seen = new Map<string, string[]>();
  const split = sectionSplitter(lines, maxTokens, count);
  const emit = (draft: SectionDraft, content: string, text: string, tokens: number): void => {
    const key = draft.breadcrumb.join('\u0000');
    const contents = seen.get(key);
    if (contents === undefined) seen.set(key, [content]);
    else if (contents.includes(content)) return;
    else contents.push(content);
    sections.push({ breadcrumb: draft.breadcrumb, level: draft.level, content, text, tokens });
  };

  for (const draft of drafts) {
    const first = draft.blocks[0];
    const last = draft.blocks[draft.blocks.length - 1];
    if (first === undefined || last === undefined) continue;
    const text = joinTexts(draft.blocks);
    const content = sliceContent(lines, first.start, last.end);
    // A section of only a rule, an empty fence or an image without alt text
    // has nothing to find or read.
    if (content === '' || text === '') continue;
    for (const piece of split(draft.blocks, content, text)) {
      if (piece.text !== '') emit(draft, piece.content, piece.text, piece.tokens);
    }
  }

  const frontMatterTitle = typeof data.title === 'string' ? data.title.trim() : '';
  const title = frontMatterTitle !== '' ? frontMatterTitle : (firstH1 ?? titleFromPath(options.path));
  return { title, sections, links: [...links] };
}

/** Adds the href of every markdown link among the tokens (inline and reference-style alike). */
function collectLinks(tokens: readonly Token[], links: Set<string>): void {
  for (const token of tokens) {
    if (token.type !== 'inline' || token.children === null) continue;
    for (const child of token.children) {
      const href = child.type === 'link_open' ? child.attrGet('href') : null;
      if (typeof href === 'string' && href !== '') links.add(href);
    }
  }
}

function headingLevel(tag: string): number {
  return tag.length === 2 && tag[0] === 'h' ? Number(tag[1]) : 0;
}

/** Index of the token closing the block opened at `open` (same level, nesting -1). */
function findClose(tokens: readonly Token[], open: number): number {
  const level = (tokens[open] as Token).level;
  for (let i = open + 1; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.level === level && token.nesting === -1) return i;
  }
  return tokens.length - 1;
}

function toBlock(tokens: readonly Token[], open: number, close: number, lineOffset: number): Block {
  const openToken = tokens[open] as Token;
  const [start, end] = openToken.map as [number, number];
  if (openToken.type === 'bullet_list_open' || openToken.type === 'ordered_list_open') {
    const items: Block[] = [];
    for (let i = open + 1; i < close; i++) {
      const token = tokens[i] as Token;
      if (token.type === 'list_item_open' && token.map !== null) {
        const itemClose = findClose(tokens, i);
        items.push({
          start: token.map[0] + lineOffset,
          end: token.map[1] + lineOffset,
          text: plainText(tokens, i + 1, itemClose),
        });
        i = itemClose;
      }
    }
    return { start: start + lineOffset, end: end + lineOffset, text: joinTexts(items), items };
  }
  return { start: start + lineOffset, end: end + lineOffset, text: plainText(tokens, open, close + 1) };
}

/** Plain text of tokens[from, to): inline text, code and code-fence content; HTML tags and URLs dropped. */
function plainText(tokens: readonly Token[], from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) {
    const token = tokens[i] as Token;
    let part = '';
    if (token.type === 'inline') part = inlineText(token.children);
    else if (token.type === 'fence' || token.type === 'code_block') part = token.content;
    else if (token.type === 'html_block') part = token.content.replace(HTML_TAG, ' ');
    if (part !== '') text = text === '' ? part : `${text} ${part}`;
  }
  return text.replace(WHITESPACE, ' ').trim();
}

function inlineText(children: readonly Token[] | null, images = true): string {
  if (children === null) return '';
  let text = '';
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
        text += child.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        break;
      case 'image':
        // The alt text is what the image says in words; the URL is noise.
        if (images) text += inlineText(child.children);
        break;
      default:
        // link_open/close, emphasis marks, html_inline: markup only.
        break;
    }
  }
  return text;
}

/**
 * A heading's words: its text and code, with the attribute block it may end with removed (a setext heading keeps
 * one that stripMdx, which sees lines, cannot tell from prose). An image's alt text counts only in a heading with no
 * other words: `# uuid [![CI](…)](…) [![Browser](…)](…)` is titled `uuid`, not `uuid CI Browser`, where a heading that
 * is only a logo (`# ![Fastify](logo.png)`) is still named by it.
 */
function headingText(inline: Token | undefined): string {
  if (inline === undefined || inline.type !== 'inline') return '';
  const children = inline.children ?? [];
  const last = children.at(-1);
  // Only trailing text is stripped: `{#id}` inside a code span is an example, not an attribute.
  const tidy = (text: string) =>
    (last?.type === 'text' ? withoutHeadingAttributes(text) : text).replace(WHITESPACE, ' ').trim();
  const words = tidy(inlineText(children, false));
  return /[\p{L}\p{N}]/u.test(words) ? words : tidy(inlineText(children, true));
}

/**
 * Line ranges [from, to) to parse separately so that no piece is much longer
 * than `maxChars`. Cuts go, in order of preference, before an ATX heading at
 * column 0 outside code fences (parsing stays exact there), at a blank line
 * followed by an unindented paragraph line (which ends any list, blockquote or
 * indented code, so parsing stays exact too), at any blank line outside
 * fences, and failing all that at the line that overflows.
 */
function pieceRanges(lines: readonly string[], totalChars: number, maxChars: number): [number, number][] {
  if (totalChars <= maxChars) return [[0, lines.length]];
  const ranges: [number, number][] = [];
  let pieceStart = 0;
  let pieceChars = 0;
  let lastHeading = -1;
  let lastParagraphBreak = -1;
  let lastBlank = -1;
  let fence: CodeFence | null = null;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l] as string;
    const lineChars = line.length + 1;
    if (pieceChars + lineChars > maxChars && l > pieceStart) {
      let cut = l;
      if (lastHeading > pieceStart) cut = lastHeading;
      else if (lastParagraphBreak > pieceStart) cut = lastParagraphBreak;
      else if (lastBlank > pieceStart) cut = lastBlank;
      ranges.push([pieceStart, cut]);
      for (let k = pieceStart; k < cut; k++) pieceChars -= (lines[k] as string).length + 1;
      pieceStart = cut;
    }
    pieceChars += lineChars;
    if (fence !== null) {
      if (isFenceClose(line, fence)) fence = null;
      continue;
    }
    fence = matchFenceOpen(line);
    if (fence !== null) continue;
    if (ATX_HEADING_LINE.test(line)) {
      lastHeading = l;
    } else if (isBlank(line)) {
      lastBlank = l;
      if (PARAGRAPH_START.test(lines[l + 1] ?? '')) lastParagraphBreak = l;
    }
  }
  ranges.push([pieceStart, lines.length]);
  return ranges;
}

/**
 * Single-line link reference definitions (`[label]: url`) outside code
 * fences, in markdown-it's `env.references` shape. First definition wins, as
 * in CommonMark. Only the labels matter here: URLs never reach the output.
 */
function collectReferences(lines: readonly string[]): Record<string, { href: string; title: string }> {
  const references: Record<string, { href: string; title: string }> = {};
  let fence: CodeFence | null = null;
  for (const line of lines) {
    if (fence !== null) {
      if (isFenceClose(line, fence)) fence = null;
      continue;
    }
    fence = matchFenceOpen(line);
    if (fence !== null || !line.includes(']:')) continue;
    const match = REFERENCE_DEFINITION.exec(line);
    if (match === null) continue;
    const label = markdownParser().utils.normalizeReference(match[1] as string);
    if (label !== '' && references[label] === undefined) references[label] = { href: match[2] as string, title: '' };
  }
  return references;
}

/** "guides/getting-started.mdx" → "getting-started"; an index/README file takes its folder's name. */
function titleFromPath(filePath: string): string {
  const normalized = filePath.replace(/\\/g, '/');
  const base = path.posix.basename(normalized);
  const dot = base.lastIndexOf('.');
  const name = dot > 0 ? base.slice(0, dot) : base;
  if (/^(?:index|readme)$/i.test(name)) {
    const folder = path.posix.basename(path.posix.dirname(normalized));
    if (folder !== '' && folder !== '.' && folder !== '/') return folder;
  }
  return name === '' ? 'Untitled' : name;
}
