/** One answer: a section (or adjacent sections) of one document of one library. */
export interface DocResult {
  /** `name@version` of the library it comes from. */
  readonly library: string;
  /** Path of the document, relative to the docs root. */
  readonly path: string;
  /** Title of the document. */
  readonly title: string;
  /** Heading texts from the top of the document down to this section. */
  readonly breadcrumb: readonly string[];
  /** The section's own heading (the document title before the first heading). */
  readonly heading: string;
  /**
   * When sections of the page that follow each other in the document were
   * joined into this result (full format), the breadcrumb of each, in page
   * order; absent for one section. The result is labelled by (and starts at)
   * the first, its best; each counts as one of `total`.
   */
  readonly sections?: readonly (readonly string[])[];
  /** Relevance in [0, 1]: normalised within its library, 1 for each library's best. */
  readonly score: number;
  /** Tokens of the content (after any cut). */
  readonly tokens: number;
  /** True when the content was cut to fit the token budget. */
  readonly truncated: boolean;
  /** The section's markdown; absent in the `index` format, and when it was sent earlier. */
  readonly content?: string;
  /**
   * True when the caller was sent this section in full before (SearchOptions.sent): its content is left out, and
   * cost nothing against the budget. Absent otherwise.
   */
  readonly sentEarlier?: true;
}

/** Why a response has the results it has. */
export type SearchStatus = 'ok' | 'no-packages' | 'unknown-library' | 'unknown-version' | 'no-match';

/** Which retrieval answered a search, and why it is that one. */
export interface RetrievalInfo {
  /** `hybrid` when vectors took part for at least one library searched, else `lexical`. */
  readonly mode: 'lexical' | 'hybrid';
  /** The id of the embedder whose vectors took part (`<provider>:<model>:<dimensions>`). */
  readonly embedder?: string;
  /** The id of the re-ranker that reordered the first results. */
  readonly reranker?: string;
  /** Why a library answered lexically, or why the re-ranker did not run. */
  readonly notes?: readonly string[];
}

/** What getDocs and searchAll return. An empty result always says why in `status` and `message`. */
export interface SearchResponse {
  readonly status: SearchStatus;
  /** One line for people and agents: what happened and, when empty, what to try next. */
  readonly message: string;
  readonly results: readonly DocResult[];
  /**
   * Sections found before paging (after the relevance drop), the same in both
   * formats: `offset` and `limit` count sections too, and a full-format result
   * that joins several counts each.
   */
  readonly total: number;
  /**
   * True when `total` is a lower bound ("at least N results"): over many libraries, those that could not reach
   * this page were not scored, so sections of theirs above the drop are not counted. The page itself, and
   * `nextOffset`, are what scoring every library gives. Absent when `total` is exact.
   */
  readonly totalIsLowerBound?: true;
  /**
   * Where the next page starts (the first section of this page not shown), when there is more (with
   * `totalIsLowerBound`, when there may be more: the next page may then be empty).
   */
  readonly nextOffset?: number;
  /** Tokens of all returned content. */
  readonly totalTokens: number;
  /** Libraries searched, as `name@version`. */
  readonly searched: readonly string[];
  /** The terms searched for, and whether results contain all of them or only some. */
  readonly query: { readonly terms: readonly string[]; readonly match: 'all' | 'some' | 'none' };
  /** Installed libraries as `name@version`, when the library asked for is not one of them. */
  readonly installed?: readonly string[];
  /** The closest installed library, when the one asked for is unknown. */
  readonly suggestion?: string;
  /** The version the project installs, when it is not the one answered from because it is not installed. */
  readonly project?: { readonly library: string; readonly installed: boolean };
  /** Other installed versions of the library that match when the one searched matches nothing, or far less with far thinner docs. */
  readonly otherVersions?: readonly { readonly library: string; readonly total: number }[];
  /** Which retrieval answered (lexical, or hybrid with which embedder and re-ranker), and notes on why. */
  readonly retrieval: RetrievalInfo;
  /**
   * What a caller should know about how the answer was made: the topic cut to
   * the query caps, a damaged library left out of a search of every library.
   */
  readonly warnings?: readonly string[];
  /**
   * How much of the question the first page of results holds (absent when no
   * library could be searched); when weak, `message` starts by saying so.
   */
  readonly confidence?: Confidence;
  /** With alternative phrasings: each phrasing, its words, and which returned results it found. */
  readonly phrasings?: readonly PhrasingReport[];
}

/**
 * How much of the question the answer holds, on an absolute scale: unlike a
 * result's score (1 for each library's best, however poor), it says whether
 * the docs searched answer the question at all.
 */
export interface Confidence {
  /**
   * The share, in [0, 1], of the question's information that the best results
   * hold: each word weighs its inverse document frequency over the docs
   * searched, so missing a rare word ("cors") costs more than missing a common
   * one ("enable"). Measured for the topic as asked, on the first page of
   * results; each alternative phrasing's own share is in the response's `phrasings`.
   */
  readonly strength: number;
  /** True when `strength` is under the search's `weakBelow`: the message then says so. */
  readonly weak: boolean;
  /** Words of the topic that no result on the first page holds. */
  readonly missing: readonly string[];
  /** Words of the topic that no section of the docs searched mentions at all. */
  readonly unmentioned: readonly string[];
}

/** What one phrasing found, when alternatives were given. */
export interface PhrasingReport {
  /** The phrasing as given (the topic first). */
  readonly text: string;
  /** Its words as searched. */
  readonly terms: readonly string[];
  /** The share of its information its best result on the first page holds, [0, 1]. */
  readonly strength: number;
  /** Positions (1-based, counting from the first page) of the returned results it found. */
  readonly results: readonly number[];
}
