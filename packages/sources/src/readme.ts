import { createRequire } from 'node:module';
import type { decodeHTML } from 'entities';
import type MarkdownItCallable from 'markdown-it';
import type { MarkdownIt, Token } from 'markdown-it';
import { htmlFragmentToMarkdown } from './html.js';

// A README is written for a repository's front page: centred logos, rows of
// status badges, links to chat and social accounts, HTML laid out by hand
// with `&nbsp;`. Indexed as it is, that page furniture is text: it costs
// tokens in every answer that quotes the section and its words (npm, Discord,
// license, build) rank it for questions it cannot answer. `cleanReadme` keeps
// what a reader of the docs needs and turns the rest into markdown or nothing.
//
// The markdown parser is markdown-it, the one @docs/ingest sections files
// with, so a block here is the block the index will see. It and the entity
// decoder are loaded on first use (markdown-it's CommonJS build; `entities` is
// an ES module, which Node 20.19+ requires synchronously), like html.ts's DOM:
// a process that never stages a README never pays for them.
const load = createRequire(import.meta.url);
let libraries: { markdown: MarkdownIt; decodeHTML: typeof decodeHTML } | undefined;
function libs(): NonNullable<typeof libraries> {
  if (libraries) return libraries;
  const MarkdownItClass = load('markdown-it') as typeof MarkdownItCallable;
  // `html: true`: raw HTML must come out as html_block/html_inline tokens to be converted.
  const markdown = new MarkdownItClass('default', { html: true, linkify: false, typographer: false });
  // Links are kept as written: percent-encoding and punycode are for a browser (and ~15% of a parse here).
  markdown.normalizeLink = (url) => url;
  markdown.normalizeLinkText = (text) => text;
  markdown.validateLink = () => true;
  libraries = { markdown, decodeHTML: (load('entities') as { decodeHTML: typeof decodeHTML }).decodeHTML };
  return libraries;
}

/**
 * A README's markdown without the HTML residue and the page furniture of a
 * repository's front page, for indexing:
 *
 * - each HTML block (`<p align="center">…</p>`, `<table>`, `<details>`) is
 *   converted by the HTML → markdown path (`htmlFragmentToMarkdown`), and so is
 *   a paragraph or heading whose inline HTML is real HTML (`<a …><img …></a>`);
 * - character references (`&nbsp;`, `&mdash;`, `&#8226;`) are decoded;
 * - a line made only of images and links that wrap images (badge rows, logos)
 *   is dropped, and so is a line made only of two or more links apart from
 *   separators (`[Docs](…) • [Discord](…)`), and a list whose every item is
 *   one link to a heading of the page (a table of contents);
 * - code (fenced, indented, inline) is never touched, and headings and prose
 *   are never dropped.
 *
 * Pure and idempotent: cleaning the result again changes nothing.
 *
 * @example
 * cleanReadme('[![npm](https://img.shields.io/npm/v/x)](https://npm.im/x)\n\n# x\n\nA&nbsp;fast client.\n');
 * // → '# x\n\nA fast client.\n'
 */
export function cleanReadme(markdown: string): string {
  const cleaned = cleanMarkdown(markdown.replace(/\r\n?/g, '\n'), true);
  return cleaned === '' ? '' : `${cleaned}\n`;
}

/** One top-level block of the output: its text, and whether it is the source's lines as written. */
interface Piece {
  readonly text: string;
  /** The source lines [start, end) it was taken from verbatim, to keep the source's spacing to the next piece. */
  readonly lines?: readonly [number, number];
}

function cleanMarkdown(source: string, convertHtml: boolean): string {
  const { markdown } = libs();
  const env: Record<string, unknown> = {};
  const tokens = markdown.parse(source, env);
  const lines = source.split('\n');
  const code = codeLines(tokens, lines.length);
  const pieces: Piece[] = [];
  // Labels of link reference definitions used by a dropped line: the definition goes too if nothing left uses it.
  const droppedLabels = new Set<string>();
  let covered = 0;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i] as Token;
    if (open.level !== 0 || !open.map) continue;
    const end = closing(tokens, i);
    const block = tokens.slice(i, end + 1);
    const [start] = open.map;
    // A list's lines run on over the blank lines after it; a block ends at its last line of text here.
    let stop = open.map[1];
    while (stop > start + 1 && (lines[stop - 1] as string).trim() === '') stop -= 1;
    // Lines between blocks: blank lines and link reference definitions.
    gapPieces(lines, covered, start, pieces);
    covered = open.map[1];
    i = end;
    const text = lines.slice(start, stop).join('\n');
    switch (open.type) {
      case 'fence':
      case 'code_block':
      case 'hr':
        pieces.push({ text, lines: [start, stop] });
        break;
      case 'html_block':
        if (convertHtml) pieces.push(...converted(htmlFragmentToMarkdown(text)));
        else pieces.push({ text, lines: [start, stop] });
        break;
      case 'heading_open':
      case 'paragraph_open': {
        if (convertHtml && hasRealHtml(block[1]?.children ?? [])) {
          pieces.push(...converted(htmlFragmentToMarkdown(markdown.renderer.render(block, markdown.options, env))));
        } else if (open.type === 'heading_open') {
          pieces.push({ text: unchangedBlocks(text, decodeEntities(text)), lines: [start, stop] });
        } else {
          const kept = paragraphLines(lines.slice(start, stop), env, droppedLabels);
          if (kept === undefined)
            pieces.push({ text: unchangedBlocks(text, decodeEntities(text)), lines: [start, stop] });
          else if (kept !== '') pieces.push({ text: unchangedBlocks(kept, decodeEntities(kept)) });
        }
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (isTableOfContents(block)) break;
        pieces.push({ text: unchangedBlocks(text, decodeOutsideCode(lines, start, stop, code)), lines: [start, stop] });
        break;
      default:
        // Tables, block quotes and anything else: kept, with their character references decoded.
        pieces.push({ text: unchangedBlocks(text, decodeOutsideCode(lines, start, stop, code)), lines: [start, stop] });
    }
  }
  gapPieces(lines, covered, lines.length, pieces);
  return join(withoutUnusedDefinitions(pieces, droppedLabels));
}

/** The index of the token that closes the block opened at `i` (itself for a block without a closing token). */
function closing(tokens: readonly Token[], i: number): number {
  const open = tokens[i] as Token;
  if (open.nesting !== 1) return i;
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    depth += (tokens[j] as Token).nesting;
    if (depth === 0) return j;
  }
  return tokens.length - 1;
}

/** Which source lines are code (fenced or indented, at any depth: in a list item too), never to be changed. */
function codeLines(tokens: readonly Token[], count: number): boolean[] {
  const code = new Array<boolean>(count).fill(false);
  for (const token of tokens) {
    if ((token.type === 'fence' || token.type === 'code_block') && token.map) {
      for (let line = token.map[0]; line < token.map[1]; line++) code[line] = true;
    }
  }
  return code;
}

/** Non-blank lines between blocks (link reference definitions), one piece each. */
function gapPieces(lines: readonly string[], from: number, to: number, pieces: Piece[]): void {
  for (let line = from; line < to; line++) {
    const text = lines[line] as string;
    if (text.trim() !== '') pieces.push({ text, lines: [line, line + 1] });
  }
}

/** Markdown that came out of the HTML path, cleaned as markdown (its HTML is gone), as pieces. */
function converted(markdown: string): Piece[] {
  // An HTML block that only opens or closes a layout element (`<div align="center">`, `</td></tr></table>`)
  // converts to nothing, or to an empty table or a rule: no words and no image means nothing to index.
  if (!/[\p{L}\p{N}]/u.test(markdown)) return [];
  // The DOM decoded `&nbsp;` into no-break spaces, which Turndown writes as they are: layout, like the references.
  const lines = markdown.split('\n');
  const code = codeLines(libs().markdown.parse(markdown, {}), lines.length);
  const spaced = lines
    .map((line, index) =>
      code[index]
        ? line
        : line.replace(/([ \t]*)(\u00a0[ \t\u00a0]*)/g, (run: string, before: string, spaces: string, offset: number) =>
            layoutSpaces(run, before, spaces.replace(/\u00a0/g, ' '), offset, line),
          ),
    )
    .join('\n');
  const text = cleanMarkdown(spaced, false);
  return text === '' ? [] : [{ text }];
}

// HTML elements that have no closing tag, from the HTML standard's list of void elements.
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const HTML_TAG = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)(\s+[^>]*?)?\s*(\/?)>$/;

/**
 * Whether a paragraph's or heading's inline HTML is HTML to convert. Prose
 * about types writes `Promise<T>` or `Array<string>` outside code spans, which
 * a markdown parser reads as a tag; converted, the "element" would vanish with
 * its name. A real element is closed, self-closing, void, or has attributes;
 * one tag that is none of these leaves the whole block as markdown.
 */
function hasRealHtml(children: readonly Token[]): boolean {
  const tags = children.filter((t) => t.type === 'html_inline').map((t) => t.content.trim());
  if (tags.length === 0) return false;
  const parsed = tags.map((tag) => HTML_TAG.exec(tag));
  return parsed.every((match, index) => {
    const tag = tags[index] as string;
    if (tag.startsWith('<!--')) return true;
    if (!match) return false;
    const [, slash, rawName, attributes, selfClosing] = match;
    const name = (rawName as string).toLowerCase();
    const named = (other: RegExpExecArray | null) => other?.[2]?.toLowerCase() === name;
    if (slash) return parsed.slice(0, index).some((other) => named(other) && !other?.[1]);
    return (
      Boolean(attributes) ||
      Boolean(selfClosing) ||
      VOID_ELEMENTS.has(name) ||
      parsed.slice(index + 1).some((other) => named(other) && other?.[1] === '/')
    );
  });
}

// What may stand between the links of a navigation line: spaces (no-break ones too) and the usual separators.
const SEPARATORS = /^[\s\u200b-\u200d\u2060\ufeff•·|/\u2013\u2014-]*$/u;
// Emphasis around a link or inside one (`**[Website](…)**`, `[**Docs**](…)`) is markup, not words.
const MARKUP = new Set(['strong_open', 'strong_close', 'em_open', 'em_close', 's_open', 's_close', 'softbreak']);

type LineKind = 'blank' | 'images' | 'links' | 'text';

/**
 * What one line of a paragraph is made of:
 * - `images`: images and links wrapping images only (a badge row, a logo).
 *   A badge says a build passed or a version number on the day it was
 *   rendered; a logo says the project's name. Neither answers a question,
 *   and an index can read neither.
 * - `links`: two or more links with nothing but separators between them (a
 *   navigation line: `[Docs](…) • [Discord](…)`). Its words are the names of
 *   other pages; one link alone is kept, since a sentence can be a link.
 * - `blank`: spaces only, typed as references (`&nbsp;`) to space the page
 *   out by hand.
 * - `text`: anything with a word of its own, code or HTML. Kept.
 */
function lineKind(children: readonly Token[]): LineKind {
  let images = 0;
  let textLinks = 0;
  let separators = false;
  for (let i = 0; i < children.length; i++) {
    const token = children[i] as Token;
    if (token.type === 'image') images += 1;
    else if (token.type === 'link_open') {
      let j = i + 1;
      let wrapsImage = false;
      let words = false;
      for (; j < children.length && (children[j] as Token).type !== 'link_close'; j++) {
        const inner = children[j] as Token;
        if (inner.type === 'image') wrapsImage = true;
        else if (inner.type !== 'text' ? !MARKUP.has(inner.type) : inner.content.trim() !== '') words = true;
      }
      if (words) textLinks += 1;
      else if (wrapsImage) images += 1;
      else return 'text';
      i = j;
    } else if (token.type === 'text') {
      if (!SEPARATORS.test(token.content)) return 'text';
      if (token.content !== '' && !BLANK.test(token.content)) separators = true;
    } else if (!MARKUP.has(token.type) && token.type !== 'hardbreak') return 'text';
  }
  if (images + textLinks === 0) return separators ? 'text' : 'blank';
  if (images > 0 && textLinks === 0) return 'images';
  if (images + textLinks >= 2) return 'links';
  return 'text';
}

/**
 * A paragraph without its badge and navigation lines: the lines kept as
 * written, "" when none is, undefined when every line is kept (or when what
 * would be left parses as something other than one paragraph, which it then
 * stays as it was: dropping a first line can leave an indented line at the
 * start, which markdown reads as code).
 */
function paragraphLines(
  lines: readonly string[],
  env: Record<string, unknown>,
  droppedLabels: Set<string>,
): string | undefined {
  const { markdown } = libs();
  const kept: string[] = [];
  for (const line of lines) {
    const tokens = markdown.parseInline(line, env)[0]?.children ?? [];
    if (lineKind(tokens) === 'text') kept.push(line);
    else for (const label of line.matchAll(/\[((?:[^[\]\\]|\\.)+)\]/g)) droppedLabels.add(normalizeLabel(label[1]));
  }
  if (kept.length === lines.length) return undefined;
  if (kept.length === 0) return '';
  const text = kept.join('\n');
  const reparsed = markdown.parse(text, { ...env });
  return reparsed.length === 3 && reparsed[0]?.type === 'paragraph_open' ? text : undefined;
}

/**
 * Whether a list is a table of contents: each item one link to a heading of
 * this page (`#anchor`), its sub-lists the same. The headings are indexed
 * where they stand; the list repeats every one of them in one section, which
 * then matches any question a little and answers none.
 */
function isTableOfContents(block: readonly Token[]): boolean {
  let links = 0;
  for (const token of block) {
    if (token.type !== 'inline') {
      if (!/^(?:bullet_list|ordered_list|list_item|paragraph)_(?:open|close)$/.test(token.type)) return false;
      continue;
    }
    const children = token.children ?? [];
    const first = children.findIndex((child) => child.type === 'link_open');
    const last = children.findLastIndex((child) => child.type === 'link_close');
    if (first === -1 || last === -1 || !String(children[first]?.attrGet('href') ?? '').startsWith('#')) return false;
    const outside = [...children.slice(0, first), ...children.slice(last + 1)];
    if (outside.some((child) => !(child.type === 'text' && child.content.trim() === '') && !MARKUP.has(child.type)))
      return false;
    if (children.slice(first + 1, last).some((child) => child.type === 'link_open' || child.type === 'image'))
      return false;
    links += 1;
  }
  return links > 0;
}

function normalizeLabel(label: string | undefined): string {
  return (label ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

// A link reference definition on one line: `[label]: destination "optional title"`.
const DEFINITION = /^ {0,3}\[((?:[^[\]\\]|\\.)+)\]:\s*\S+(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$/;

/**
 * The pieces without the link reference definitions that only dropped lines
 * used (`[npm-image]: https://img.shields.io/…` under a badge row written
 * with references): invisible when rendered, they are still text to an index.
 */
function withoutUnusedDefinitions(pieces: readonly Piece[], droppedLabels: ReadonlySet<string>): Piece[] {
  if (droppedLabels.size === 0) return [...pieces];
  const definitionOf = (piece: Piece) => {
    const match = DEFINITION.exec(piece.text);
    return match ? normalizeLabel(match[1]) : undefined;
  };
  const used = new Set<string>();
  for (const piece of pieces) {
    if (definitionOf(piece) !== undefined) continue;
    for (const label of piece.text.matchAll(/\[((?:[^[\]\\]|\\.)+)\]/g)) used.add(normalizeLabel(label[1]));
  }
  return pieces.filter((piece) => {
    const label = definitionOf(piece);
    return label === undefined || !droppedLabels.has(label) || used.has(label);
  });
}

/**
 * The pieces as one document: a blank line between pieces, except where two
 * came verbatim from adjacent source lines (a heading right above its
 * paragraph, a list of reference definitions), which stay as they were.
 */
function join(pieces: readonly Piece[]): string {
  let out = '';
  let previous: Piece | undefined;
  for (const piece of pieces) {
    // Trailing blank lines go (the separator stands for them); trailing spaces on a line of text are its own.
    const text = piece.text.replace(/(?:\n[ \t]*)+$/, '');
    if (text.trim() === '') continue;
    if (previous !== undefined) {
      const adjacent =
        previous.lines !== undefined && piece.lines !== undefined && previous.lines[1] === piece.lines[0];
      out += adjacent ? '\n' : '\n\n';
    }
    out += text;
    previous = piece;
  }
  return out;
}

/**
 * `decoded` if it parses as the same blocks as `text`, else `text`. Decoding
 * removes layout spaces, and markdown is whitespace-sensitive in corners (a
 * line left as a lone `</a>` is an HTML block; one left empty ends a list
 * item): where decoding would change what a block is, the block stays as
 * written, references and all.
 */
function unchangedBlocks(text: string, decoded: string): string {
  if (decoded === text) return text;
  const { markdown } = libs();
  const shape = (source: string) =>
    markdown
      .parse(source, {})
      .filter((token) => token.type !== 'inline')
      .map((token) => token.type)
      .join(' ');
  return shape(decoded) === shape(text) ? decoded : text;
}

/** The block's lines [start, stop) with references decoded, except on code lines (a fence inside a list item). */
function decodeOutsideCode(lines: readonly string[], start: number, stop: number, code: readonly boolean[]): string {
  const out: string[] = [];
  let run: string[] = [];
  for (let line = start; line < stop; line++) {
    if (code[line]) {
      if (run.length > 0) out.push(decodeEntities(run.join('\n')));
      run = [];
      out.push(lines[line] as string);
    } else run.push(lines[line] as string);
  }
  if (run.length > 0) out.push(decodeEntities(run.join('\n')));
  return out.join('\n');
}

// Code spans and autolinks: what is written in them is literal, `&amp;` included.
const LITERAL = /(`+)[\s\S]*?[^`]\1(?!`)|`+|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/g;
const REFERENCE = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;
// A run of references with the spaces and tabs around them; group 1 is what stood before the first one.
const REFERENCE_RUN = /([ \t]*)((?:&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});[ \t]*)+)/g;
// Spaces an author typed as references to lay text out by hand (`&nbsp;&nbsp;•&nbsp;&nbsp;`), zero-width ones too.
const BLANK = /^[\s\u200b-\u200d\u2060\ufeff]+$/u;

/** Whether text holds ASCII punctuation or a control character: markdown syntax, or where it would matter. */
function hasSyntax(text: string): boolean {
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (code < 0x80 && !/[A-Za-z0-9]/.test(character)) return true;
  }
  return false;
}

/**
 * Markdown text with its character references decoded, outside code spans
 * and autolinks. A reference to a space (`&nbsp;`) becomes one plain space,
 * or nothing at the start or end of a line, so that hand-made layout does not
 * turn into indentation, which markdown would read as code. A reference to
 * ASCII punctuation (`&lt;`, `&amp;`, `&#42;`) stays as written: decoded, it
 * would become markup (`&lt;div&gt;` a tag, `&amp;nbsp;` a space).
 */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  const { decodeHTML } = libs();
  const literals = [...text.matchAll(LITERAL)].map((m) => [m.index, m.index + m[0].length] as const);
  return text.replace(
    REFERENCE_RUN,
    (run: string, before: string, references: string, offset: number, whole: string): string => {
      if (literals.some(([start, end]) => offset >= start && offset < end)) return run;
      let blank = false;
      const decoded = references.replace(REFERENCE, (reference) => {
        const character = decodeHTML(reference);
        if (character === reference) return reference;
        if (BLANK.test(character)) {
          blank = true;
          return ' ';
        }
        return hasSyntax(character) ? reference : character;
      });
      return blank ? layoutSpaces(run, before, decoded, offset, whole) : `${before}${decoded}`;
    },
  );
}

/**
 * `run`, found at `offset` in `whole`, written with plain spaces: `spaced` is
 * the run with its layout spaces as spaces, `before` the spaces that stood
 * before it. Each run of them is one space; none at the end of a line, and at
 * its start only the indentation that was there before (a list item's
 * continuation keeps its own), so hand-made layout never becomes indentation,
 * which markdown would read as code. At the start of a line, what follows
 * could become syntax once the spaces are gone (`&nbsp;# not a heading`): such
 * a run stays as written.
 */
function layoutSpaces(run: string, before: string, spaced: string, offset: number, whole: string): string {
  const end = offset + run.length;
  const atStart = offset === 0 || whole[offset - 1] === '\n';
  const atEnd = end === whole.length || whole[end] === '\n';
  // A line of nothing else (but a quote's or a list item's marker) stays as written: emptied, it would end the
  // paragraph, item or quote it stands in.
  const lineStart = whole.lastIndexOf('\n', offset - 1) + 1;
  if (atEnd && /^[\s>*+\-\d.)]*$/.test(whole.slice(lineStart, offset))) return run;
  if (atStart && hasSyntax(whole[end] as string)) return run;
  let out = `${before}${spaced}`.replace(/[ \t]+/g, ' ');
  if (atStart) out = before + out.trimStart();
  if (atEnd) out = out.trimEnd();
  return out;
}
