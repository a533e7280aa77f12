import { readDoc } from '@docs/search';
import { z } from 'zod';
import { unresolvedOf } from '../context.js';
import { renderUnresolved } from '../render.js';
import { libraryInput, versionInput } from '../schemas.js';
import { answer, type DocsTool, READ_ONLY } from '../tool.js';

const inputSchema = z.object({
  library: libraryInput,
  path: z
    .string()
    .min(1)
    .max(1000)
    .describe(
      'Document path inside the library, as a search result gives it, e.g. "guide/mocking.md" (the extension may be left out).',
    ),
  version: versionInput,
  tokens: z
    .number()
    .int()
    .min(100)
    .max(20_000)
    .default(5000)
    .describe('At most this many tokens of the page (100 to 20000). Default 5000. Longer pages come in parts.'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Character offset to start at: the nextOffset of the previous part. Default 0 (the start of the page).'),
});

const outputSchema = z.object({
  status: z.enum(['ok', 'no-packages', 'unknown-library', 'unknown-version', 'unknown-path']),
  message: z.string().describe('What was read, or why nothing was and what to try next'),
  library: z.string().optional().describe('name@version the page comes from'),
  path: z.string().optional().describe('Path of the page'),
  title: z.string().optional().describe('Title of the page'),
  content: z
    .string()
    .optional()
    .describe(
      "Markdown of the page, or of this part of it. Sent once, in the reply's text block under the page's header, and left out here",
    ),
  tokens: z.number().int().describe('Tokens of the content'),
  offset: z.number().int().describe('Character offset this part starts at'),
  nextOffset: z.number().int().optional().describe('Where the next part starts; absent at the end of the page'),
  suggestions: z.array(z.string()).optional().describe('Paths close to the one asked for, when it is unknown'),
  installed: z.array(z.string()).optional().describe('Libraries available, when the one asked for is not'),
  suggestion: z.string().optional().describe('The closest available library, when the one asked for is unknown'),
});

/** `read_doc`: one whole page, reassembled, in parts when long. */
export const readDocTool: DocsTool<typeof inputSchema, typeof outputSchema> = {
  name: 'read_doc',
  title: 'Read a documentation page',
  description: [
    'Read one whole documentation page of a library, by the path a get_docs or search_all result gave (e.g. "guide/mocking.md").',
    'Use it when a search result is truncated or you need the surrounding page: every section, code examples and all, in order.',
    'Long pages come in parts: when the answer has nextOffset, call again with offset set to it for the next part.',
  ].join(' '),
  listsLibraries: false,
  inputSchema,
  outputSchema,
  // The page travels once, in the text the model reads.
  structuredForMcp: ({ content: _content, ...rest }) => rest,
  annotations: { title: 'Read a documentation page', ...READ_ONLY },
  async handler(args, context) {
    // The search resolves the library within the server's scope; the page is looked up inside the package, never
    // on disk, so no path reaches outside it.
    const page = await readDoc(context.store, args.library, args.path, {
      ...(args.version === undefined ? {} : { version: args.version }),
      ...(context.libraries ? { scope: context.libraries } : {}),
      tokens: args.tokens,
      offset: args.offset,
    });
    const unresolved = unresolvedOf(page);
    if (unresolved) {
      const { status, message, installed, suggestion } = unresolved;
      const output = { status, message, content: '', tokens: 0, offset: args.offset, installed: [...installed] };
      return answer(suggestion ? { ...output, suggestion } : output, renderUnresolved(unresolved), true);
    }
    const output = {
      ...page,
      ...(page.suggestions ? { suggestions: [...page.suggestions] } : {}),
      ...(page.installed ? { installed: [...page.installed] } : {}),
    };
    if (page.status !== 'ok') return answer(output, page.message, true);
    const header = `# ${page.title} (${page.library} · ${page.path})`;
    const more =
      page.nextOffset === undefined
        ? ''
        : `\n\n(Part of the page, ${page.tokens} tokens. Continue with read_doc offset ${page.nextOffset}.)`;
    return answer(output, `${header}\n\n${page.content}${more}`);
  },
};
