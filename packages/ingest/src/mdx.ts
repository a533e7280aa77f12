import { type CodeFence, isFenceClose, matchFenceOpen } from './fence.js';
import { headingLineWithoutAttributes } from './heading-attributes.js';

// MDX ESM must start at column 0. The patterns require real ESM shape so that
// prose starting with the word "import" in a .md file is left alone.
const IMPORT_START = /^import\s*(?:type\s+)?(?:["'{*]|[\w$]+\s*(?:,|from\b))/;
const EXPORT_START =
  /^export\s+(?:default\b|const\b|let\b|var\b|function\b|async\s+function\b|class\b|type\b|interface\b|enum\b|\{|\*)/;

// VitePress / Docusaurus containers (`::: tip Title`, `:::info[Title]`, `:::`)
// and Python-Markdown blocks used by FastAPI (`/// note | Title`, `///`).
// The marker is presentation; a title is worth keeping as text.
const COLON_CONTAINER =
  /^([ \t]*(?:>[ \t]?)*[ \t]*):{3,}[ \t]*(?:[A-Za-z][\w-]*)?[ \t]*(?:\[([^\]]*)\])?[ \t]*(.*?)[ \t]*(?:\{[^}]*\})?[ \t]*$/;
const SLASH_BLOCK = /^([ \t]*)\/{3,}(?:[ \t]+[\w-]+)?(?:[ \t]*\|[ \t]*(.*?))?[ \t]*$/;

const TAG_NAME = /[A-Za-z][\w.:-]*/y;
const ATTRIBUTE_NAME = /[A-Za-z_:@#][\w:.@#-]*/y;
const UNQUOTED_VALUE = /[^\s"'=<>`]+/y;
const INTERESTING = /[<`{\\]/g;

// Tags removed without leaving a gap: phrasing elements sit inside words
// ("re<b>use</b>"). Anything else (components, block HTML, <br>) separates
// the text around it, so a space is left where one is needed.
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);
// Raw-text elements: their body is JS/CSS, never documentation prose.
const RAW_TEXT_TAGS = new Set(['script', 'style']);

// Multi-line constructs are bounded so that a stray `<` or `{/*` in prose
// cannot make the scanner swallow a whole document.
const MAX_TAG_LINES = 500;
const MAX_COMMENT_LINES = 400;
const MAX_ESM_LINES = 2000;

interface Position {
  readonly line: number;
  readonly col: number;
}

interface TagEnd extends Position {
  readonly name: string;
  readonly closing: boolean;
  readonly selfClosing: boolean;
  /** A component's `title` or `label` attribute (a string literal), kept as text. */
  readonly caption: string;
}

/**
 * Removes MDX/JSX-only syntax from a markdown or MDX source while keeping its
 * line count (removed lines become empty lines), so markdown-it line maps and
 * error positions still point at the original lines.
 *
 * Removed, everywhere outside fenced code blocks:
 * - top-level ESM `import` / `export` statements, including multi-line ones;
 * - JSX / HTML tags (opening, closing, self-closing, fragments, attributes
 *   spanning lines); a line that held only tags becomes empty, text between
 *   tags (markdown) is kept, and inline tags in a paragraph are removed with
 *   their text kept; a component's string `title` / `label` attribute
 *   (`<Step title="Install">`, `<TabItem label="pnpm">`) is kept as text;
 * - `{/* … *\/}` MDX comments, `<!-- … -->` HTML comments, and the bodies of
 *   `<script>` / `<style>` elements;
 * - container markers (`::: tip`, `:::info[Title]`, `:::`, `/// note | Title`,
 *   `///`): the marker goes, a title is kept as a line of text;
 * - the attribute block an ATX heading ends with (`## Title {#id}`,
 *   `{.class #id}`, `{: #id }`; see heading-attributes.ts).
 *
 * Applied to .md as well as .mdx: VitePress and Docusaurus .md pages use
 * components and containers too, and in plain markdown the same tags are
 * invisible HTML anyway. Fenced code (``` or ~~~, any length ≥ 3, indented,
 * in list items or blockquotes) and inline code spans are never touched.
 * Line endings are normalised to `\n`.
 */
export function stripMdx(source: string): string {
  const lines = source.split(/\r?\n/);
  const out: string[] = [];
  let fence: CodeFence | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (fence !== null) {
      if (isFenceClose(line, fence)) fence = null;
      out.push(line);
      i++;
      continue;
    }
    const opened = matchFenceOpen(line);
    if (opened !== null) {
      fence = opened;
      out.push(line);
      i++;
      continue;
    }
    if (
      (line.startsWith('import') && IMPORT_START.test(line)) ||
      (line.startsWith('export') && EXPORT_START.test(line))
    ) {
      const end = findEsmEnd(lines, i);
      for (; i <= end; i++) out.push('');
      continue;
    }
    const container = replaceContainerMarker(line);
    if (container !== null) lines[i] = container;
    const at = out.length;
    i = stripInline(lines, i, out);
    // A heading's `{#id}` once its tags are gone (`## x <Badge>beta</Badge> {#x}`); one line in, one line out.
    if (out.length === at + 1) out[at] = headingLineWithoutAttributes(out[at] as string);
  }
  return out.join('\n');
}

function replaceContainerMarker(line: string): string | null {
  const trimmed = line.trimStart();
  if (trimmed.startsWith(':::') || trimmed.startsWith('> :::') || trimmed.startsWith('>:::')) {
    const match = COLON_CONTAINER.exec(line);
    if (match !== null) {
      const title = (match[2] ?? match[3] ?? '').trim();
      return title === '' ? '' : `${match[1] ?? ''}${title}`;
    }
  } else if (trimmed.startsWith('///')) {
    const match = SLASH_BLOCK.exec(line);
    if (match !== null) {
      const title = (match[2] ?? '').trim();
      return title === '' ? '' : `${match[1] ?? ''}${title}`;
    }
  }
  return null;
}

/**
 * Strips tags and comments from line `start` (and from following lines when a
 * construct spans lines), pushing one output line per input line consumed.
 * Returns the index of the next line to process.
 */
function stripInline(lines: string[], start: number, out: string[]): number {
  let lineIndex = start;
  let line = lines[lineIndex] as string;
  // Fast path: nothing that could start a tag or comment.
  if (!line.includes('<') && !line.includes('{/*')) {
    out.push(line);
    return lineIndex + 1;
  }
  let kept = '';
  let removed = false;
  let col = 0;
  const flush = (): void => {
    out.push(removed ? cleanLine(kept) : kept);
    kept = '';
    removed = false;
  };
  const jumpTo = (end: Position): void => {
    removed = true;
    if (end.line > lineIndex) {
      flush();
      for (let k = lineIndex + 1; k < end.line; k++) out.push('');
      lineIndex = end.line;
      line = lines[lineIndex] as string;
      removed = true;
    }
    col = end.col;
  };

  for (;;) {
    INTERESTING.lastIndex = col;
    const found = INTERESTING.exec(line);
    if (found === null) {
      kept += line.slice(col);
      flush();
      return lineIndex + 1;
    }
    const at = found.index;
    kept += line.slice(col, at);
    const char = line[at];
    if (char === '\\') {
      kept += line.slice(at, at + 2);
      col = at + 2;
    } else if (char === '`') {
      // A code span is copied verbatim: `<Tabs>` in prose is an example, not a tag.
      let run = 1;
      while (line[at + run] === '`') run++;
      const close = findBacktickRun(line, at + run, run);
      const end = close === -1 ? at + run : close + run;
      kept += line.slice(at, end);
      col = end;
    } else if (char === '{') {
      const end = line.startsWith('{/*', at) ? findText(lines, lineIndex, at + 3, '*/}', MAX_COMMENT_LINES) : null;
      if (end === null) {
        kept += '{';
        col = at + 1;
      } else {
        jumpTo(end);
      }
    } else if (line.startsWith('<!--', at)) {
      const end = findText(lines, lineIndex, at + 4, '-->', MAX_COMMENT_LINES);
      if (end === null) {
        kept += '<';
        col = at + 1;
      } else {
        jumpTo(end);
      }
    } else {
      const tag = parseTag(lines, lineIndex, at);
      if (tag === null) {
        kept += '<';
        col = at + 1;
        continue;
      }
      let end: Position = tag;
      const lowerName = tag.name.toLowerCase();
      if (!tag.closing && !tag.selfClosing && RAW_TEXT_TAGS.has(lowerName)) {
        end = findText(lines, tag.line, tag.col, `</${lowerName}>`, MAX_ESM_LINES, true) ?? tag;
      }
      jumpTo(end);
      const next = line[col];
      if (tag.caption !== '') {
        kept += `${kept === '' || /\s$/.test(kept) ? '' : ' '}${tag.caption}${next === undefined || /\s/.test(next) ? '' : ' '}`;
      } else if (
        !INLINE_TAGS.has(lowerName) &&
        kept !== '' &&
        !/\s$/.test(kept) &&
        next !== undefined &&
        !/\s/.test(next)
      ) {
        kept += ' ';
      }
    }
  }
}

function cleanLine(kept: string): string {
  const trimmed = kept.trimEnd();
  return trimmed.trim() === '' ? '' : trimmed;
}

function findBacktickRun(line: string, from: number, length: number): number {
  let index = line.indexOf('`', from);
  while (index !== -1) {
    let run = 1;
    while (line[index + run] === '`') run++;
    if (run === length) return index;
    index = line.indexOf('`', index + run);
  }
  return -1;
}

/** Position just after the next `needle` at or after (line, col), searching at most `maxLines` lines. */
function findText(
  lines: readonly string[],
  line: number,
  col: number,
  needle: string,
  maxLines: number,
  ignoreCase = false,
): Position | null {
  const last = Math.min(lines.length - 1, line + maxLines);
  for (let l = line; l <= last; l++) {
    const text = lines[l] as string;
    const haystack = ignoreCase ? text.toLowerCase() : text;
    const index = haystack.indexOf(needle, l === line ? col : 0);
    if (index !== -1) return { line: l, col: index + needle.length };
  }
  return null;
}

/**
 * Parses a JSX/HTML tag starting at the `<` at (line, col), possibly spanning
 * lines (attributes on their own lines, `{…}` expression values). Returns the
 * position after the closing `>`, or `null` when the text is not a tag (e.g.
 * `a < b`, `<https://autolink>`, `<user@example.com>`).
 */
function parseTag(lines: readonly string[], startLine: number, startCol: number): TagEnd | null {
  let l = startLine;
  let text = lines[l] as string;
  let c = startCol + 1;
  const closing = text[c] === '/';
  if (closing) c++;
  if (text[c] === '>') return { line: l, col: c + 1, name: '', closing, selfClosing: false, caption: '' };
  TAG_NAME.lastIndex = c;
  const nameMatch = TAG_NAME.exec(text);
  if (nameMatch === null) return null;
  const name = nameMatch[0];
  c += name.length;
  const next = text[c];
  if (next !== undefined && next !== '>' && next !== '/' && next !== ' ' && next !== '\t') return null;

  // Skips spaces and line breaks; false if the tag runs into a blank line, the
  // end of the source or too many lines (then it was not a tag after all).
  const skipSpace = (): boolean => {
    for (;;) {
      while (c < text.length && (text[c] === ' ' || text[c] === '\t')) c++;
      if (c < text.length) return true;
      l++;
      if (l >= lines.length || l - startLine > MAX_TAG_LINES) return false;
      text = lines[l] as string;
      if (text.trim() === '') return false;
      c = 0;
    }
  };

  if (closing) {
    if (!skipSpace() || text[c] !== '>') return null;
    return { line: l, col: c + 1, name, closing, selfClosing: false, caption: '' };
  }
  // Mintlify/Docusaurus components carry headings in attributes
  // (<Step title="Install">, <TabItem label="pnpm">); worth keeping as text.
  const isComponent = /^[A-Z]/.test(name);
  let caption = '';
  for (;;) {
    if (!skipSpace()) return null;
    const char = text[c];
    if (char === '>') return { line: l, col: c + 1, name, closing, selfClosing: false, caption };
    if (char === '/') {
      if (text[c + 1] !== '>') return null;
      return { line: l, col: c + 2, name, closing, selfClosing: true, caption };
    }
    if (char === '{') {
      // JSX spread attribute: {...props}
      const end = skipBraces(lines, l, c, startLine);
      if (end === null) return null;
      l = end.line;
      text = lines[l] as string;
      c = end.col;
      continue;
    }
    ATTRIBUTE_NAME.lastIndex = c;
    const attribute = ATTRIBUTE_NAME.exec(text);
    if (attribute === null) return null;
    c += attribute[0].length;
    while (c < text.length && (text[c] === ' ' || text[c] === '\t')) c++;
    if (text[c] !== '=') continue;
    c++;
    if (!skipSpace()) return null;
    const quote = text[c];
    if (quote === '"' || quote === "'") {
      const end = findText(lines, l, c + 1, quote, Math.max(0, MAX_TAG_LINES - (l - startLine)));
      if (end === null) return null;
      if (isComponent && end.line === l && (attribute[0] === 'title' || attribute[0] === 'label')) {
        caption = text.slice(c + 1, end.col - 1).trim();
      }
      l = end.line;
      text = lines[l] as string;
      c = end.col;
    } else if (quote === '{') {
      const end = skipBraces(lines, l, c, startLine);
      if (end === null) return null;
      l = end.line;
      text = lines[l] as string;
      c = end.col;
    } else {
      UNQUOTED_VALUE.lastIndex = c;
      const value = UNQUOTED_VALUE.exec(text);
      if (value === null) return null;
      c += value[0].length;
    }
  }
}

/** Position after the `}` matching the `{` at (line, col); JS strings and template literals are skipped. */
function skipBraces(lines: readonly string[], line: number, col: number, startLine: number): Position | null {
  let depth = 0;
  let quote = '';
  for (let l = line; l < lines.length && l - startLine <= MAX_TAG_LINES; l++) {
    const text = lines[l] as string;
    for (let c = l === line ? col : 0; c < text.length; c++) {
      const char = text[c];
      if (quote !== '') {
        if (char === '\\') c++;
        else if (char === quote) quote = '';
      } else if (char === '"' || char === "'" || char === '`') {
        quote = char;
      } else if (char === '{') {
        depth++;
      } else if (char === '}') {
        depth--;
        if (depth === 0) return { line: l, col: c + 1 };
      }
    }
    // Plain JS strings cannot span lines; only template literals carry over.
    if (quote !== '`') quote = '';
  }
  return null;
}

/**
 * Last line (inclusive) of the ESM statement starting at `start`. Tracks
 * bracket depth, strings and comments so multi-line `import { … } from` and
 * `export const x = { … }` bodies (even with blank lines inside) are covered.
 */
function findEsmEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  let quote = '';
  let blockComment = false;
  const last = Math.min(lines.length - 1, start + MAX_ESM_LINES);
  for (let l = start; l <= last; l++) {
    const text = lines[l] as string;
    for (let c = 0; c < text.length; c++) {
      const char = text[c];
      if (blockComment) {
        if (char === '*' && text[c + 1] === '/') {
          blockComment = false;
          c++;
        }
      } else if (quote !== '') {
        if (char === '\\') c++;
        else if (char === quote) quote = '';
      } else if (char === '"' || char === "'" || char === '`') {
        quote = char;
      } else if (char === '/' && text[c + 1] === '/') {
        break;
      } else if (char === '/' && text[c + 1] === '*') {
        blockComment = true;
        c++;
      } else if (char === '{' || char === '(' || char === '[') {
        depth++;
      } else if (char === '}' || char === ')' || char === ']') {
        depth--;
      }
    }
    if (quote !== '`') quote = '';
    if (depth > 0 || quote !== '' || blockComment) continue;
    const next = lines[l + 1];
    if (next === undefined || next.trim() === '') return l;
    // A statement continues when this line ends in an operator or the next
    // line starts with one (`from '…'` on its own line, chained calls).
    if (/[,=(+\-*/|&?:.]\s*$/.test(text) || /^\s*(?:[.)\]}?:+\-*/|&,=]|from\b|as\b)/.test(next)) continue;
    return l;
  }
  // Unbalanced brackets: not real ESM after all, or broken. Remove only up to
  // the first blank line, as MDX itself would treat the block.
  for (let l = start + 1; l < lines.length; l++) {
    if ((lines[l] as string).trim() === '') return l - 1;
  }
  return lines.length - 1;
}
