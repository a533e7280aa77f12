// This file is the public API of @docs/search.

export { MAX_ALTERNATIVE_LENGTH, MAX_ALTERNATIVES } from './alternatives.js';
export { ANSWER_LIMITS, shortDescription, shortLabel } from './answer-limits.js';

export { SearchOptionError } from './errors.js';
export { headingTrail } from './heading-trail.js';
export type { LibraryError, LibraryResolution, LibraryScope } from './library-scope.js';
export { isScoped, resolveLibrary, servedLatest, servedPackages } from './library-scope.js';
export { ADD_DOCS_HINT, NO_PACKAGES_MESSAGE } from './messages.js';
export type { PassageReranker, QueryEmbedder, SearchModels, Unavailable } from './models.js';
export { heldModels } from './models.js';
export type { ModelSpecs, OpenModels } from './open-models.js';
export { openModels } from './open-models.js';
export type { GetDocsOptions, ResultFormat, RetrievalMode, SearchAllOptions, SearchOptions } from './options.js';
export { SEARCH_DEFAULTS } from './options.js';
export type { AnalyzedQuery } from './query.js';
export { analyzeQuery } from './query.js';
export type { NumericKnob, RankingConfig } from './ranking.js';
export { NUMERIC_KNOBS, RANKING_DEFAULTS, RANKING_KNOBS } from './ranking.js';
export type { ReadDocOptions, ReadDocResponse } from './read-doc.js';
export { readDoc } from './read-doc.js';
export type { MarkdownTextStyle, PlainTextStyle, TextStyle } from './render-text.js';
export { renderText } from './render-text.js';
export type { Confidence, DocResult, PhrasingReport, RetrievalInfo, SearchResponse, SearchStatus } from './results.js';
export { getDocs, searchAll } from './search.js';
export type { SentSections } from './sent-sections.js';
export { STOP_WORDS } from './stop-words.js';
