import { renderText, type SearchResponse } from '@docs/search';
import type { Unresolved } from './context.js';
import type { SearchOutput } from './schemas.js';

/**
 * The structured form of an answer whose text is renderSearch's: the same answer without each result's content,
 * which the text block carries under the result's header. Each section then travels once: the text is what a
 * model reads (every client shows `content`), the structured form what a program reads to find, page and cite.
 */
export function structuredSearchOutput(output: SearchOutput): SearchOutput {
  if (output.results.every((r) => r.content === undefined)) return output;
  return { ...output, results: output.results.map(({ content: _content, ...rest }) => rest) };
}

/** A search output for a library that could not be used. */
export function unresolvedOutput(error: Unresolved): SearchOutput {
  return {
    status: error.status,
    message: error.message,
    results: [],
    total: 0,
    totalTokens: 0,
    searched: [],
    query: { terms: [], match: 'none' },
    installed: [...error.installed],
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  };
}

/**
 * The text of a search answer for a model: renderText's markdown (one `##` header per result,
 * `## vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 0.93)`, and its content; the index format one line per
 * result), ending with the message and how to get more with this tool or read_doc.
 */
export function renderSearch(response: SearchResponse, tool: 'get_docs' | 'search_all'): string {
  return renderText(response, {
    layout: 'markdown',
    nextPage: (offset) => `call ${tool} again with offset ${offset}`,
    rest: 'read_doc has the rest',
    afterIndex: 'Read a page with read_doc (library, path), or search again with format "full".',
    sentEarlier: `Results marked "sent earlier" were sent in full earlier in this session and are not repeated: ${tool} with fresh: true sends them again.`,
  });
}

/** The text of an error about a library: the message names what is available and the closest name. */
export function renderUnresolved(error: {
  readonly message: string;
  readonly suggestion?: string | undefined;
}): string {
  const named = error.suggestion === undefined || error.message.includes(`"${error.suggestion}"`);
  if (named) return error.message;
  return `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} Retry with library "${error.suggestion}".`;
}
