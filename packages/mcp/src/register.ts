import { classify } from '@docs/errors';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type DocsToolContext, servedLatest } from './context.js';
import { type DocsTool, failure } from './tool.js';
import { getDocsTool } from './tools/get-docs.js';
import { listLibrariesTool } from './tools/list-libraries.js';
import { readDocTool } from './tools/read-doc.js';
import { searchAllTool } from './tools/search-all.js';

/** The tools, in the order clients list them. */
export const docsTools: readonly DocsTool[] = [listLibrariesTool, getDocsTool, searchAllTool, readDocTool];

/** What registerDocsTools hands back. */
export interface DocsTools {
  /**
   * Re-reads the store and, when the libraries served have changed, updates
   * the descriptions that list them, which tells connected clients the tool
   * list changed. Returns whether it changed. Every tool call runs it.
   */
  refresh(): Promise<boolean>;
}

/**
 * How many library names, and characters of them, a description lists before it points to list_libraries: every session
 * pays for the list before its first question, so past these it stops growing. Names only; list_libraries has
 * versions.
 */
const NAMED_LIBRARIES = { count: 20, characters: 200 };

/**
 * Registers list_libraries, get_docs, search_all and read_doc on an MCP server.
 * The tools read `context.store` on every call, so packages added or removed
 * while the server runs are seen by the next call; `context.libraries`
 * restricts the server to some libraries.
 *
 * @example
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * const tools = await registerDocsTools(server, { store: new PackageStore(resolveHome()) });
 * await server.connect(new StdioServerTransport());
 */
export async function registerDocsTools(server: McpServer, context: DocsToolContext): Promise<DocsTools> {
  let libraries = await librariesLine(context);
  const registered = new Map<DocsTool, RegisteredTool>();
  const refresh = async (): Promise<boolean> => {
    const now = await librariesLine(context);
    if (now === libraries) return false;
    libraries = now;
    // Set in place and announced once: handle.update() would announce every tool's change on its own.
    for (const [tool, handle] of registered) handle.description = describe(tool, libraries);
    // Not McpServer.sendToolListChanged(), which drops the promise: a transport closing meanwhile would reject it unhandled.
    if (server.isConnected()) await server.server.sendToolListChanged().catch(() => undefined);
    return true;
  };
  for (const tool of docsTools) {
    const handle = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: describe(tool, libraries),
        inputSchema: tool.inputSchema,
        // A tool that declares an output schema must answer with structuredContent (the MCP spec), so both or neither.
        ...(context.structuredContent ? { outputSchema: tool.outputSchema } : {}),
        annotations: tool.annotations,
      },
      async (args: unknown, extra: CallExtra): Promise<CallToolResult> => {
        try {
          context.builds?.check();
          const sent = context.memory?.(sessionOf(extra));
          // The SDK has parsed `args` with this tool's inputSchema, defaults filled in.
          const result = await tool.handler(args as never, context, sent ? { sent } : {});
          return forMcp(tool, result, context.structuredContent === true);
        } catch (error) {
          context.onError?.(error, tool.name);
          return failure(explain(tool, error));
        } finally {
          await refresh().catch(() => false);
        }
      },
    );
    registered.set(tool, handle);
  }
  return { refresh };
}

/** What the SDK tells a tool handler of its request, as far as the session goes. */
interface CallExtra {
  readonly sessionId?: string | undefined;
  readonly requestInfo?: { readonly headers: Readonly<Record<string, string | string[] | undefined>> } | undefined;
}

/**
 * The session a call belongs to: the transport's session id (the SDK's stateful transports), else the
 * `Mcp-Session-Id` header its HTTP request carried (a server that answers each request on its own but hands out
 * session ids); undefined for stdio and sessionless HTTP.
 */
function sessionOf(extra: CallExtra): string | undefined {
  if (extra.sessionId) return extra.sessionId;
  const header = extra.requestInfo?.headers['mcp-session-id'];
  const id = Array.isArray(header) ? header[0] : header;
  return id === '' ? undefined : id;
}

/**
 * The result as MCP sends it: its text alone, or with `structured` the tool's own structured form for MCP (when it
 * has one) beside it.
 */
function forMcp(tool: DocsTool, result: CallToolResult, structured: boolean): CallToolResult {
  if (result.structuredContent === undefined) return result;
  if (!structured) {
    const { structuredContent: _structured, ...text } = result;
    return text;
  }
  if (!tool.structuredForMcp) return result;
  return { ...result, structuredContent: tool.structuredForMcp(result.structuredContent as never) };
}

function describe(tool: DocsTool, libraries: string): string {
  return tool.listsLibraries ? `${tool.description}\n\n${libraries}` : tool.description;
}

/** The line that tells the model which libraries it can ask about. */
async function librariesLine(context: DocsToolContext): Promise<string> {
  // A store that cannot be read now may be readable at the next call, which says why if not.
  const served = await servedLatest(context).then(
    (packages) => packages.map((p) => p.name),
    () => [],
  );
  if (served.length === 0) return 'No libraries are installed yet; list_libraries shows them once some are added.';
  const named: string[] = [];
  let characters = 0;
  for (const name of served) {
    // A name is at most 214 characters (the store's limit, npm's), so the first always fits.
    characters += name.length + 2;
    if (named.length === NAMED_LIBRARIES.count || (named.length > 0 && characters > NAMED_LIBRARIES.characters)) break;
    named.push(name);
  }
  const rest = served.length > named.length ? `, and ${served.length - named.length} more` : '';
  return `Libraries: ${named.join(', ')}${rest} (versions: list_libraries).`;
}

/**
 * The one error policy (classify): bad arguments are the caller's to fix; what
 * is the user's, a tool call meets in the store (a damaged or stale package,
 * a home it cannot read: a model that fails leaves a lexical answer with a
 * note); anything else is a bug, said plainly. A RangeError from a ranking
 * function comes from data, and blaming the arguments would send the agent retrying.
 */
function explain(tool: DocsTool, error: unknown): string {
  const { blame, message } = classify(error);
  if (blame === 'caller') return `Invalid arguments for ${tool.name}: ${message}`;
  if (blame === 'user') return `${tool.name} could not read the documentation store: ${message}`;
  return `${tool.name} failed unexpectedly (a bug in the docs server, please report it): ${message}`;
}
