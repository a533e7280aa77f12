import { type DocsTool, type DocsToolContext, docsTools } from '@docs/mcp';
import { pageWebAddress } from '@docs/sources';
import { z } from 'zod';

// The JSON API as data: each route's query parameters map to the fields of the
// MCP tool that answers it, so the handler (api.ts) and the OpenAPI document
// (openapi.ts) read the same schemas the tools already use.

/** One query parameter: its name in the URL and the tool input field it fills. */
export interface ApiParam {
  readonly name: string;
  /** The field of the tool's input schema this parameter carries. */
  readonly field: string;
  /** The tool whose input schema defines the field. */
  readonly tool: DocsTool;
  readonly required: boolean;
  /** May be given more than once (`library=a&library=b`); the field is then an array. */
  readonly repeated?: boolean;
}

/** One GET endpoint answered by MCP tools. */
export interface ApiRoute {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly params: readonly ApiParam[];
  /** Picks the tool for a request and builds its arguments from the parameters (already split by name). */
  readonly plan: (params: ReadonlyMap<string, readonly string[] | string>) => {
    tool: DocsTool;
    args: Record<string, unknown>;
  };
  /** The tool whose output schema describes a 200 answer. */
  readonly answeredBy: DocsTool;
  /** The name of that answer's schema in the OpenAPI document. */
  readonly responseName: string;
  /** Fields the server adds to a successful answer, which the tool does not know of (the OpenAPI document lists them). */
  readonly extra?: ApiExtra;
}

/** What a route adds to its tool's answer: the fields' schema, and how to make them. */
export interface ApiExtra {
  readonly schema: z.ZodObject;
  readonly add: (
    answer: Readonly<Record<string, unknown>>,
    context: DocsToolContext,
  ) => Promise<Record<string, unknown>>;
}

/** A tool by name; a missing one is a bug in this file, not in a request. */
function tool(name: string): DocsTool {
  const found = docsTools.find((t) => t.name === name);
  if (!found) throw new Error(`@docs/mcp has no tool ${name}`);
  return found;
}

const listLibraries = tool('list_libraries');
const getDocs = tool('get_docs');
const searchAll = tool('search_all');
const readDoc = tool('read_doc');

/** Copies the given parameters into tool arguments under their field names. */
function fields(params: ReadonlyMap<string, readonly string[] | string>, names: readonly ApiParam[]) {
  const args: Record<string, unknown> = {};
  for (const p of names) {
    const value = params.get(p.name);
    if (value !== undefined) args[p.field] = value;
  }
  return args;
}

const searchParams: readonly ApiParam[] = [
  { name: 'q', field: 'topic', tool: searchAll, required: true },
  { name: 'library', field: 'libraries', tool: searchAll, required: false, repeated: true },
  { name: 'tokens', field: 'tokens', tool: searchAll, required: false },
  { name: 'limit', field: 'limit', tool: searchAll, required: false },
  { name: 'offset', field: 'offset', tool: searchAll, required: false },
  { name: 'format', field: 'format', tool: searchAll, required: false },
  { name: 'also', field: 'alternatives', tool: searchAll, required: false, repeated: true },
  { name: 'mode', field: 'mode', tool: searchAll, required: false },
];

const readParams: readonly ApiParam[] = [
  { name: 'library', field: 'library', tool: readDoc, required: true },
  { name: 'path', field: 'path', tool: readDoc, required: true },
  { name: 'tokens', field: 'tokens', tool: readDoc, required: false },
  { name: 'offset', field: 'offset', tool: readDoc, required: false },
];

/** The endpoints under /api, in the order the OpenAPI document lists them. */
export const apiRoutes: readonly ApiRoute[] = [
  {
    path: '/api/libraries',
    operationId: 'listLibraries',
    summary: 'Installed libraries',
    description: 'The libraries this server answers from: name, version, description, sections, tokens and size.',
    params: [],
    plan: () => ({ tool: listLibraries, args: {} }),
    answeredBy: listLibraries,
    responseName: 'LibrariesResponse',
  },
  {
    path: '/api/search',
    operationId: 'search',
    summary: 'Search one library or several',
    description:
      'One `library` searches that library (a name, name@version or a range); several, or none, search those or every installed library and merge the answers. The answer is the MCP tools’ structuredContent.',
    params: searchParams,
    plan(params) {
      const args = fields(params, searchParams);
      const libraries = args.libraries as readonly string[] | undefined;
      if (libraries?.length === 1) {
        const { libraries: _, ...rest } = args;
        return { tool: getDocs, args: { ...rest, library: libraries[0] } };
      }
      return { tool: searchAll, args };
    },
    answeredBy: searchAll,
    responseName: 'SearchResponse',
  },
  {
    path: '/api/read',
    operationId: 'read',
    summary: 'Read a whole page',
    description:
      'A whole page by the path a search result gave; long pages come in parts (`nextOffset` says where the next starts).',
    params: readParams,
    plan: (params) => ({ tool: readDoc, args: fields(params, readParams) }),
    answeredBy: readDoc,
    responseName: 'ReadResponse',
    extra: {
      schema: z.object({
        webUrl: z
          .string()
          .optional()
          .describe(
            "The page on the web, at the commit its package was built from, when the package's source is a repository on a known host (GitHub, GitLab, Bitbucket, sourcehut)",
          ),
      }),
      add: pageOnTheWeb,
    },
  },
];

/**
 * Where a page that was read lives on the web, from its package's recorded source. The package was resolved within
 * the server's scope by read_doc already (the answer names it exactly); its source is only read, never followed.
 */
async function pageOnTheWeb(answer: Readonly<Record<string, unknown>>, context: DocsToolContext) {
  const { library, path } = answer;
  if (typeof library !== 'string' || typeof path !== 'string') return {};
  const resolved = await context.store.resolve(library);
  if (!resolved.ok) return {};
  const { source } = await context.store.reader(resolved.value).info();
  const webUrl = pageWebAddress(source, path);
  return webUrl ? { webUrl } : {};
}

/** The body of every error answer of the JSON API. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string().describe('What went wrong, as a stable word: bad-request, unknown-library, unknown-path, …'),
    message: z.string().describe('What went wrong and what to do about it'),
    installed: z
      .array(z.string())
      .optional()
      .describe('Libraries available (name@version), when the one asked for is not'),
    suggestion: z.string().optional().describe('The closest available library, when the one asked for is unknown'),
    suggestions: z.array(z.string()).optional().describe('Paths close to the one asked for, when it is unknown'),
  }),
});
