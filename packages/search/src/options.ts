import type { ColumnWeights } from '@docs/store';
import { SearchOptionError } from './errors.js';
import type { SearchModels } from './models.js';

/** `lexical`: BM25 alone. `hybrid`: BM25 and vector similarity fused, where a package has vectors and their model is here. */
export type RetrievalMode = 'lexical' | 'hybrid';

/** `full` returns each result's content; `index` everything but the content. */
export type ResultFormat = 'full' | 'index';

/** Options of getDocs and searchAll. Every default is documented here and nowhere else. */
export interface SearchOptions {
  /** Token budget over the content of all results; 0 means no budget. Ignored for `index`. @default 2000 */
  readonly tokens?: number;
  /** Results per page. @default 10 */
  readonly limit?: number;
  /** Results to skip, for paging. @default 0 */
  readonly offset?: number;
  /** @default 'full' */
  readonly format?: ResultFormat;
  /** Relevance drop: keep results scoring at least this fraction of the best. @default 0.3 */
  readonly drop?: number;
  /** BM25 weights of the indexed columns. @default { title: 1, headings: 1, heading: 1, body: 1 } */
  readonly weights?: ColumnWeights;
  /** How many chunks each library contributes before merging. @default 50 */
  readonly candidates?: number;
  /** How strongly a chunk's share of the query terms scales its BM25 score (0 = not at all). @default 1 */
  readonly coverageExponent?: number;
  /** How much a section gains when its heading trail holds the query's terms: score × (1 + boost × share of terms). @default 2 */
  readonly headingBoost?: number;
  /** Share of the scores of the other matching sections of the same page that a section gains. @default 0.05 */
  readonly pageWeight?: number;
  /** How many plain words an identifier or error code in the query counts for in term coverage. @default 2 */
  readonly identifierWeight?: number;
  /** Full format: a result sharing at least this share of its word 3-grams with a higher one moves to the end; 1 turns this off. @default 0.8 */
  readonly duplicateThreshold?: number;
  /** Score multiplier for changelogs, release notes, migration and upgrade guides and blog posts. @default 0.5 */
  readonly historyWeight?: number;
  /** Each further section of a page already listed scores this much less (the n-th × decay^n), so the first results span several pages; 1 turns this off. @default 0.6 */
  readonly samePageDecay?: number;
  /** Let a query word also match its synonyms from a small developer thesaurus (`print` finds `log`). @default true */
  readonly synonyms?: boolean;
  /** How much a page linked from many other pages of its package gains: score × (1 + inbound links)^weight; 0 turns this off. @default 0.05 */
  readonly linkWeight?: number;
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
  /** How many of the first merged results the re-ranker reorders. @default 20 */
  readonly rerankCandidates?: number;
  /** Hybrid: the share of vector similarity in the fused score (the lexical score has the rest). @default 0.5 */
  readonly vectorWeight?: number;
  /** Hybrid: `convex` combines the two scores with vectorWeight; `rrf` fuses the two orders by reciprocal rank. @default 'convex' */
  readonly fusion?: 'convex' | 'rrf';
  /** Hybrid with `rrf`: the RRF constant k. @default 60 */
  readonly rrfK?: number;
  /** Stops embedding and re-ranking calls (an endpoint that hangs). @default none */
  readonly signal?: AbortSignal;
  /** A longer topic is cut to its first this many characters (at a word boundary), and the answer says so. @default 1000 */
  readonly maxTopicChars?: number;
  /** Words searched for at most; further words are left out, and the answer says so. Keeps the cost linear in the words kept. @default 32 */
  readonly maxTerms?: number;
  /**
   * Other phrasings of the topic (at most 4, each at most 200 characters), e.g. the docs' own terms for
   * what the topic says in plain words ("lifespan events" for "run code when the app starts"). Each is
   * searched in every library on the same connection, and the lists are fused before the libraries are
   * merged, so the answer is one list under one budget. @default none
   */
  readonly alternatives?: readonly string[];
  /** How much an alternative phrasing's matches count beside the topic's (1 = as much). @default 0.8 */
  readonly alternativeWeight?: number;
  /**
   * Fusing phrasings: how much the phrasings other than a section's best add to its score, from 0 (its best
   * phrasing's score alone, CombMAX) to 1 (all of them summed, CombSUM). @default 0.5
   */
  readonly fusionRest?: number;
  /**
   * Across libraries: how strongly a library's results are scaled by the share of the question's
   * information (words weighed by rarity) its best section holds, relative to the best library's; 0 turns this off. @default 1
   */
  readonly idfExponent?: number;
  /** An answer whose best results hold less than this share of the question's information is flagged weak. @default 0.5 */
  readonly weakBelow?: number;
}

/** Options of searchAll. */
export interface SearchAllOptions extends SearchOptions {
  /** Restrict the search to these libraries (`name` or `name@version`). @default every installed library, highest version of each */
  readonly libraries?: readonly string[];
  /**
   * The versions the project being worked on installs, by lower-case library name: each library (and each bare
   * name in `libraries`) is searched at that version when it is installed, else at the highest.
   */
  readonly projectVersions?: ReadonlyMap<string, string>;
}

export interface ResolvedOptions {
  readonly tokens: number;
  readonly limit: number;
  readonly offset: number;
  readonly format: ResultFormat;
  readonly drop: number;
  readonly weights: ColumnWeights;
  readonly candidates: number;
  readonly coverageExponent: number;
  readonly historyWeight: number;
  readonly headingBoost: number;
  readonly pageWeight: number;
  readonly identifierWeight: number;
  readonly duplicateThreshold: number;
  readonly samePageDecay: number;
  readonly synonyms: boolean;
  readonly linkWeight: number;
  readonly mode: RetrievalMode | undefined;
  readonly models: SearchModels | undefined;
  readonly rerank: boolean;
  readonly rerankCandidates: number;
  readonly vectorWeight: number;
  readonly fusion: 'convex' | 'rrf';
  readonly rrfK: number;
  readonly signal: AbortSignal | undefined;
  readonly maxTopicChars: number;
  readonly maxTerms: number;
  readonly alternativeWeight: number;
  readonly fusionRest: number;
  readonly idfExponent: number;
  readonly weakBelow: number;
}

/** Fills defaults and rejects values that make no sense, with a message that names the option. */
export function resolveOptions(options: SearchOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    tokens: options.tokens ?? 2000,
    limit: options.limit ?? 10,
    offset: options.offset ?? 0,
    format: options.format ?? 'full',
    drop: options.drop ?? 0.3,
    weights: options.weights ?? { title: 1, headings: 1, heading: 1, body: 1 },
    candidates: options.candidates ?? 50,
    coverageExponent: options.coverageExponent ?? 1,
    historyWeight: options.historyWeight ?? 0.5,
    headingBoost: options.headingBoost ?? 2,
    pageWeight: options.pageWeight ?? 0.05,
    identifierWeight: options.identifierWeight ?? 2,
    duplicateThreshold: options.duplicateThreshold ?? 0.8,
    samePageDecay: options.samePageDecay ?? 0.6,
    synonyms: options.synonyms ?? true,
    linkWeight: options.linkWeight ?? 0.05,
    mode: options.mode,
    models: options.models,
    rerank: options.rerank ?? true,
    rerankCandidates: options.rerankCandidates ?? 20,
    vectorWeight: options.vectorWeight ?? 0.5,
    fusion: options.fusion ?? 'convex',
    rrfK: options.rrfK ?? 60,
    signal: options.signal,
    maxTopicChars: options.maxTopicChars ?? 1000,
    maxTerms: options.maxTerms ?? 32,
    alternativeWeight: options.alternativeWeight ?? 0.8,
    fusionRest: options.fusionRest ?? 0.5,
    idfExponent: options.idfExponent ?? 1,
    weakBelow: options.weakBelow ?? 0.5,
  };
  const wholeNumber = (name: keyof ResolvedOptions, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min) {
      throw new SearchOptionError(`${name} must be a whole number ≥ ${min}, got ${value}`);
    }
  };
  wholeNumber('tokens', resolved.tokens, 0);
  wholeNumber('limit', resolved.limit, 1);
  wholeNumber('offset', resolved.offset, 0);
  wholeNumber('candidates', resolved.candidates, 1);
  wholeNumber('rerankCandidates', resolved.rerankCandidates, 0);
  if (resolved.mode !== undefined && resolved.mode !== 'lexical' && resolved.mode !== 'hybrid') {
    throw new SearchOptionError(`mode must be "lexical" or "hybrid", got ${JSON.stringify(resolved.mode)}`);
  }
  if (resolved.fusion !== 'convex' && resolved.fusion !== 'rrf') {
    throw new SearchOptionError(`fusion must be "convex" or "rrf", got ${JSON.stringify(resolved.fusion)}`);
  }
  if (!(resolved.vectorWeight >= 0 && resolved.vectorWeight <= 1)) {
    throw new SearchOptionError(`vectorWeight must be between 0 and 1, got ${resolved.vectorWeight}`);
  }
  if (!(resolved.rrfK >= 0 && Number.isFinite(resolved.rrfK))) {
    throw new SearchOptionError(`rrfK must be a finite number ≥ 0, got ${resolved.rrfK}`);
  }
  wholeNumber('maxTopicChars', resolved.maxTopicChars, 1);
  wholeNumber('maxTerms', resolved.maxTerms, 1);
  if (resolved.format !== 'full' && resolved.format !== 'index') {
    throw new SearchOptionError(`format must be "full" or "index", got ${JSON.stringify(resolved.format)}`);
  }
  if (!(resolved.drop >= 0 && resolved.drop <= 1))
    throw new SearchOptionError(`drop must be between 0 and 1, got ${resolved.drop}`);
  if (!(resolved.headingBoost >= 0 && Number.isFinite(resolved.headingBoost))) {
    throw new SearchOptionError(`headingBoost must be a finite number ≥ 0, got ${resolved.headingBoost}`);
  }
  if (!(resolved.identifierWeight >= 1 && Number.isFinite(resolved.identifierWeight))) {
    throw new SearchOptionError(`identifierWeight must be a finite number ≥ 1, got ${resolved.identifierWeight}`);
  }
  if (!(resolved.duplicateThreshold > 0 && resolved.duplicateThreshold <= 1)) {
    throw new SearchOptionError(`duplicateThreshold must be above 0 and at most 1, got ${resolved.duplicateThreshold}`);
  }
  if (!(resolved.pageWeight >= 0 && resolved.pageWeight <= 1)) {
    throw new SearchOptionError(`pageWeight must be between 0 and 1, got ${resolved.pageWeight}`);
  }
  if (!(resolved.samePageDecay > 0 && resolved.samePageDecay <= 1)) {
    throw new SearchOptionError(`samePageDecay must be above 0 and at most 1, got ${resolved.samePageDecay}`);
  }
  if (!(resolved.historyWeight >= 0 && resolved.historyWeight <= 1)) {
    throw new SearchOptionError(`historyWeight must be between 0 and 1, got ${resolved.historyWeight}`);
  }
  if (!(resolved.linkWeight >= 0 && resolved.linkWeight <= 1)) {
    throw new SearchOptionError(`linkWeight must be between 0 and 1, got ${resolved.linkWeight}`);
  }
  for (const name of ['alternativeWeight', 'fusionRest', 'weakBelow'] as const) {
    if (!(resolved[name] >= 0 && resolved[name] <= 1)) {
      throw new SearchOptionError(`${name} must be between 0 and 1, got ${resolved[name]}`);
    }
  }
  if (!(resolved.idfExponent >= 0 && Number.isFinite(resolved.idfExponent))) {
    throw new SearchOptionError(`idfExponent must be a finite number ≥ 0, got ${resolved.idfExponent}`);
  }
  if (!(resolved.coverageExponent >= 0 && Number.isFinite(resolved.coverageExponent))) {
    throw new SearchOptionError(`coverageExponent must be a finite number ≥ 0, got ${resolved.coverageExponent}`);
  }
  return resolved;
}
