import { SearchOptionError } from './errors.js';
import type { LibraryScope } from './library-scope.js';
import type { SearchModels } from './models.js';
import { type RankingConfig, resolveRanking } from './ranking.js';
import type { SentSections } from './sent-sections.js';

/** `lexical`: BM25 alone. `hybrid`: BM25 and vector similarity fused, where a package has vectors and their model is here. */
export type RetrievalMode = 'lexical' | 'hybrid';

/** `full` returns each result's content; `index` everything but the content. */
export type ResultFormat = 'full' | 'index';

/** What a caller chooses, with its default where it has one ({@link SEARCH_DEFAULTS}). */
export interface SearchOptions {
  /** Token budget over the content of all results; 0 means no budget. Ignored for `index`. @default SEARCH_DEFAULTS.tokens (2000) */
  readonly tokens?: number;
  /** Results per page. @default SEARCH_DEFAULTS.limit (10) */
  readonly limit?: number;
  /** Results to skip, for paging. @default 0 */
  readonly offset?: number;
  /** @default 'full' */
  readonly format?: ResultFormat;
  /**
   * Which retrieval answers. Unset: hybrid for each library whose package has vectors and whose embedder `models`
   * gives, lexical for the others. `lexical` never reads a vector; `hybrid` asks for vectors everywhere and says in
   * `retrieval.notes` where there were none. @default hybrid where possible
   */
  readonly mode?: RetrievalMode;
  /** Where the query embedder and the re-ranker come from (see heldModels); none → lexical. @default none */
  readonly models?: SearchModels;
  /** Let the re-ranker of `models`, if it has one, reorder the first results. @default true */
  readonly rerank?: boolean;
  /** Stops embedding and re-ranking calls (an endpoint that hangs). @default none */
  readonly signal?: AbortSignal;
  /**
   * Other phrasings of the topic (at most 4, each at most 200 characters), e.g. the docs' own terms for
   * what the topic says in plain words ("lifespan events" for "run code when the app starts"). Each is
   * searched in every library on the same connection, and the lists are fused before the libraries are
   * merged, so the answer is one list under one budget. @default none
   */
  readonly alternatives?: readonly string[];
  /**
   * What the caller was sent in full before (an MCP session's memory): in the full format each section it holds is
   * listed without its content (`sentEarlier`) and costs nothing against the budget, and each section sent in full
   * now is added to it; the index format sends no content and is unchanged. Paging is unchanged: such a section
   * still counts toward `limit`, `offset` and `total`. @default none
   */
  readonly sent?: SentSections;
  /**
   * Ranking knobs other than their defaults ({@link RANKING_KNOBS} says what each does): for evaluating a
   * change before it becomes a default. @default RANKING_DEFAULTS
   */
  readonly ranking?: Partial<RankingConfig>;
}

/**
 * The defaults of what a caller chooses, written here once: the MCP tools' schemas, the CLI's flags and the
 * benchmark read them. (`@docs/rank`'s tokenBudget has a default budget of its own, as a library published alone;
 * a search always passes its budget.)
 *
 * `tokens`: decided on questions that did not shape the ranking (issue 42, `pnpm eval --budgets`, 2026-11-27): on the
 * unbiased set (apps/eval/sets/unbiased, 93 questions) a correct section is inside the answer for 69.9% of the
 * questions at 1,500 tokens and 74.2% at 2,000 (with their phrasings 86.0 → 91.4%; 2,500 adds one question more with
 * phrasings, four without); the external set (89.6%; 95.8% with phrasings) and the typical project (87.3%) are the same
 * at both. Answers at 2,000 take about a third more tokens where there is more to say (median 1,279 → 1,766 on the
 * unbiased set, 899 → 937 in the typical project). The dev set, tuned on, said 1,500 (docs/ranking.md).
 */
export const SEARCH_DEFAULTS = Object.freeze({
  tokens: 2000,
  limit: 10,
  offset: 0,
  format: 'full' as ResultFormat,
  rerank: true,
});

/** Options of searchAll. */
export interface SearchAllOptions extends SearchOptions {
  /** Restrict the search to these libraries (`name` or `name@version`). @default every installed library, highest version of each */
  readonly libraries?: readonly string[];
  /**
   * The versions the project being worked on installs, by lower-case library name: each library (and each bare
   * name in `libraries`) is searched at that version when it is installed, else at the highest.
   */
  readonly projectVersions?: ReadonlyMap<string, string>;
  /**
   * Only these libraries may be searched (see LibraryScope): a library of `libraries` outside it is refused,
   * naming those served; without `libraries`, those served are searched. @default every installed library
   */
  readonly scope?: LibraryScope;
}

/** Options of getDocs. */
export interface GetDocsOptions extends SearchOptions {
  readonly version?: string;
  /**
   * The version of this library the project being worked on installs. For a bare name it is the version
   * answered from when installed; when it is not installed the highest is, and the answer says so (`project`).
   */
  readonly projectVersion?: string;
  /**
   * The project's version (`projectVersion`) is being built (a server following its project): the answer from
   * another version says so, and when to ask again, instead of how to add it.
   */
  readonly projectBuilding?: { readonly retryAfterSeconds: number };
  /** Only these libraries may be searched (see LibraryScope); one outside it is refused, naming those served. */
  readonly scope?: LibraryScope;
}

/** Which part of the ranked list an answer shows, and in what form: plain values, checked once. */
export interface Paging {
  readonly tokens: number;
  readonly limit: number;
  readonly offset: number;
  readonly format: ResultFormat;
}

/**
 * What one search runs with besides its configuration: the models and whether to use them, the signal that stops
 * their calls, and the session's memory of what was sent (read here; the sections sent now are recorded by
 * search(), from what the page stage returns).
 */
export interface SearchContext {
  readonly mode: RetrievalMode | undefined;
  readonly models: SearchModels | undefined;
  readonly rerank: boolean;
  readonly signal: AbortSignal | undefined;
  readonly sent: SentSections | undefined;
}

/** A caller's options by kind: the ranking (numbers), the paging, and the per-search context. */
export interface ResolvedOptions {
  readonly ranking: RankingConfig;
  readonly paging: Paging;
  readonly context: SearchContext;
}

/** Fills defaults and rejects values that make no sense, with a message that names the option. */
export function resolveOptions(options: SearchOptions): ResolvedOptions {
  const paging: Paging = {
    tokens: options.tokens ?? SEARCH_DEFAULTS.tokens,
    limit: options.limit ?? SEARCH_DEFAULTS.limit,
    offset: options.offset ?? SEARCH_DEFAULTS.offset,
    format: options.format ?? SEARCH_DEFAULTS.format,
  };
  const context: SearchContext = {
    mode: options.mode,
    models: options.models,
    rerank: options.rerank ?? SEARCH_DEFAULTS.rerank,
    signal: options.signal,
    sent: options.sent,
  };
  const ranking = resolveRanking(options.ranking ?? {}, (message) => new SearchOptionError(message));
  const wholeNumber = (name: keyof Paging, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min) {
      throw new SearchOptionError(`${name} must be a whole number ≥ ${min}, got ${value}`);
    }
  };
  wholeNumber('tokens', paging.tokens, 0);
  wholeNumber('limit', paging.limit, 1);
  wholeNumber('offset', paging.offset, 0);
  if (context.mode !== undefined && context.mode !== 'lexical' && context.mode !== 'hybrid') {
    throw new SearchOptionError(`mode must be "lexical" or "hybrid", got ${JSON.stringify(context.mode)}`);
  }
  if (paging.format !== 'full' && paging.format !== 'index') {
    throw new SearchOptionError(`format must be "full" or "index", got ${JSON.stringify(paging.format)}`);
  }
  return { ranking, paging, context };
}
