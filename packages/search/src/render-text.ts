import { headingTrail } from './heading-trail.js';
import type { DocResult, PhrasingReport, RetrievalInfo, SearchResponse } from './results.js';

/**
 * How a surface shows a search response as text: the `docs` command prints `plain` text for a person at a
 * terminal, the MCP tools send `markdown` for a model. Each says in its own words how to get the next page.
 */
export type TextStyle = PlainTextStyle | MarkdownTextStyle;

/** Text for a terminal. */
export interface PlainTextStyle {
  /**
   * A rule heads each result (`── vitest@3.2.4 · Mocking > Timers · guide/mocking.md · score 0.93 · 412 tokens`),
   * a weak answer's message comes first, labels are lower case; the warnings are left to the caller (for stderr).
   */
  readonly layout: 'plain';
  /** How to ask for the page that starts at `offset`, e.g. `the same command with --offset 10`. */
  readonly nextPage: (offset: number) => string;
}

/** Text for a model. */
export interface MarkdownTextStyle {
  /**
   * A `##` header heads each result (`## vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 0.93)`), or a
   * `-` line each in the index format; the message is the closing sentence, the warnings notes after it.
   */
  readonly layout: 'markdown';
  /** How to ask for the page that starts at `offset`, e.g. `call get_docs again with offset 10`. */
  readonly nextPage: (offset: number) => string;
  /** Where the rest of a truncated result is, e.g. `read_doc has the rest`. */
  readonly rest: string;
  /** The index format's last sentence: how to read what it lists. */
  readonly afterIndex: string;
  /**
   * A sentence for an answer that lists sections sent earlier (SearchOptions.sent) by their header alone, e.g. how
   * to have them sent again. @default none
   */
  readonly sentEarlier?: string;
}

/**
 * A search response as text, the one rendering the CLI and the MCP tools share: each result's header (its
 * library, {@link headingTrail}, path and score) and content, or one line each in the index format; which phrasing
 * found which results; the message with the tokens and how to get the next page; and what answered, when there is
 * something to say about it (hybrid and its models, or why a library answered lexically). An empty response is its
 * message. No final newline.
 *
 * @example
 * const answer = await getDocs(store, 'vitest', 'fake timers');
 * console.log(renderText(answer, { layout: 'plain', nextPage: (offset) => `the same command with --offset ${offset}` }));
 */
export function renderText(response: SearchResponse, style: TextStyle): string {
  const notes = style.layout === 'markdown' ? (response.warnings ?? []).map((w) => `Note: ${w}`) : [];
  const retrieval = retrievalLines(response.retrieval, style);
  if (response.results.length === 0) return [response.message, ...notes, ...retrieval].join('\n');
  // In the full format a result without content is one sent earlier; the index format never marks one so.
  const index = response.results.every((r) => r.content === undefined && r.sentEarlier === undefined);
  // At a terminal a weak answer says so first, before results that look confident.
  const weakFirst = style.layout === 'plain' && response.confidence?.weak === true;
  const lines = weakFirst ? [response.message, ''] : [];
  for (const r of response.results) lines.push(...resultLines(r, index, style));
  if (index && style.layout === 'markdown') lines.push('');
  const found = phrasingsLine(response.phrasings, style);
  if (found) lines.push(found);
  lines.push(closing(response, index, weakFirst, style), ...notes, ...retrieval);
  return lines.join('\n');
}

function resultLines(r: DocResult, index: boolean, style: TextStyle): string[] {
  const label = `${r.library} · ${headingTrail(r).join(' > ')} · ${r.path}`;
  const score = r.score.toFixed(2);
  const earlier = r.sentEarlier ? ', sent earlier' : '';
  if (style.layout === 'plain') {
    const head = `── ${label} · score ${score} · ${r.tokens} tokens${r.truncated ? ' · truncated' : ''}${r.sentEarlier ? ' · sent earlier' : ''}`;
    return r.content === undefined ? [head] : [head, '', r.content, ''];
  }
  if (index) return [`- ${label} (score ${score}, ${r.tokens} tokens)`];
  // Its header alone: the caller has its content.
  if (r.content === undefined) return [`## ${label} (score ${score}${earlier})`, ''];
  return [`## ${label} (score ${score}${r.truncated ? `, truncated: ${style.rest}` : ''})`, '', r.content, ''];
}

/** One line naming what each phrasing found: `"lifespan events" → 1, 2; "startup" → none`. */
function phrasingsLine(phrasings: readonly PhrasingReport[] | undefined, style: TextStyle): string | undefined {
  // One phrasing found everything that was found: nothing to tell apart.
  if (!phrasings || phrasings.length < 2) return undefined;
  const parts = phrasings.map((p) => `"${p.text}" → ${p.results.length > 0 ? p.results.join(', ') : 'none'}`);
  return `${style.layout === 'plain' ? 'phrasings' : 'Phrasings'} found (result positions): ${parts.join('; ')}`;
}

/** The message (unless it came first), the tokens of the content and how to get the next page. */
function closing(response: SearchResponse, index: boolean, weakFirst: boolean, style: TextStyle): string {
  const { message, nextOffset, totalTokens } = response;
  if (style.layout === 'plain') {
    const more = nextOffset === undefined ? '' : `. More: ${style.nextPage(nextOffset)}`;
    return `${weakFirst ? '' : `${message}; `}${totalTokens} tokens${more}`;
  }
  const tokens = index ? '' : `; ${totalTokens} tokens`;
  const more = nextOffset === undefined ? '' : ` More: ${style.nextPage(nextOffset)}.`;
  const earlier = style.sentEarlier && response.results.some((r) => r.sentEarlier) ? ` ${style.sentEarlier}` : '';
  return `${message}${tokens}.${more}${earlier}${index ? ` ${style.afterIndex}` : ''}`;
}

/**
 * What answered, when there is something to say: hybrid and its models, or why a library answered lexically.
 * A plain lexical answer says nothing.
 */
function retrievalLines(retrieval: RetrievalInfo, style: TextStyle): string[] {
  const { mode, embedder, reranker, notes = [] } = retrieval;
  const models = [embedder ? `embedder ${embedder}` : '', reranker ? `re-ranked by ${reranker}` : ''].filter(Boolean);
  if (models.length === 0 && notes.length === 0) return [];
  const what = `${mode}${models.length > 0 ? ` (${models.join(', ')})` : ''}`;
  if (style.layout === 'plain') return [`retrieval: ${what}`, ...notes.map((n) => `  ${n}`)];
  return [`Retrieval: ${what}.`, ...notes.map((n) => `- ${n}`)];
}
