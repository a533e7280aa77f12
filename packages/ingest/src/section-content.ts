// What a section holds, from its lines of the MDX-stripped source: its content (the lines, tidied) and its text (its
// blocks' texts joined). The same for a whole section (markdown.ts) and for a piece of one (split-section.ts).
import { type CodeFence, isFenceClose, matchFenceOpen } from './fence.js';

/**
 * Source lines [start, end) without surrounding blank lines and trailing
 * whitespace, and with runs of blank lines outside code fences collapsed to
 * one (stripped MDX leaves many; in markdown they mean no more than one).
 * Leading indentation is kept only when it is meaningful (4+ columns: an
 * indented code block).
 */
export function sliceContent(lines: readonly string[], start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && isBlank(lines[from] as string)) from++;
  while (to > from && isBlank(lines[to - 1] as string)) to--;
  if (from === to) return '';
  const content = (
    hasBlankRun(lines, from, to) ? collapseBlankRuns(lines, from, to) : lines.slice(from, to).join('\n')
  ).trimEnd();
  return /^(?: {4}|\t)/.test(content) ? content : content.trimStart();
}

/** Lines [from, to) joined, with each run of blank lines outside code fences reduced to one empty line. */
function collapseBlankRuns(lines: readonly string[], from: number, to: number): string {
  let content = '';
  let fence: CodeFence | null = null;
  let previousBlank = false;
  for (let l = from; l < to; l++) {
    const line = lines[l] as string;
    if (fence !== null) {
      if (isFenceClose(line, fence)) fence = null;
    } else if (isBlank(line)) {
      if (previousBlank) continue;
      previousBlank = true;
      content += '\n';
      continue;
    } else {
      fence = matchFenceOpen(line);
    }
    previousBlank = false;
    content += l === from ? line : `\n${line}`;
  }
  return content;
}

/** Whether lines [from, to) contain two blank lines in a row (the common case has none: no fence scan needed). */
function hasBlankRun(lines: readonly string[], from: number, to: number): boolean {
  let previousBlank = false;
  for (let l = from; l < to; l++) {
    const blank = isBlank(lines[l] as string);
    if (blank && previousBlank) return true;
    previousBlank = blank;
  }
  return false;
}

export function isBlank(line: string): boolean {
  return line.length === 0 || line.trim() === '';
}

/** The texts of blocks joined with a space, empty ones left out. */
export function joinTexts(blocks: readonly { readonly text: string }[]): string {
  let text = '';
  for (const block of blocks) {
    if (block.text !== '') text = text === '' ? block.text : `${text} ${block.text}`;
  }
  return text;
}
