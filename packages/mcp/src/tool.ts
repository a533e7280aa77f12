import type { SentSections } from '@docs/search';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { DocsToolContext } from './context.js';

/** What a handler knows of the call beyond its arguments. */
export interface ToolCall {
  /** What this call's session was sent in full before (see DocsToolContext.memory); absent: answer in full. */
  readonly sent?: SentSections;
}

/**
 * One MCP tool as data: what the model reads (name, title, description, the
 * schemas, annotations) and a small handler. The handler returns a result for
 * every outcome it expects, `isError` included; registerDocsTools turns
 * anything it throws into an `isError` result too.
 */
export interface DocsTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  /** Written for the model: when to use the tool and what a good argument looks like. */
  readonly description: string;
  /** True when the description ends with the libraries this server serves (and so changes with them): one tool's is enough. */
  readonly listsLibraries: boolean;
  readonly inputSchema: Input;
  /** The structured form's schema: declared over MCP when the context asks for `structuredContent`; the HTTP API's answers. */
  readonly outputSchema: Output;
  readonly annotations: ToolAnnotations;
  readonly handler: (args: z.output<Input>, context: DocsToolContext, call?: ToolCall) => Promise<CallToolResult>;
  /**
   * The structured form MCP sends beside the text, when it is less than the handler's: what the text block
   * already carries is left out, so it travels once. The HTTP API answers with the handler's whole form.
   */
  readonly structuredForMcp?: (structured: z.output<Output>) => z.output<Output>;
}

/**
 * Every tool here only reads the local store. The MCP spec gives destructiveHint and idempotentHint a meaning only
 * when readOnlyHint is false, so they are left out: every session pays for tools/list.
 */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** A result with its structured form and a compact text rendering of it. */
export function answer(structured: object, text: string, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: structured as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/** An error result with only text, for failures that have no structured form. */
export function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
