import { createRequire } from 'node:module';
import type { parse } from 'yaml';

// Loaded on the first front matter (yaml's CommonJS build, so splitting stays synchronous): a page without any, and
// a build's main thread, whose workers parse, never pay for it.
const load = createRequire(import.meta.url);
let parseYaml: typeof parse | undefined;

/** Result of {@link splitFrontMatter}. */
export interface FrontMatter {
  /** Parsed YAML mapping; `{}` when there is no block, it is empty, not a mapping, or not valid YAML. */
  readonly data: Record<string, unknown>;
  /** The source after the closing delimiter line (the whole source when there is no block). */
  readonly body: string;
  /** 0-based line in `source` where `body` starts, so line numbers in the body can be mapped back. */
  readonly bodyStartLine: number;
}

// Opening delimiter: exactly `---` on the very first line (a UTF-8 BOM is
// tolerated because editors on Windows like to add one).
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
// Closing delimiter: `---` or YAML's document-end marker `...` on a line of its own.
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits a leading YAML front-matter block (`---` … `---` at the very start of
 * the source, LF or CRLF) off a markdown source.
 *
 * Never throws: invalid YAML, or YAML that is not a mapping, gives `data: {}`
 * while the block is still removed from the body (it is metadata either way,
 * not prose). A `---` opener without a closing line is not front matter.
 *
 * @example
 * splitFrontMatter('---\ntitle: Intro\n---\n# Hi\n');
 * // → { data: { title: 'Intro' }, body: '# Hi\n', bodyStartLine: 3 }
 */
export function splitFrontMatter(source: string): FrontMatter {
  const opening = OPENING.exec(source);
  if (opening === null) return { data: {}, body: source, bodyStartLine: 0 };

  let lineStart = opening[0].length;
  let line = 1;
  while (lineStart <= source.length) {
    const newline = source.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? source.length : newline;
    const text = source.slice(lineStart, lineEnd).replace(/\r$/, '');
    if (CLOSING.test(text)) {
      const yamlText = source.slice(opening[0].length, lineStart);
      const body = newline === -1 ? '' : source.slice(newline + 1);
      return { data: parseYamlMapping(yamlText), body, bodyStartLine: line + 1 };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
    line++;
  }
  return { data: {}, body: source, bodyStartLine: 0 };
}

function parseYamlMapping(text: string): Record<string, unknown> {
  try {
    parseYaml ??= (load('yaml') as { parse: typeof parse }).parse;
    const value: unknown = parseYaml(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Broken front matter must not stop a whole documentation build.
  }
  return {};
}
