import { inlineText, markdownParser } from './markdown-tokens.js';

/**
 * The code examples of a package's README and docs pages, each with the words around it that say what it does: the
 * heading it sits under, the first paragraph of that heading's section and the paragraph right before the block.
 * Many docs give an example no paragraph of its own ("### Parameters in path", then the code): its heading is then
 * all the prose it has. Language-neutral; what the code calls is read by each language's own parser.
 */

/** A code block of the docs and the prose that introduces it. */
export interface DocExample {
  readonly code: string;
  /** The fence's language label as written (`go`, `ts`), or '' for an unlabelled block. */
  readonly language: string;
  /** The nearest heading above it, '' for none. */
  readonly heading: string;
  /** The first paragraph under that heading (when it comes before the block), then the paragraph right before it. */
  readonly prose: readonly string[];
}

/** Bounds on what one package's docs give: code blocks, and characters of code in all. */
export interface DocExampleLimits {
  readonly maxExamples: number;
  readonly maxCodeChars: number;
}

/**
 * The code blocks of `docs` (markdown texts) whose language `accepts`, in the docs' order, within `limits`.
 *
 * @example
 * docExamples(['## Query strings\n\nRead one:\n\n```go\nc.Query("id")\n```\n'], (l) => l === 'go', limits);
 * // → [{ code: 'c.Query("id")\n', language: 'go', heading: 'Query strings', prose: ['Read one:'] }]
 */
export function docExamples(
  docs: readonly string[],
  accepts: (language: string) => boolean,
  limits: DocExampleLimits,
): DocExample[] {
  const examples: DocExample[] = [];
  let chars = 0;
  for (const doc of docs) {
    const tokens = markdownParser().parse(doc, {});
    let heading = '';
    let lead: string | undefined;
    let previous: { prose: string; end: number } | undefined;
    for (const [i, token] of tokens.entries()) {
      const opener = tokens[i - 1]?.type;
      if (token.type === 'inline' && opener === 'heading_open') {
        heading = inlineText(token);
        lead = undefined;
      } else if (token.type === 'inline' && opener === 'paragraph_open') {
        const prose = inlineText(token);
        // Only a top-level paragraph leads its section; one inside a list or a quote is one item's.
        if (lead === undefined && token.level === 1) lead = prose;
        previous = { prose, end: i + 1 };
      } else if (token.type === 'fence') {
        const language = token.info.trim().split(/\s+/)[0] ?? '';
        if (!accepts(language)) continue;
        if (examples.length >= limits.maxExamples || chars + token.content.length > limits.maxCodeChars) {
          return examples;
        }
        chars += token.content.length;
        const before = previous !== undefined && previous.end === i - 1 ? previous.prose : undefined;
        const prose = [lead, before].filter((p): p is string => p !== undefined);
        examples.push({ code: token.content, language, heading, prose: [...new Set(prose)] });
      }
    }
  }
  return examples;
}
