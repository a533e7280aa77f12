import { readDoc } from '@docs/search';
import { z } from 'zod';
import { unresolvedOf } from '../context.js';
import { renderUnresolved } from '../render.js';
import { libraryInput, versionInput } from '../schemas.js';
import { answer, type DocsTool, READ_ONLY } from '../tool.js';

const inputSchema = z.object({
  library: libraryInput,
  path: z.string().min(1).max(1000).describe('Page path, as a search result gives it ("guide/mocking.md").'),
  version: versionInput,
  tokens: z.number().int().min(100).max(20_000).default(5000).describe('Tokens of the page per part.'),
  offset: z.number().int().min(0).default(0).describe("Where to start: the previous part's nextOffset."),
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
    'Read a whole page by the library and path a search result gave: for a truncated result or the page around it.',
    'Long pages come in parts: call again with offset set to the nextOffset the answer gives.',
  ].join(' '),
  listsLibraries: false,
  inputSchema,
  outputSchema,
  // The page travels once, in the text the model reads.
  structuredForMcp: ({ content: _content, ...rest }) => rest,
  annotations: READ_ONLY,
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
