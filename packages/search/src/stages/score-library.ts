import { minMaxNormalize } from '@docs/rank';
import { type ChunkHit, indexTokens, type PackageReader, type Term, tokensContain } from '@docs/store';
import semver from 'semver';
import { isHistoryPage, isOtherEntryPointPage, isOtherVersionPage } from '../history.js';
import { fuseWithVectors, type Retrieval, type ScoredHits, shareOfBest } from '../hybrid.js';
import type { TermCounts } from '../idf.js';
import type { ResolvedOptions } from '../options.js';
import { isIdentifier, termAlternatives } from '../terms.js';
import type { Phrasing } from './analyse.js';
import type { KnownTerms } from './catalog.js';
import type { Target } from './target.js';

/** A chunk one phrasing found in one library. */
export interface PhrasingHit {
  readonly hit: ChunkHit;
  /** The lexical within-library score before normalisation (0 for a section only vectors found): what breaks ties across libraries. */
  readonly raw: number;
  /** Normalised within its library, [0, 1]. */
  readonly score: number;
  /** The same without the heading boost (see wordsAlone), normalised within its library. */
  readonly plain: number;
  /** How many of the phrasing's terms the chunk holds. */
  readonly coverage: number;
  /** Which of the phrasing's terms (indices) the chunk holds. */
  readonly held: readonly number[];
}

/** What one phrasing found in one library. */
export interface PhrasingHits {
  readonly list: readonly PhrasingHit[];
  /** The most terms any chunk found holds. */
  readonly bestCoverage: number;
  readonly counts: TermCounts;
}

/** Lexical candidates with which terms each holds and how common each term is. */
interface LexicalHits extends ScoredHits {
  /** `raw` without the heading boost: what the chunk's words alone are worth. */
  readonly plain: readonly number[];
  readonly held: readonly (readonly number[])[];
  readonly counts: TermCounts;
}

/**
 * Stage 3: what each phrasing finds in one library, scored and normalised
 * within it (see {@link candidates}). One phrasing after another on the
 * library's one connection: SQLite work is synchronous, so running them
 * "concurrently" would only interleave. In a hybrid answer the topic's
 * lexical hits are fused with the sections nearest its vector; an
 * alternative's too when `alternativeVectorWeight` is above 0, each with its
 * own vector (docs/ranking.md: alternatives are mostly the docs' own words,
 * and embedding them measured worse on the unbiased and external sets).
 * `known` is what the store's catalog knows of the library, per phrasing.
 */
export async function scoreLibrary(
  target: Target,
  phrasings: readonly Phrasing[],
  limit: number,
  options: ResolvedOptions,
  retrieval: Retrieval,
  known: readonly KnownTerms[] | undefined,
): Promise<PhrasingHits[]> {
  const lists: PhrasingHits[] = [];
  for (const [i, phrasing] of phrasings.entries())
    lists.push(await candidates(target, phrasing.terms, limit, options, { retrieval, phrasing: i }, known?.[i]));
  return lists;
}

/**
 * One phrasing's candidates in one library: its lexical hits normalised within
 * the library, or, when the package has vectors and their embedder is here,
 * those fused with the sections nearest the phrasing's vector.
 */
async function candidates(
  target: Target,
  words: readonly string[],
  limit: number,
  options: ResolvedOptions,
  vectors: { readonly retrieval: Retrieval; readonly phrasing: number },
  known?: KnownTerms,
): Promise<PhrasingHits> {
  if (words.length === 0) return { list: [], bestCoverage: 0, counts: { frequencies: [], chunks: 0 } };
  const lexical = await lexicalCandidates(target, words, limit, options, known);
  const topic = vectors.phrasing === 0;
  const weight = topic ? options.vectorWeight : options.alternativeVectorWeight;
  const query = topic || weight > 0 ? await vectors.retrieval.queryVector(target, vectors.phrasing) : undefined;
  if (query === undefined) {
    // BM25 of a chunk that matches nothing is 0: that, not the weakest candidate, is the bottom of the scale.
    const scores = lexical.hits.length === 0 ? [] : minMaxNormalize(lexical.raw, { floor: 0 });
    const plain = lexical.hits.length === 0 ? [] : minMaxNormalize(lexical.plain, { floor: 0 });
    return phrasingHits(lexical, scores, lexical.held, lexical.counts, plain);
  }
  const fused = await fuseWithVectors(target, lexical, query, limit, options, weight);
  // The sections only the vectors found come after the lexical ones, and hold none of the terms as far as is known.
  const held = fused.hits.map((_, i) => lexical.held[i] ?? []);
  // Ordered by the fused score; `raw`, which breaks ties between libraries (merge), stays the lexical score a
  // lexical answer breaks them by: the fused score is a share of each library's own best, the same 1 at the top
  // of every library, so ties between libraries (every library holding all of a short phrasing's words) fell to
  // the scale phrasings happened to be on (issue 42).
  const raw = fused.hits.map((_, i) => lexical.raw[i] ?? 0);
  return phrasingHits({ ...fused, raw }, shareOfBest(fused.raw), held, lexical.counts);
}

/**
 * The chunks matching any of the terms, best BM25 first; which terms each
 * holds; and how many chunks hold each term. Asked only about the terms the
 * catalog says the library may hold: a term no chunk holds adds nothing to a
 * chunk's BM25 (its share is its count in the chunk, 0, times its weight) nor
 * to the matches, so leaving it out changes no score. When one term is left,
 * every hit holds it; its count comes from the catalog where that knows it.
 */
async function matchingChunks(
  reader: PackageReader,
  terms: readonly Term[],
  limit: number,
  options: ResolvedOptions,
  known: KnownTerms | undefined,
): Promise<{ hits: ChunkHit[]; matches: Map<number, number[]>; frequencies: readonly number[]; chunks: number }> {
  if (!known) {
    const hits = await reader.search({ terms, mode: 'any' }, { limit, weights: options.weights });
    // Which terms each hit holds, and how common each term is: one pass over each term's chunks.
    return {
      hits,
      ...(await reader.termStatistics(
        terms,
        hits.map((h) => h.id),
      )),
    };
  }
  const asked = terms.flatMap((_, t) => (known.holds[t] ? [t] : []));
  const frequencies = terms.map(() => 0);
  const chunks = known.chunks;
  if (asked.length === 0) return { hits: [], matches: new Map(), frequencies, chunks };
  const askedTerms = asked.map((t) => terms[t] as Term);
  const hits = await reader.search({ terms: askedTerms, mode: 'any' }, { limit, weights: options.weights });
  const only = asked.length === 1 ? (asked[0] as number) : undefined;
  const knownFrequency = only === undefined ? undefined : known.frequencies[only];
  if (only !== undefined && knownFrequency !== undefined) {
    frequencies[only] = knownFrequency;
    return { hits, matches: new Map(hits.map((h) => [h.id, [only]])), frequencies, chunks };
  }
  const statistics = await reader.termStatistics(askedTerms, only === undefined ? hits.map((h) => h.id) : []);
  for (const [i, t] of asked.entries()) frequencies[t] = statistics.frequencies[i] ?? 0;
  const matches =
    only === undefined
      ? new Map([...statistics.matches].map(([id, held]) => [id, held.map((i) => asked[i] as number)]))
      : new Map(hits.map((h) => [h.id, [only]]));
  return { hits, matches, frequencies, chunks };
}

/** A deferred library's counts, from the catalog, and nothing found (it will not be searched unless it might matter). */
export function catalogued(words: readonly string[], known: KnownTerms | undefined): PhrasingHits {
  if (words.length === 0) return { list: [], bestCoverage: 0, counts: { frequencies: [], chunks: 0 } };
  const frequencies = words.map((_, t) => known?.frequencies[t] ?? 0);
  return { list: [], bestCoverage: 0, counts: { frequencies, chunks: known?.chunks ?? 0 } };
}

/** What {@link candidates} finds in a library none of whose chunks holds any of the words. */
export function nothingFound(words: readonly string[], chunks: number): PhrasingHits {
  if (words.length === 0) return { list: [], bestCoverage: 0, counts: { frequencies: [], chunks: 0 } };
  return { list: [], bestCoverage: 0, counts: { frequencies: words.map(() => 0), chunks } };
}

/** Scored hits as a phrasing's list, best first. */
function phrasingHits(
  scored: ScoredHits,
  scores: readonly number[],
  held: readonly (readonly number[])[],
  counts: TermCounts,
  plain: readonly number[] = scores,
): PhrasingHits {
  const list = scored.hits
    .map((hit, i) => ({
      hit,
      raw: scored.raw[i] ?? 0,
      score: scores[i] ?? 0,
      plain: plain[i] ?? 0,
      coverage: scored.covered[i] ?? 1,
      held: held[i] ?? [],
    }))
    .sort((x, y) => y.score - x.score || y.raw - x.raw);
  return { list, bestCoverage: scored.covered.reduce((best, c) => Math.max(best, c), 0), counts };
}

/**
 * A library's lexical candidates: any chunk holding at least one term,
 * scored by BM25 times the share of the terms it holds (raised to
 * `coverageExponent`, and the heading, history, link and page signals below),
 * before normalisation; so chunks holding every word come first and a question
 * with a word the docs never use still finds the sections holding the rest.
 */
async function lexicalCandidates(
  target: Target,
  words: readonly string[],
  limit: number,
  options: ResolvedOptions,
  known: KnownTerms | undefined,
): Promise<LexicalHits> {
  const reader = target.reader();
  const terms = words.map((w) => termAlternatives(w, { synonyms: options.synonyms }));
  const { hits, matches, frequencies, chunks } = await matchingChunks(reader, terms, limit, options, known);
  const major = semver.parse(target.pkg.version)?.major;
  const counts = { frequencies, chunks };
  if (hits.length === 0) return { hits: [], raw: [], plain: [], covered: [], held: [], counts };
  // A pasted identifier or error code is the most deliberate part of a query: it counts more.
  const weights = words.map((w) => (isIdentifier(w) ? options.identifierWeight : 1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  // Every hit holds at least one term.
  const held = hits.map((h) => matches.get(h.id) ?? [0]);
  const covered = held.map((found) => found.length);
  // A section holding only a synonym of a word (`validation` for `validate`, `res` for `response`) is about something
  // related to it, not necessarily it: the word counts `synonymWeight` of its weight there, in the share and the
  // heading boost, so of two sections alike but for that the one holding the word comes first.
  const alone = words.map((w) => termAlternatives(w, { synonyms: false }));
  // A plain word synonyms widened: its term is their list, the word alone a string (a dotted word is a list either way).
  const widened =
    options.synonymWeight < 1
      ? terms.flatMap((term, t) => (typeof alone[t] === 'string' && typeof term !== 'string' ? [t] : []))
      : [];
  const wordHeld =
    widened.length === 0
      ? new Map<number, number[]>()
      : (
          await reader.termStatistics(
            widened.map((t) => alone[t] as Term),
            hits.map((h) => h.id),
          )
        ).matches;
  // What word t counts where it is held as itself, or only through a synonym.
  const counted = (t: number, exactly: boolean) => (weights[t] ?? 0) * (exactly ? 1 : options.synonymWeight);
  const heldExactly = (id: number, t: number) => {
    const w = widened.indexOf(t);
    return w < 0 || (wordHeld.get(id)?.includes(w) ?? false);
  };
  const trailWeight = (trail: readonly string[]) => {
    let weight = 0;
    for (const [t, term] of terms.entries()) {
      if (tokensContain(trail, alone[t] as Term)) weight += counted(t, true);
      else if (tokensContain(trail, term)) weight += counted(t, false);
    }
    return weight;
  };
  const plainOwn: number[] = [];
  const own = hits.map((h, i) => {
    const heldWeight = (held[i] ?? []).reduce((sum, t) => sum + counted(t, heldExactly(h.id, t)), 0);
    const share = (heldWeight / total) ** options.coverageExponent;
    // A section whose heading trail names the query's words is usually the one that answers it; a changelog's
    // heading names what changed ("Upgraded z.discriminatedUnion()"), not what the section documents. Both are
    // read from the hit (and kept per section), not queried.
    const { trail, history, otherVersion, otherEntry } = factsOf(h, major);
    const heading = history || options.headingBoost === 0 ? 1 : 1 + options.headingBoost * (trailWeight(trail) / total);
    // A page many others link to is where the docs explain a thing; a copy of it for another dialect is not.
    const central = (1 + h.inboundLinks) ** options.linkWeight;
    // An entry point the package's docs never import (tooling, integrations) answers after the ones they do.
    const entry = otherEntry ? options.entryPointWeight : 1;
    plainOwn.push(h.score * share * central * entry * (history || otherVersion ? options.historyWeight : 1));
    return (plainOwn[i] ?? 0) * heading;
  });
  // A page with many matching sections is about the topic; one stray match is not.
  const withPage = (scores: readonly number[]) => {
    const pageTotals = new Map<number, number>();
    for (const [i, h] of hits.entries())
      pageTotals.set(h.documentId, (pageTotals.get(h.documentId) ?? 0) + (scores[i] ?? 0));
    return hits.map(
      (h, i) => (scores[i] ?? 0) + options.pageWeight * ((pageTotals.get(h.documentId) ?? 0) - (scores[i] ?? 0)),
    );
  };
  return { hits, raw: withPage(own), plain: withPage(plainOwn), covered, held, counts };
}

/**
 * What lexicalCandidates reads of a section besides its score: its heading trail's tokens, whether its page is
 * history, and whether it documents another major version than its package's own.
 */
interface SectionFacts {
  readonly trail: readonly string[];
  readonly history: boolean;
  readonly otherVersion: boolean;
  /** An API page of an entry point the package's docs never show imported. */
  readonly otherEntry: boolean;
}

/**
 * Sections' facts, by the breadcrumb array of their hit: a reader makes one such array per chunk and keeps it
 * with the chunk's fields in a cache of bounded size (PackageReader), so the facts of the sections that answer
 * question after question are worked out once and let go with the fields.
 */
const sectionFacts = new WeakMap<readonly string[], SectionFacts>();

function factsOf(hit: ChunkHit, major: number | undefined): SectionFacts {
  let found = sectionFacts.get(hit.breadcrumb);
  if (!found) {
    found = {
      trail: indexTokens(hit.breadcrumb.join(' ')),
      history: isHistoryPage(hit.path, hit.title),
      otherVersion: isOtherVersionPage(hit.path, major),
      otherEntry: isOtherEntryPointPage(hit.path),
    };
    sectionFacts.set(hit.breadcrumb, found);
  }
  return found;
}
