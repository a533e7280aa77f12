// Fenced code blocks (``` or ~~~) told line by line, without a markdown parse: stripMdx leaves their lines
// alone, and parseMarkdown's line passes (collapsing blank runs, cutting huge sources, reading reference
// definitions) skip them.

/** An open fenced code block: its fence character and run length (the closing fence must match). */
export interface CodeFence {
  readonly char: '`' | '~';
  readonly length: number;
}

// A fence may follow container prefixes (blockquote `>`, list markers) and any
// indentation: fences nested in list items are indented past 3 spaces. Being
// lax here only errs towards leaving text alone, never towards stripping code.
const FENCE_OPEN = /^(?:[ \t]*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+))*[ \t]*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})[ \t]*$/;

/**
 * The fence opened by `line`, or `null` if the line does not open a fenced
 * code block. Accepts fences behind list markers, blockquote markers and any
 * indentation; a backtick fence whose info string contains a backtick is
 * inline code, not a fence (CommonMark).
 */
export function matchFenceOpen(line: string): CodeFence | null {
  if (!line.includes('```') && !line.includes('~~~')) return null;
  const match = FENCE_OPEN.exec(line);
  if (match === null) return null;
  const run = match[1] as string;
  const char = run[0] === '`' ? '`' : '~';
  if (char === '`' && (match[2] as string).includes('`')) return null;
  return { char, length: run.length };
}

/** Whether `line` closes `fence` (same character, at least as long, nothing else on the line). */
export function isFenceClose(line: string, fence: CodeFence): boolean {
  if (!line.includes(fence.char.repeat(3))) return false;
  const match = FENCE_CLOSE.exec(line);
  if (match === null) return false;
  const run = match[1] as string;
  return run[0] === fence.char && run.length >= fence.length;
}
