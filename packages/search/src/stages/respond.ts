import { confidenceOf, weakNote } from '../confidence.js';
import type { LibraryError } from '../library-scope.js';
import type { Paging } from '../options.js';
import type { RankingConfig } from '../ranking.js';
import type { DocResult, PhrasingReport, RetrievalInfo, SearchResponse } from '../results.js';
import type { AnalyzedQuestion, Phrasing } from './analyze.js';
import type { Gathered } from './gather.js';
import type { Group, Paged } from './page.js';

/**
 * Stage 6: the response for a page of results (undefined: no section holds any
 * of the words): its one-line message (a weak answer says so first), how much
 * of the question it holds, and with alternatives which phrasing found what.
 */
export function respond(
  question: AnalyzedQuestion,
  gathered: Gathered,
  paged: Paged | undefined,
  retrieval: RetrievalInfo,
  ranking: RankingConfig,
  paging: Paging,
): SearchResponse {
  const { phrasings, terms } = question;
  const { information, mentioned, match } = gathered;
  const searched = gathered.answering.map((t) => t.label);
  const extra = warningsOf(question, gathered);
  const nothing = paged === undefined ? nothingMatched(question, searched, retrieval) : undefined;
  const found = paged === undefined ? [] : foundBy(paged.page, phrasings, paging.offset);
  // How good the answer is, from the first page: what a caller reads first.
  const firstPage = paged === undefined ? [] : paged.ranked.slice(0, Math.max(paging.limit, 1));
  const { byPhrasing, ...confidence } = confidenceOf(firstPage, phrasings, information, mentioned, ranking.weakBelow);
  // Without a page, `nothing` is the answer (made above, as every local step comes before the confidence).
  if (paged === undefined) return { ...(nothing as SearchResponse), confidence, ...extra };
  const { ranked, results, totalTokens, shown } = paged;
  const { lowerBound } = gathered;
  // A library left unopened may hold more after this page: the next one is offered.
  const next = paged.nextOffset ?? (lowerBound && shown > 0 ? paging.offset + shown : undefined);
  const atLeast = lowerBound ? 'at least ' : '';
  const weak = confidence.weak && results.length > 0 ? `${weakNote(confidence, results[0] as DocResult)}. ` : '';
  const shownSections = results.reduce((sum, r) => sum + (r.sections?.length ?? 1), 0);
  const inBlocks =
    shownSections > results.length ? `, shown as ${results.length} (sections that follow each other joined)` : '';
  const sentEarlier = results.filter((r) => r.sentEarlier).length;
  const earlier = sentEarlier > 0 ? `, ${sentEarlier} of them sent earlier` : '';
  const message =
    results.length > 0
      ? `${weak}${shownSections} of ${atLeast}${ranked.length} results${inBlocks}${earlier} from ${searched.length === 1 ? searched[0] : `${new Set(results.map((r) => r.library)).size} of ${searched.length} libraries`}${match === 'some' ? ' (no section holds every word; ranked by how many they hold)' : ''}`
      : `No results at offset ${paging.offset}: there are ${atLeast}${ranked.length}.`;
  return {
    status: 'ok',
    message,
    results,
    total: ranked.length,
    ...(lowerBound ? { totalIsLowerBound: true as const } : {}),
    totalTokens,
    ...(next === undefined ? {} : { nextOffset: next }),
    searched,
    query: { terms, match },
    confidence,
    retrieval,
    ...extra,
    ...(phrasings.length > 1
      ? {
          phrasings: phrasings.map(
            (p, i): PhrasingReport => ({
              text: p.text,
              terms: [...p.terms],
              strength: byPhrasing[i] ?? 0,
              results: found[i] ?? [],
            }),
          ),
        }
      : {}),
  };
}

/** The answer to a topic with no words to search for. */
export function noWords(
  question: AnalyzedQuestion,
  libraries: readonly string[],
  retrieval: RetrievalInfo,
): SearchResponse {
  return empty(
    'no-match',
    `The topic "${shorten(question.topic)}" has no words to search for. Use words, an API name or an error message.`,
    libraries,
    question.terms,
    'none',
    { retrieval, ...(question.warnings.length > 0 ? { warnings: question.warnings } : {}) },
  );
}

/** The answer when no section of the libraries searched holds any of the words, before its confidence and warnings. */
function nothingMatched(
  question: AnalyzedQuestion,
  searched: readonly string[],
  retrieval: RetrievalInfo,
): SearchResponse {
  const where = searched.length === 1 ? searched[0] : `the ${searched.length} libraries searched`;
  return empty(
    'no-match',
    `Nothing in ${where} matched "${shorten(question.topic)}". Try fewer or other words: an API name, a config key or an error message.`,
    searched,
    question.terms,
    'none',
    { retrieval },
  );
}

/** What the caps cut, then the libraries left out, when there is any of either. */
function warningsOf(question: AnalyzedQuestion, gathered: Gathered): { warnings?: readonly string[] } {
  const warnings = [...question.warnings, ...gathered.warnings];
  return warnings.length > 0 ? { warnings } : {};
}

/** Per phrasing, the positions (1-based, counting from the first page) of the page's results it found. */
function foundBy(page: readonly Group[], phrasings: readonly Phrasing[], offset: number): number[][] {
  return phrasings.map((_, i) =>
    page.flatMap((g, position) => (g.held[i] === undefined ? [] : [offset + position + 1])),
  );
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

/** The answer for a library that could not be used: its status, the message library-scope.ts wrote, and what there is. */
export function unresolved(error: LibraryError): SearchResponse {
  if (error.code === 'no-packages') return empty('no-packages', error.message, [], [], 'none');
  return empty(error.code, error.message, [], [], 'none', {
    installed: error.installed,
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  });
}
