import { headingTrail, type SearchResponse } from '@docs/search';
import type { Unresolved } from './context.js';
import { renderPhrasings } from './phrasings.js';
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
 * Compact text for a model: one header per result
 * (`## vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 0.93)`) and its
 * content; the index format is one line per result. Ends with the message
 * and how to get more.
 */
export function renderSearch(output: SearchResponse, tool: 'get_docs' | 'search_all'): string {
  const warnings = (output.warnings ?? []).map((w) => `Note: ${w}`);
  if (output.results.length === 0) return [output.message, ...warnings, ...retrievalText(output)].join('\n');
  const lines: string[] = [];
  const index = output.results.every((r) => r.content === undefined);
  for (const r of output.results) {
    const head = `${r.library} · ${headingTrail(r).join(' > ')} · ${r.path} (score ${r.score.toFixed(2)}`;
    if (index) {
      lines.push(`- ${head}, ${r.tokens} tokens)`);
      continue;
    }
    lines.push(`## ${head}${r.truncated ? ', truncated: read_doc has the rest' : ''})`, '', r.content ?? '', '');
  }
  if (index) lines.push('');
  const found = renderPhrasings(output.phrasings);
  if (found) lines.push(found);
  const more = output.nextOffset === undefined ? '' : ` More: call ${tool} again with offset ${output.nextOffset}.`;
  const tokens = index ? '' : `; ${output.totalTokens} tokens`;
  const next = index ? ' Read a page with read_doc (library, path), or search again with format "full".' : '';
  lines.push(`${output.message}${tokens}.${more}${next}`, ...warnings, ...retrievalText(output));
  return lines.join('\n');
}

/** What answered, when there is something to say: hybrid and its models, or why a library answered lexically. */
function retrievalText(output: SearchResponse): string[] {
  const retrieval = output.retrieval;
  const notes = retrieval.notes ?? [];
  const models = [
    retrieval.embedder ? `embedder ${retrieval.embedder}` : '',
    retrieval.reranker ? `re-ranked by ${retrieval.reranker}` : '',
  ].filter(Boolean);
  if (models.length === 0 && notes.length === 0) return [];
  return [
    `Retrieval: ${retrieval.mode}${models.length > 0 ? ` (${models.join(', ')})` : ''}.`,
    ...notes.map((n) => `- ${n}`),
  ];
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
