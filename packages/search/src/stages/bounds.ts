import { heldShare } from '../idf.js';
import type { RankingConfig } from '../ranking.js';
import type { Phrasing } from './analyze.js';
import { type CatalogKnowledge, catalogued, type KnownTerms, unopened } from './catalog.js';
import { type Candidate, type LibraryCandidates, matchesAll } from './fuse.js';
import type { PhrasingHits } from './hits.js';
import { crossLibraryScale } from './scale.js';
import type { Target } from './target.js';

/** A phrasing as the bounds see it: how many terms, and how much its matches count. */
interface Asked {
  readonly terms: readonly string[];
  readonly weight: number;
}

/**
 * The most a library could bring to a search over many, from what the
 * store's catalog knows of it (which terms it may hold): its chunks can hold
 * no other terms, so its best coverage and information are at most those of
 * all the terms it may hold together.
 */
export interface Ceiling {
  /** At most its coverage as fusePhrasings measures it. */
  readonly coverage: number;
  /** At most the share of the question's information its best chunk holds, as withWorth (fuse.ts) measures it. */
  readonly information: number;
  /** Whether a chunk of it may hold a phrasing's rarest word. */
  readonly mayHoldRarest: boolean;
  /** Whether a chunk of it may hold every term of a phrasing. */
  readonly mayHoldAll: boolean;
}

/** What the libraries searched found, as the cross-library scale reads it. */
interface SearchedEvidence {
  readonly bestCoverage: number;
  readonly bestInformation: number;
  readonly someHoldRarest: boolean;
  /** Whether a chunk found holds every term of a phrasing (the answer's `match` is then "all"). */
  readonly matchAll: boolean;
  /**
   * The lower of the best scaled score of any candidate and the best scaled score of words alone: the
   * relevance drop keeps what reaches `drop` of either (aboveDrop), and a library's best chunk scales to
   * at most its factor by both.
   */
  readonly top: number;
}

/** The coverage a library holding `held` of each phrasing's terms could reach at most. */
function coverageCeiling(known: readonly KnownTerms[], phrasings: readonly Asked[], ranking: RankingConfig): number {
  let coverage = 0;
  for (const [p, phrasing] of phrasings.entries()) {
    const count = known[p]?.holds.filter(Boolean).length ?? 0;
    if (count === 0 || phrasing.terms.length === 0) continue;
    coverage = Math.max(coverage, phrasing.weight * (count / phrasing.terms.length) ** ranking.coverageExponent);
  }
  return coverage;
}

/**
 * The libraries whose counts are worth reading before the plan (countedExactly, catalog.ts), of those the catalog
 * cannot count: the ones whose coverage could be no more than another's. One whose coverage might be the highest of
 * all is scored in any case unless a section holding every word it may hold is found first, so reading its counts
 * would mostly come on top of scoring it (the bench's 1,000 libraries, each holding every word somewhere, p50: 1.26-1.57
 * s scoring them at once, 1.57-1.61 s counting every such library first, 0.92-1.01 s counting only these).
 */
export function worthCounting(
  known: CatalogKnowledge,
  phrasings: readonly Phrasing[],
  ranking: RankingConfig,
): Set<string> {
  const ceilings = [...known]
    .filter(([, k]) => !k.skip)
    .map(([file, k]) => ({ file, exact: k.exact, coverage: coverageCeiling(k.phrasings, phrasings, ranking) }));
  const highest = Math.max(0, ...ceilings.map((c) => c.coverage));
  return new Set(ceilings.filter((c) => !c.exact && c.coverage < highest).map((c) => c.file));
}

/** The most a library could bring, from what the catalog knows of it and the question's words' worth. */
function ceilingOf(
  known: readonly KnownTerms[],
  phrasings: readonly Asked[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
  ranking: RankingConfig,
): Ceiling {
  let informationHeld = 0;
  let mayHoldRarest = false;
  let mayHoldAll = false;
  for (const [p, phrasing] of phrasings.entries()) {
    const holds = known[p]?.holds ?? [];
    const held = holds.flatMap((h, t) => (h ? [t] : []));
    if (held.length === 0 || phrasing.terms.length === 0) continue;
    informationHeld = Math.max(informationHeld, phrasing.weight * heldShare(information[p] ?? [], held));
    const r = rarest[p] ?? -1;
    mayHoldRarest ||= r >= 0 && holds[r] === true;
    mayHoldAll ||= held.length === phrasing.terms.length;
  }
  return {
    coverage: coverageCeiling(known, phrasings, ranking),
    information: informationHeld,
    mayHoldRarest,
    mayHoldAll,
  };
}

/**
 * The most a library with this ceiling, left unsearched, could score in the
 * merged list, when leaving it out changes nothing else: it cannot raise the
 * best coverage or information the other libraries are scaled by, nor be the
 * one holding the rarest word or every word. Its best chunk is then scaled as
 * crossLibraryScale (scale.ts) would scale it, to at most this factor.
 * Undefined when leaving it out could change the others' scale: it must be
 * searched.
 */
function bestReach(ceiling: Ceiling, searched: SearchedEvidence, ranking: RankingConfig): number | undefined {
  if (ceiling.coverage > searched.bestCoverage || ceiling.information > searched.bestInformation) return undefined;
  if (ceiling.mayHoldRarest && !searched.someHoldRarest) return undefined;
  if (ceiling.mayHoldAll && !searched.matchAll) return undefined;
  if (!(searched.top > 0) || !(searched.bestCoverage > 0)) return undefined;
  const byCoverage = ceiling.coverage / searched.bestCoverage;
  const lacking = searched.someHoldRarest && !ceiling.mayHoldRarest && searched.bestInformation > 0;
  return byCoverage * (lacking ? (ceiling.information / searched.bestInformation) ** ranking.idfExponent : 1);
}

/** Strictly under, with room for rounding: a chunk at the threshold itself would be kept. */
function under(reach: number, threshold: number): boolean {
  return reach * (1 + 1e-9) < threshold;
}

/**
 * What the libraries searched so far found, as crossLibraryScale will read it
 * (the deferred ones, standing in as having found nothing, change none of it).
 */
function searchedEvidence(
  libraries: readonly LibraryCandidates[],
  ranking: RankingConfig,
): SearchedEvidence & { readonly scaled: readonly Candidate[] } {
  // The drop keeps what reaches `drop` of the best score or of the best score of words alone (aboveDrop): a
  // library whose best scaled chunk is under both is under the lower of the two.
  const scaled = crossLibraryScale(libraries, ranking).flat();
  const top = Math.min(
    scaled.reduce((most, c) => Math.max(most, c.score), 0),
    scaled.reduce((most, c) => Math.max(most, c.plain), 0),
  );
  return {
    scaled,
    bestCoverage: Math.max(0, ...libraries.map((l) => l.coverage)),
    bestInformation: Math.max(0, ...libraries.map((l) => l.information)),
    someHoldRarest: libraries.some((l) => l.holdsRarest),
    matchAll: matchesAll(libraries),
    top,
  };
}

/**
 * A guess at the page stage's bar (Paged.bar) from what was found so far: the `depth`-th best score once spread
 * over pages (each further section of a page × samePageDecay per section above it, as diversify spreads them). The
 * page stage may look deeper (near-duplicates move down), so the bar it reports can be lower; search() then opens
 * what this guess left out. Walks the candidates best first only while one could still be among the first
 * `depth`: a section scoring less than the `depth`-th spread score cannot be. 0 when fewer are found.
 */
function pageEstimate(scaled: readonly Candidate[], depth: number, ranking: RankingConfig): number {
  if (scaled.length < depth || depth === 0) return 0;
  const byScore = [...scaled].sort((a, b) => b.score - a.score);
  const seen = new Map<Target, Map<number, number>>();
  const best: number[] = [];
  for (const c of byScore) {
    if (best.length >= depth && c.score < (best[depth - 1] ?? 0)) break;
    const pages = seen.get(c.target) ?? new Map<number, number>();
    seen.set(c.target, pages);
    const before = pages.get(c.hit.documentId) ?? 0;
    pages.set(c.hit.documentId, before + 1);
    best.push(c.score * ranking.samePageDecay ** before);
    best.sort((a, b) => b - a);
    if (best.length > depth) best.length = depth;
  }
  return best.length >= depth ? (best[depth - 1] ?? 0) : 0;
}

/**
 * Which libraries a search opens, and when: the one place that decides it. A library the store's catalog says
 * holds none of the words is answered from the catalog unopened, with exactly what searching it finds (nothing,
 * and its chunk count for the terms' information). Over many libraries, one whose every term count the catalog
 * knows exactly, and whose answer could not come from vectors, is deferred: the deferred that could hold the most
 * are opened first (they set the bar for the rest), then each round opens those that what the others found leaves
 * a chance to change the answer ({@link bestReach}): one whose best section could not reach the relevance drop,
 * or, when the answer may say its total is a lower bound (`depth` given), the page (the bar). A re-ranker
 * reorders the merged list by what it reads, which no bound here foresees: then nothing is deferred.
 */
export class OpeningPlan {
  readonly #phrasings: readonly Phrasing[];
  readonly #ranking: RankingConfig;
  readonly #unopened = new Map<number, PhrasingHits[]>();
  readonly #deferred = new Map<number, KnownTerms[]>();
  readonly #depth: number | undefined;
  /** The deferred libraries left unopened though their best section might pass the drop (under the page's bar). */
  #beyondPage = 0;
  /** The libraries to open at once, in the targets' order, then the first of the deferred. */
  readonly first: readonly number[];

  private constructor(
    files: readonly string[],
    known: CatalogKnowledge,
    phrasings: readonly Phrasing[],
    ranking: RankingConfig,
    deferring: boolean,
    depth: number | undefined,
  ) {
    this.#phrasings = phrasings;
    this.#ranking = ranking;
    this.#depth = depth;
    const now: number[] = [];
    for (const [index, file] of files.entries()) {
      const knowledge = known.get(file);
      if (knowledge?.skip) this.#unopened.set(index, unopened(phrasings, knowledge.phrasings));
      else if (deferring && knowledge?.exact) this.#deferred.set(index, knowledge.phrasings);
      else now.push(index);
    }
    const best = [...this.#deferred]
      .map(([index, k]) => ({ index, coverage: coverageCeiling(k, phrasings, ranking) }))
      .sort((a, b) => b.coverage - a.coverage || a.index - b.index)
      .slice(0, 4);
    for (const { index } of best) this.#deferred.delete(index);
    this.first = [...now, ...best.map((b) => b.index)];
  }

  /**
   * The plan for libraries of these files (in the targets' order), given what the catalog knows of them. `depth`:
   * how many of the merged list's first sections the answer needs, when libraries that cannot reach them may stay
   * unopened and the total be a lower bound; undefined: every library whose best section might pass the drop is
   * opened, and the total is exact. `mayDefer`: false when none may be deferred (a re-ranker reorders by what it
   * reads, which no bound here foresees).
   */
  static of(
    files: readonly string[],
    known: CatalogKnowledge,
    phrasings: readonly Phrasing[],
    ranking: RankingConfig,
    mayDefer: boolean,
    depth?: number,
  ): OpeningPlan {
    const deferring = mayDefer && files.length > 1 && [...known.values()].some((k) => k.exact && !k.skip);
    return new OpeningPlan(files, known, phrasings, ranking, deferring, depth);
  }

  /** Whether a library left unopened might hold sections above the drop: the answer's total is then a lower bound. */
  get lowerBound(): boolean {
    return this.#beyondPage > 0;
  }

  /**
   * What a library not opened stands in with: for one the catalog answers, what searching it finds; for one
   * deferred, its counts and nothing found. Undefined for a library opened (or to be).
   */
  standIn(index: number): PhrasingHits[] | undefined {
    const deferred = this.#deferred.get(index);
    if (deferred) return this.#phrasings.map((p, i) => catalogued(p.terms, deferred[i]));
    return this.#unopened.get(index);
  }

  /**
   * The deferred libraries to open next, given every library answering so far (`libraries`, fused with the
   * question's words' worth, `information` and `rarest`): those whose best section could still change the answer,
   * by passing the drop or, with a `depth`, by reaching the page: above `bar` (the page stage's, Paged.bar), or,
   * before there is a page, above a guess at it. None when none could: the page is then the same as had every
   * library been opened.
   */
  next(
    libraries: readonly LibraryCandidates[],
    information: readonly (readonly number[])[],
    rarest: readonly number[],
    bar?: number,
  ): number[] {
    this.#beyondPage = 0;
    if (this.#deferred.size === 0) return [];
    const evidence = searchedEvidence(libraries, this.#ranking);
    const chances: number[] = [];
    /** Those that might pass the drop: opened, unless the page's bar is above them. */
    const pending: { index: number; reach: number | undefined }[] = [];
    for (const [index, known] of this.#deferred) {
      const reach = bestReach(
        ceilingOf(known, this.#phrasings, information, rarest, this.#ranking),
        evidence,
        this.#ranking,
      );
      if (reach === undefined || !under(reach, this.#ranking.drop * evidence.top)) pending.push({ index, reach });
    }
    // The bar is worked out only when it could leave one of them unopened.
    const page =
      this.#depth === undefined || !pending.some((p) => p.reach !== undefined)
        ? 0
        : (bar ?? pageEstimate(evidence.scaled, this.#depth, this.#ranking));
    for (const { index, reach } of pending) {
      if (reach !== undefined && under(reach, page)) this.#beyondPage += 1;
      else chances.push(index);
    }
    for (const index of chances) this.#deferred.delete(index);
    if (chances.length > 0) this.#beyondPage = 0;
    return chances;
  }
}
