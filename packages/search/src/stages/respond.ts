import { confidenceOf, weakNote } from '../confidence.js';
import type { Retrieval } from '../hybrid.js';
import type { LibraryError } from '../library-scope.js';
import type { ResolvedOptions } from '../options.js';
import type { Confidence, DocResult, PhrasingReport, RetrievalInfo, SearchResponse } from '../results.js';
import type { AnalysedQuestion, Phrasing } from './analyse.js';
import type { Gathered } from './gather.js';
import type { Group, Paged } from './page.js';

/**
 * Stage 6: the response for a page of results: its one-line message (a weak
 * answer says so first), how much of the question it holds, and with
 * alternatives which phrasing found what.
 */
export function respond(
  question: AnalysedQuestion,
  gathered: Gathered,
  match: 'all' | 'some',
  paged: Paged,
  retrieval: Retrieval,
  options: ResolvedOptions,
): SearchResponse {
  const { phrasings, terms } = question;
  const { information, mentioned } = gathered;
  const { ranked, page, results, totalTokens, nextOffset: next } = paged;
  const searched = gathered.answering.map((t) => t.label);
  const extra = warningsOf(question, gathered);
  // How good the answer is, from the first page: what a caller reads first.
  const firstPage = ranked.slice(0, Math.max(options.limit, 1));
  const { byPhrasing, ...confidence } = confidenceOf(firstPage, phrasings, information, mentioned, options.weakBelow);
  const weak = confidence.weak && results.length > 0 ? `${weakNote(confidence, results[0] as DocResult)}. ` : '';
  const shownSections = results.reduce((sum, r) => sum + (r.sections?.length ?? 1), 0);
  const inBlocks =
    shownSections > results.length ? `, shown as ${results.length} (sections that follow each other joined)` : '';
  const sentEarlier = results.filter((r) => r.sentEarlier).length;
  const earlier = sentEarlier > 0 ? `, ${sentEarlier} of them sent earlier` : '';
  const message =
    results.length > 0
      ? `${weak}${shownSections} of ${ranked.length} results${inBlocks}${earlier} from ${searched.length === 1 ? searched[0] : `${new Set(results.map((r) => r.library)).size} of ${searched.length} libraries`}${match === 'some' ? ' (no section holds every word; ranked by how many they hold)' : ''}`
      : `No results at offset ${options.offset}: there are ${ranked.length}.`;
  return {
    status: 'ok',
    message,
    results,
    total: ranked.length,
    totalTokens,
    ...(next === undefined ? {} : { nextOffset: next }),
    searched,
    query: { terms, match },
    confidence,
    retrieval: retrieval.info(),
    ...extra,
    ...(phrasings.length > 1 ? { phrasings: phrasingReports(page, phrasings, byPhrasing, options.offset) } : {}),
  };
}

/** The answer to a topic with no words to search for. */
export function noWords(
  question: AnalysedQuestion,
  libraries: readonly string[],
  retrieval: Retrieval,
): SearchResponse {
  return empty(
    'no-match',
    `The topic "${shorten(question.topic)}" has no words to search for. Use words, an API name or an error message.`,
    libraries,
    question.terms,
    'none',
    { retrieval: retrieval.info(), ...(question.warnings.length > 0 ? { warnings: question.warnings } : {}) },
  );
}

/** The answer when no section of the libraries searched holds any of the words. */
export function nothingMatched(
  question: AnalysedQuestion,
  gathered: Gathered,
  retrieval: Retrieval,
  options: ResolvedOptions,
): SearchResponse {
  const { phrasings, terms } = question;
  const searched = gathered.answering.map((t) => t.label);
  const where = gathered.answering.length === 1 ? searched[0] : `the ${gathered.answering.length} libraries searched`;
  return empty(
    'no-match',
    `Nothing in ${where} matched "${shorten(question.topic)}". Try fewer or other words: an API name, a config key or an error message.`,
    searched,
    terms,
    'none',
    {
      retrieval: retrieval.info(),
      confidence: withoutPhrasings(
        confidenceOf([], phrasings, gathered.information, gathered.mentioned, options.weakBelow),
      ),
      ...warningsOf(question, gathered),
    },
  );
}

/** What the caps cut, then the libraries left out, when there is any of either. */
function warningsOf(question: AnalysedQuestion, gathered: Gathered): { warnings?: readonly string[] } {
  const warnings = [...question.warnings, ...gathered.warnings];
  return warnings.length > 0 ? { warnings } : {};
}

/** What each phrasing found on the page returned, by 1-based position. */
function phrasingReports(
  page: readonly Group[],
  phrasings: readonly Phrasing[],
  strengths: readonly number[],
  offset: number,
): PhrasingReport[] {
  return phrasings.map((p, i) => ({
    text: p.text,
    terms: [...p.terms],
    strength: strengths[i] ?? 0,
    results: page.flatMap((g, position) => (g.held[i] === undefined ? [] : [offset + position + 1])),
  }));
}

/** A topic as a message quotes it: a pasted page is not repeated back whole. */
function shorten(topic: string): string {
  return topic.length <= 200 ? topic : `${topic.slice(0, 200)}…`;
}

function empty(
  status: SearchResponse['status'],
  message: string,
  searched: readonly string[],
  terms: readonly string[],
  match: 'none',
  extra: Partial<SearchResponse> = {},
): SearchResponse {
  return {
    status,
    message,
    results: [],
    total: 0,
    totalTokens: 0,
    searched,
    query: { terms, match },
    retrieval: LEXICAL,
    ...extra,
  };
}

/** What answered a search that never reached a retriever. */
const LEXICAL: RetrievalInfo = { mode: 'lexical' };

/** Puts what the caller should know about how a library was chosen (a prerelease for a range) first in the message. */
export function withNotes(response: SearchResponse, notes: readonly string[]): SearchResponse {
  return notes.length === 0 ? response : { ...response, message: `${notes.join('; ')}. ${response.message}` };
}

function withoutPhrasings({ byPhrasing: _, ...confidence }: Confidence & { byPhrasing: unknown }): Confidence {
  return confidence;
}

/** The answer for a library that could not be used: its status, the message library-scope.ts wrote, and what there is. */
export function unresolved(error: LibraryError): SearchResponse {
  if (error.code === 'no-packages') return empty('no-packages', error.message, [], [], 'none');
  return empty(error.code, error.message, [], [], 'none', {
    installed: error.installed,
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  });
}
