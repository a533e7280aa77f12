import { diversify, fuseScores, minMaxNormalize, relevanceDrop, tokenBudget } from '@docs/rank';
import {
  type ChunkHit,
  formatPackageId,
  type InstalledPackage,
  indexTokens,
  loadTokenCounter,
  type PackageReader,
  type PackageStore,
  parsePackageSpec,
  type ResolveError,
  type Term,
  tokensContain,
} from '@docs/store';
import { phrasingsOf } from './alternatives.js';
import { cannotAnswer, ceilingOf, coverageCeiling, type SearchedEvidence } from './bounds.js';
import { type CatalogKnowledge, catalogKnowledge, type KnownTerms } from './catalog.js';
import { type Confidence, confidenceOf, type PhrasingReport, weakNote } from './confidence.js';
import { answerFromInstalled, retryIfGone } from './gone.js';
import { isHistoryPage } from './history.js';
import { fuseWithVectors, Retrieval, type ScoredHits, shareOfBest, similarityFactors } from './hybrid.js';
import { heldShare, idfWeights, type TermCounts } from './idf.js';
import { demoteNearDuplicates } from './near-duplicates.js';
import { type ResolvedOptions, resolveOptions, type SearchAllOptions, type SearchOptions } from './options.js';
import { type AnalyzedQuery, analyzeQuery } from './query.js';
import type { DocResult, RetrievalInfo, SearchResponse } from './results.js';
import { isIdentifier, termAlternatives } from './terms.js';
import { oneVersionEach, resolveForProject, withVersionHints } from './versions.js';

interface Target {
  readonly pkg: InstalledPackage;
  readonly label: string;
  /** The package's reader, asked for at each use: the store may close idle ones. */
  readonly reader: () => PackageReader;
}

/** One phrasing of the question: the topic as asked, or an alternative. */
interface Phrasing {
  readonly text: string;
  readonly terms: readonly string[];
  /** How much its matches count beside the others' (the topic weighs most). */
  readonly weight: number;
}

/** A chunk one phrasing found in one library. */
interface PhrasingHit {
  readonly hit: ChunkHit;
  /** Within-library score before normalisation. */
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
interface PhrasingHits {
  readonly list: readonly PhrasingHit[];
  /** The most terms any chunk found holds. */
  readonly bestCoverage: number;
  readonly counts: TermCounts;
  /** Hybrid (the topic only): the best cosine similarity to the topic, and the model that measured it. */
  readonly bestSimilarity?: number;
  readonly embedder?: string;
}

/** Lexical candidates with which terms each holds and how common each term is. */
interface LexicalHits extends ScoredHits {
  /** `raw` without the heading boost: what the chunk's words alone are worth. */
  readonly plain: readonly number[];
  readonly held: readonly (readonly number[])[];
  readonly counts: TermCounts;
}

interface Candidate {
  readonly target: Target;
  readonly hit: ChunkHit;
  /** Within-library score before normalisation, from the phrasing that gave the chunk its best score. */
  readonly raw: number;
  /** The phrasings' scores fused, [0, 1]. */
  readonly score: number;
  /** The same without the heading boost, as a share of the library's best such score (scaled as `score` is). */
  readonly plain: number;
  /** For each phrasing, the terms (indices) the chunk holds; undefined where the phrasing did not find it. */
  readonly held: ReadonlyArray<readonly number[] | undefined>;
}

/** A library's candidates above its own drop, and how much of the question its best ones hold. */
interface LibraryCandidates {
  readonly list: Candidate[];
  /** The best over the phrasings of weight × (share of the terms the best chunk holds)^coverageExponent. */
  readonly coverage: number;
  /** The best over the phrasings of weight × the share of the question's information its best chunk holds. */
  readonly information: number;
  /** Whether a chunk it found holds a phrasing's rarest word (of those any library holds). */
  readonly holdsRarest: boolean;
  /** Hybrid: the best cosine similarity of any of its sections to the topic, and the model that measured it. */
  readonly bestSimilarity?: number;
  readonly embedder?: string;
}

/** A run of adjacent chunks of one document, shown as one result. */
interface Group {
  readonly target: Target;
  readonly members: ChunkHit[];
  readonly score: number;
  /** Per phrasing, the terms any member holds (undefined: the phrasing found none of them). */
  readonly held: ReadonlyArray<readonly number[] | undefined>;
}

/**
 * Searches one library's documentation. `library` is `name` or `name@version`
 * (case-insensitive; a bare name uses the highest installed version).
 *
 * @example
 * const answer = await getDocs(store, 'vitest', 'fake timers', { tokens: 2000 });
 * for (const r of answer.results) console.log(r.library, r.breadcrumb.join(' > '), r.score);
 */
export async function getDocs(
  store: PackageStore,
  library: string,
  topic: string,
  options: SearchOptions & {
    readonly version?: string;
    /**
     * The version of this library the project being worked on installs. For a bare name it is the version
     * answered from when installed; when it is not installed the highest is, and the answer says so (`project`).
     */
    readonly projectVersion?: string;
  } = {},
): Promise<SearchResponse> {
  const resolved = resolveOptions(options);
  // Checked before the library is looked up: bad input is refused the same way whatever is installed.
  const phrasings = phrasingsOf(topic, options.alternatives);
  // A package another process removes mid-request is looked up again: the answer then says it is not installed.
  return answerFromInstalled(
    () => resolveForProject(store, library, options.version, options.projectVersion),
    async (found) => {
      const alsoDrop = [found.value.name.replace(/^@[^/]+\//, '')];
      const answer = (pkg: InstalledPackage) =>
        search([targetOf(store, pkg)], phrasings, resolved, { alsoDrop }, false);
      const response = withNotes(await answer(found.value), found.note ? [found.note] : []);
      // Another version is searched only when this one is empty or thin beside it (see withVersionHints).
      return withVersionHints(store, found.value, response, options.projectVersion, answer);
    },
    unresolved,
  );
}

/**
 * Searches every installed library at once (the highest version of each), or
 * those named in `options.libraries`, and merges the answers into one ranked,
 * budgeted list whose results say which library they come from.
 *
 * @example
 * const answer = await searchAll(store, 'enable CORS');
 */
export async function searchAll(
  store: PackageStore,
  topic: string,
  options: SearchAllOptions = {},
): Promise<SearchResponse> {
  const resolved = resolveOptions(options);
  const phrasings = phrasingsOf(topic, options.alternatives);
  // A package removed after listing is left out with a warning; should every one have gone, the store is listed again.
  return retryIfGone(() => searchListed(store, phrasings, resolved, options));
}

async function searchListed(
  store: PackageStore,
  phrasings: readonly string[],
  resolved: ResolvedOptions,
  options: SearchAllOptions,
): Promise<SearchResponse> {
  let packages: InstalledPackage[];
  const notes: string[] = [];
  if (options.libraries && options.libraries.length > 0) {
    packages = [];
    for (const spec of options.libraries) {
      const name = parsePackageSpec(spec.trim()).name.toLowerCase();
      const found = await resolveForProject(store, spec, undefined, options.projectVersions?.get(name));
      if (!found.ok) return unresolved(found.error);
      if (found.note) notes.push(found.note);
      if (!packages.some((p) => p.file === found.value.file)) packages.push(found.value);
    }
  } else {
    packages = oneVersionEach(await store.list(), options.projectVersions);
  }
  if (packages.length === 0) return unresolved({ code: 'no-packages', message: '', installed: [] });
  const response = await search(
    packages.map((p) => targetOf(store, p)),
    phrasings,
    resolved,
    {},
    true,
    (terms) => catalogKnowledge(store, packages, terms, resolved),
  );
  return withNotes(response, notes);
}

function targetOf(store: PackageStore, pkg: InstalledPackage): Target {
  return { pkg, label: formatPackageId(pkg), reader: () => store.reader(pkg) };
}

/**
 * A package that cannot be read as it is (damaged after it was installed, of
 * another format, or removed by another process since it was listed): searching every library leaves it out with a warning
 * naming it, so one bad package never breaks the others' answers.
 */
function isUnreadable(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.name === 'StoreError' &&
    ['damaged-package', 'unknown-format', 'gone'].includes((error as { code?: string }).code ?? '')
  );
}

async function search(
  targets: readonly Target[],
  texts: readonly string[],
  options: ResolvedOptions,
  analysis: { alsoDrop?: readonly string[] },
  skipUnreadable: boolean,
  catalog?: (terms: readonly (readonly Term[])[]) => Promise<CatalogKnowledge>,
): Promise<SearchResponse> {
  const topic = texts[0] ?? '';
  const capped = { ...analysis, maxChars: options.maxTopicChars, maxTerms: options.maxTerms };
  const analyzedTopic = analyzeQuery(topic, capped);
  const warnings = capWarnings(analyzedTopic.cut, options);
  const phrasings: Phrasing[] = texts.map((text, i) => ({
    text,
    terms: i === 0 ? analyzedTopic.terms : analyzeQuery(text, capped).terms,
    weight: i === 0 ? 1 : options.alternativeWeight,
  }));
  const terms = analyzedTopic.terms;
  // The embedder reads the topic as the caps cut it, so a pasted page costs no more than its head.
  const retrieval = new Retrieval(topic.slice(0, options.maxTopicChars), options);
  if (phrasings.every((p) => p.terms.length === 0)) {
    return empty(
      'no-match',
      `The topic "${shorten(topic)}" has no words to search for. Use words, an API name or an error message.`,
      targets.map((t) => t.label),
      terms,
      'none',
      { retrieval: retrieval.info(), ...(warnings.length > 0 ? { warnings } : {}) },
    );
  }
  const perLibrary = Math.max(options.candidates, options.offset + options.limit);
  // One library after another, each phrasing on the library's one connection: SQLite work is
  // synchronous, so running them "concurrently" would only interleave, and the store may close idle readers.
  // Vectors take part for the topic only: alternatives are the docs' own words, which is what the index matches.
  let unreadable: Error | undefined;
  // What the store's catalog knows of each library: one that holds none of the words is answered from it,
  // unopened, with exactly what searching it finds (nothing, and its chunk count for the terms' information);
  // the others are asked only about the words they may hold.
  const known = catalog
    ? await catalog(phrasings.map((p) => p.terms.map((w) => termAlternatives(w, { synonyms: options.synonyms }))))
    : new Map<string, { phrasings: KnownTerms[]; skip: boolean; exact: boolean }>();
  /** Per target: what it found, undefined while deferred (see below) or when it could not be read. */
  const slots: (PhrasingHits[] | undefined)[] = targets.map(() => undefined);
  const searchTarget = async (index: number) => {
    const target = targets[index] as Target;
    const knowledge = known.get(target.pkg.file);
    try {
      const lists: PhrasingHits[] = [];
      for (const [i, phrasing] of phrasings.entries())
        lists.push(
          await candidates(
            target,
            phrasing.terms,
            perLibrary,
            options,
            i === 0 ? retrieval : undefined,
            knowledge?.phrasings[i],
          ),
        );
      slots[index] = lists;
    } catch (error) {
      if (!skipUnreadable || !isUnreadable(error)) throw error;
      unreadable ??= error;
      warnings.push(`Left out ${target.label}: ${error.message}`);
    }
  };
  // A library whose every term count the catalog knows exactly, and whose answer could not come from
  // vectors, is deferred: it is searched only if what the others found leaves it a chance to change the answer.
  const deferred = new Map<number, KnownTerms[]>();
  // A re-ranker reorders the merged list by what it reads, which no bound here foresees: then nothing is deferred.
  const deferring =
    targets.length > 1 && [...known.values()].some((k) => k.exact && !k.skip) && !(await retrieval.mayRerank());
  for (const [index, target] of targets.entries()) {
    const knowledge = known.get(target.pkg.file);
    if (knowledge?.skip)
      slots[index] = phrasings.map((p, i) => nothingFound(p.terms, knowledge.phrasings[i]?.chunks ?? 0));
    else if (deferring && knowledge?.exact) deferred.set(index, knowledge.phrasings);
    else await searchTarget(index);
  }
  // The deferred libraries that could hold the most are searched first: they set the bar for the rest.
  const first = [...deferred]
    .map(([index, k]) => ({ index, coverage: coverageCeiling(k, phrasings, options) }))
    .sort((a, b) => b.coverage - a.coverage || a.index - b.index)
    .slice(0, 4);
  for (const { index } of first) {
    deferred.delete(index);
    await searchTarget(index);
  }
  let found: PhrasingHits[][];
  let answering: Target[];
  let information: number[][];
  let rarest: number[];
  let mentioned: (p: number, term: number) => boolean;
  for (;;) {
    answering = [];
    found = [];
    for (const [index, target] of targets.entries()) {
      const lists = slots[index];
      const knowledge = deferred.get(index);
      if (knowledge) found.push(phrasings.map((p, i) => catalogued(p.terms, knowledge[i])));
      else if (lists) found.push(lists);
      else continue;
      answering.push(target);
    }
    // A term's information is counted over everything searched, so the shares compare across libraries.
    const counted = found;
    information = phrasings.map((p, i) =>
      idfWeights(
        counted.map((lists) => (lists[i] as PhrasingHits).counts),
        p.terms.length,
      ),
    );
    mentioned = (p: number, term: number) => counted.some((lists) => (lists[p]?.counts.frequencies[term] ?? 0) > 0);
    // Each phrasing's rarest word that some library holds: the word that tells libraries apart.
    const weights = information;
    rarest = weights.map((w, p) =>
      w.reduce((best, x, t) => (mentioned(p, t) && (best < 0 || x > (w[best] ?? 0)) ? t : best), -1),
    );
    if (deferred.size === 0) break;
    const evidence = searchedEvidence(answering, found, phrasings, information, rarest, options);
    const chances = [...deferred].filter(
      ([, k]) => !cannotAnswer(ceilingOf(k, phrasings, weights, rarest, options), evidence, options),
    );
    if (chances.length === 0) break;
    for (const [index] of chances) {
      deferred.delete(index);
      await searchTarget(index);
    }
  }
  // Nothing left to answer: the reason is the answer, not an empty list.
  if (answering.length === 0 && unreadable) throw unreadable;
  const searched = answering.map((t) => t.label);
  const extra = warnings.length > 0 ? { warnings } : {};
  const libraries = answering.map((target, t) =>
    fusePhrasings(target, found[t] as PhrasingHits[], phrasings, information, rarest, options),
  );
  const lists = crossLibraryScale(libraries, options);
  const match = found.some((l) => l.some((h, i) => h.bestCoverage > 0 && h.bestCoverage === phrasings[i]?.terms.length))
    ? 'all'
    : 'some';
  const merged = await retrieval.rerank(lists.flat().sort(byScore));
  if (merged.length === 0) {
    const where = answering.length === 1 ? searched[0] : `the ${answering.length} libraries searched`;
    return empty(
      'no-match',
      `Nothing in ${where} matched "${shorten(topic)}". Try fewer or other words: an API name, a config key or an error message.`,
      searched,
      terms,
      'none',
      {
        retrieval: retrieval.info(),
        confidence: withoutPhrasings(confidenceOf([], phrasings, information, mentioned, options.weakBelow)),
        ...extra,
      },
    );
  }
  // The drop measures relevance alone; the spread over pages comes after it.
  const kept = diversify(aboveDrop(merged, options.drop), {
    key: (c) => `${c.target.label}\0${c.hit.documentId}`,
    decay: options.samePageDecay,
  });
  // Both formats rank the same sections in the same order and page over them (offset, limit and total count
  // sections); the full format then joins, on its page, each section with those after it in its document.
  const sections: Group[] = kept.map((c) => ({ target: c.target, members: [c.hit], score: c.score, held: c.held }));
  // The full format reads each shown chunk once, for the duplicate check and the answer alike; the index
  // format reads what the check needs, so that both list the same sections in the same order.
  const window = repeatsWindow(sections, options);
  const full = options.format === 'full';
  const read = full ? Math.max(options.offset + options.limit, window) : window;
  const contents = read > 0 ? await loadContents(sections.slice(0, read)) : new Map<Target, Map<number, string>>();
  const ranked = withoutRepeats(sections, window, contents, options);
  const pageSections = ranked.slice(options.offset, options.offset + options.limit);
  // Joining serves reading, so only the full format does it; an index entry points at one section.
  const page = full ? mergeAdjacent(pageSections) : pageSections;
  const { results, shown } = full
    ? await withContent(page, contents, options)
    : { results: page.map((g) => toResult(g, undefined)), shown: page };
  const totalTokens = options.format === 'index' ? 0 : results.reduce((sum, r) => sum + r.tokens, 0);
  const next = nextOffset(pageSections, shown, options.offset, ranked.length);
  // How good the answer is, from the first page: what a caller reads first.
  const firstPage = ranked.slice(0, Math.max(options.limit, 1));
  const { byPhrasing, ...confidence } = confidenceOf(firstPage, phrasings, information, mentioned, options.weakBelow);
  const weak = confidence.weak && results.length > 0 ? `${weakNote(confidence, results[0] as DocResult)}. ` : '';
  const shownSections = results.reduce((sum, r) => sum + (r.sections?.length ?? 1), 0);
  const inBlocks =
    shownSections > results.length ? `, shown as ${results.length} (sections that follow each other joined)` : '';
  const message =
    results.length > 0
      ? `${weak}${shownSections} of ${ranked.length} results${inBlocks} from ${searched.length === 1 ? searched[0] : `${new Set(results.map((r) => r.library)).size} of ${searched.length} libraries`}${match === 'some' ? ' (no section holds every word; ranked by how many they hold)' : ''}`
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

/**
 * One library's answer to every phrasing, fused into one list ({@link fuseScores}:
 * each phrasing's normalised scores weighed, the topic's most), then cut at the
 * library's own drop. A chunk under the drop within its own library is under it
 * in any merged list (scaling a library's scores keeps their ratios), so it is let go
 * here: over many libraries, most are.
 */
function fusePhrasings(
  target: Target,
  found: readonly PhrasingHits[],
  phrasings: readonly Phrasing[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
  options: ResolvedOptions,
): LibraryCandidates {
  const byId = found.map((h) => new Map(h.list.map((c) => [c.hit.id, c])));
  const fused = fuseScores(
    found.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.score }))),
    { weights: phrasings.map((p) => p.weight), rest: options.fusionRest },
  );
  const plain = new Map(
    fuseScores(
      found.map((h) => h.list.map((c) => ({ id: String(c.hit.id), score: c.plain }))),
      { weights: phrasings.map((p) => p.weight), rest: options.fusionRest },
    ).map((f) => [f.id, f.score]),
  );
  // Fused scores can pass 1; each library's best goes back to 1, as with one phrasing.
  const top = fused[0]?.score ?? 0;
  const topPlain = Math.max(0, ...plain.values());
  const list: Candidate[] = [];
  for (const f of fused) {
    const wordsAlone = plain.get(f.id) ?? 0;
    // Under the drop by both measures (see aboveDrop): under it in any merged list too.
    if (f.score < options.drop * top && wordsAlone < options.drop * topPlain) continue;
    const id = Number(f.id);
    const best = byId[f.best]?.get(id) as PhrasingHit;
    list.push({
      target,
      hit: best.hit,
      raw: best.raw,
      score: top > 0 ? f.score / top : 0,
      plain: topPlain > 0 ? wordsAlone / topPlain : 0,
      held: byId.map((m) => m.get(id)?.held),
    });
  }
  let coverage = 0;
  let informationHeld = 0;
  let holdsRarest = false;
  for (const [i, h] of found.entries()) {
    const phrasing = phrasings[i] as Phrasing;
    if (h.list.length === 0 || phrasing.terms.length === 0) continue;
    coverage = Math.max(
      coverage,
      phrasing.weight * (h.bestCoverage / phrasing.terms.length) ** options.coverageExponent,
    );
    const weights = information[i] ?? [];
    const share = h.list.reduce((most, c) => Math.max(most, heldShare(weights, c.held)), 0);
    informationHeld = Math.max(informationHeld, phrasing.weight * share);
    const r = rarest[i] ?? -1;
    holdsRarest ||= r >= 0 && h.list.some((c) => c.held.includes(r));
  }
  const topic = found[0];
  return {
    list,
    coverage,
    information: informationHeld,
    holdsRarest,
    ...(topic?.bestSimilarity === undefined ? {} : { bestSimilarity: topic.bestSimilarity }),
    ...(topic?.embedder === undefined ? {} : { embedder: topic.embedder }),
  };
}

/** What the answer says when the caps cut the query: what was cut, and the cap. */
function capWarnings(cut: AnalyzedQuery['cut'], options: ResolvedOptions): string[] {
  const warnings: string[] = [];
  if (cut?.chars) {
    warnings.push(
      `The topic was cut to its first ${options.maxTopicChars} characters (the cap; ${cut.chars} more were left out).`,
    );
  }
  if (cut?.terms) {
    warnings.push(`Searched the first ${options.maxTerms} words only (the cap; ${cut.terms} more were left out).`);
  }
  return warnings;
}

/** A topic as a message quotes it: a pasted page is not repeated back whole. */
function shorten(topic: string): string {
  return topic.length <= 200 ? topic : `${topic.slice(0, 200)}…`;
}

/**
 * One phrasing's candidates in one library: its lexical hits normalised within
 * the library, or, for the topic when the package has vectors and their
 * embedder is here, those fused with the sections nearest the query vector.
 */
async function candidates(
  target: Target,
  words: readonly string[],
  limit: number,
  options: ResolvedOptions,
  retrieval: Retrieval | undefined,
  known?: KnownTerms,
): Promise<PhrasingHits> {
  if (words.length === 0) return { list: [], bestCoverage: 0, counts: { frequencies: [], chunks: 0 } };
  const lexical = await lexicalCandidates(target, words, limit, options, known);
  const query = retrieval ? await retrieval.queryVector(target) : undefined;
  if (query === undefined) {
    // BM25 of a chunk that matches nothing is 0: that, not the weakest candidate, is the bottom of the scale.
    const scores = lexical.hits.length === 0 ? [] : minMaxNormalize(lexical.raw, { floor: 0 });
    const plain = lexical.hits.length === 0 ? [] : minMaxNormalize(lexical.plain, { floor: 0 });
    return phrasingHits(lexical, scores, lexical.held, lexical.counts, plain);
  }
  const fused = await fuseWithVectors(target, lexical, query, limit, options);
  const embedder = (await target.reader().embedder())?.id;
  // The sections only the vectors found come after the lexical ones, and hold none of the terms as far as is known.
  const held = fused.hits.map((_, i) => lexical.held[i] ?? []);
  return {
    ...phrasingHits(fused, shareOfBest(fused.raw), held, lexical.counts),
    bestSimilarity: Math.max(...fused.similarity),
    ...(embedder ? { embedder } : {}),
  };
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

/**
 * What the libraries searched so far found, as crossLibraryScale will read it
 * (the deferred ones, standing in as having found nothing, change none of it).
 */
function searchedEvidence(
  answering: readonly Target[],
  found: readonly PhrasingHits[][],
  phrasings: readonly Phrasing[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
  options: ResolvedOptions,
): SearchedEvidence {
  const libraries = answering.map((target, t) =>
    fusePhrasings(target, found[t] as PhrasingHits[], phrasings, information, rarest, options),
  );
  // The drop keeps what reaches `drop` of the best score or of the best score of words alone (aboveDrop): a
  // library whose best scaled chunk is under both is under the lower of the two.
  const scaled = crossLibraryScale(libraries, options).flat();
  const top = Math.min(
    scaled.reduce((most, c) => Math.max(most, c.score), 0),
    scaled.reduce((most, c) => Math.max(most, c.plain), 0),
  );
  return {
    bestCoverage: Math.max(0, ...libraries.map((l) => l.coverage)),
    bestInformation: Math.max(0, ...libraries.map((l) => l.information)),
    someHoldRarest: libraries.some((l) => l.holdsRarest),
    matchAll: found.some((l) => l.some((h, i) => h.bestCoverage > 0 && h.bestCoverage === phrasings[i]?.terms.length)),
    top,
  };
}

/** A deferred library's counts, from the catalog, and nothing found (it will not be searched unless it might matter). */
function catalogued(words: readonly string[], known: KnownTerms | undefined): PhrasingHits {
  if (words.length === 0) return { list: [], bestCoverage: 0, counts: { frequencies: [], chunks: 0 } };
  const frequencies = words.map((_, t) => known?.frequencies[t] ?? 0);
  return { list: [], bestCoverage: 0, counts: { frequencies, chunks: known?.chunks ?? 0 } };
}

/** What {@link candidates} finds in a library none of whose chunks holds any of the words. */
function nothingFound(words: readonly string[], chunks: number): PhrasingHits {
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
    .sort((x, y) => y.raw - x.raw);
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
  const counts = { frequencies, chunks };
  if (hits.length === 0) return { hits: [], raw: [], plain: [], covered: [], held: [], counts };
  // A pasted identifier or error code is the most deliberate part of a query: it counts more.
  const weights = words.map((w) => (isIdentifier(w) ? options.identifierWeight : 1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const weightOf = (found: readonly number[]) => found.reduce((sum, t) => sum + (weights[t] ?? 0), 0);
  // Every hit holds at least one term.
  const held = hits.map((h) => matches.get(h.id) ?? [0]);
  const covered = held.map((found) => found.length);
  const plainOwn: number[] = [];
  const own = hits.map((h, i) => {
    const share = (weightOf(held[i] ?? []) / total) ** options.coverageExponent;
    // A section whose heading trail names the query's words is usually the one that answers it; a changelog's
    // heading names what changed ("Upgraded z.discriminatedUnion()"), not what the section documents. Both are
    // read from the hit (and kept per section), not queried.
    const { trail, history } = factsOf(h);
    const inTrail = options.headingBoost > 0 ? terms.flatMap((term, t) => (tokensContain(trail, term) ? [t] : [])) : [];
    const heading = history ? 1 : 1 + options.headingBoost * (weightOf(inTrail) / total);
    // A page many others link to is where the docs explain a thing; a copy of it for another dialect is not.
    const central = (1 + h.inboundLinks) ** options.linkWeight;
    plainOwn.push(h.score * share * central * (history ? options.historyWeight : 1));
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

/** What lexicalCandidates reads of a section besides its score: its heading trail's tokens, and whether its page is history. */
interface SectionFacts {
  readonly trail: readonly string[];
  readonly history: boolean;
}

/**
 * Sections' facts, by the breadcrumb array of their hit: a reader makes one such array per chunk and keeps it
 * with the chunk's fields in a cache of bounded size (PackageReader), so the facts of the sections that answer
 * question after question are worked out once and let go with the fields.
 */
const sectionFacts = new WeakMap<readonly string[], SectionFacts>();

function factsOf(hit: ChunkHit): SectionFacts {
  let found = sectionFacts.get(hit.breadcrumb);
  if (!found) {
    found = { trail: indexTokens(hit.breadcrumb.join(' ')), history: isHistoryPage(hit.path, hit.title) };
    sectionFacts.set(hit.breadcrumb, found);
  }
  return found;
}

/**
 * Min-max makes every library's best chunk 1.0, even a library that only
 * matches a stray word. Coverage, unlike BM25, means the same in every
 * library, so each library's scores are scaled by how its best coverage
 * compares with the best of any library (raised to the same exponent). And a
 * library none of whose chunks holds the question's rarest word, when another
 * library's do, is scaled by how much of the question's information its best
 * chunk holds compared with the best library's (raised to `idfExponent`): it
 * cannot outrank the library holding the word that tells them apart.
 */
function crossLibraryEvidence(found: readonly LibraryCandidates[], options: ResolvedOptions): number[] {
  const bestCoverage = Math.max(...found.map((f) => f.coverage));
  const bestInformation = Math.max(...found.map((f) => f.information));
  const someHoldRarest = found.some((f) => f.holdsRarest);
  return found.map(({ coverage, information, holdsRarest }) => {
    const byCoverage = bestCoverage > 0 ? coverage / bestCoverage : 1;
    const lacking = someHoldRarest && !holdsRarest && bestInformation > 0;
    return byCoverage * (lacking ? (information / bestInformation) ** options.idfExponent : 1);
  });
}

/**
 * Scales each library's scores so that a merged list compares like with
 * like: by cosine similarity when every library answered with vectors of one
 * model (see similarityFactors), else by term coverage and information (crossLibraryEvidence).
 */
function crossLibraryScale(found: readonly LibraryCandidates[], options: ResolvedOptions): Candidate[][] {
  if (found.length < 2) return found.map((f) => f.list);
  const factors = similarityFactors(found) ?? crossLibraryEvidence(found, options);
  return found.map(({ list }, i) => {
    const factor = factors[i] ?? 1;
    return factor === 1 ? list : list.map((c) => ({ ...c, score: c.score * factor, plain: c.plain * factor }));
  });
}

/**
 * The relevance drop: a candidate is kept when it scores at least `drop` of
 * the best, or when its words alone (the score without the heading boost) are
 * worth at least `drop` of the best such score. The heading boost orders what
 * is relevant; it does not decide what is: for a one-word question every
 * section holds all of it, and one whose heading names the word would
 * otherwise be worth three times the rest and leave nothing else above the drop
 * (`httpx retries`: the httpx-retries plugin only, not the transports page's
 * `HTTPTransport(retries=1)`). The ones kept only by their words rank below
 * every other (their scores are under the drop), so the rest keep their places.
 */
function aboveDrop(merged: readonly Candidate[], drop: number): Candidate[] {
  const byScore = relevanceDrop(merged, { drop });
  const bestPlain = Math.max(0, ...merged.map((c) => c.plain));
  const kept = new Set(byScore);
  return merged.filter((c) => kept.has(c) || c.plain >= drop * bestPlain);
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.raw - a.raw || byLabel(a.target.label, b.target.label) || a.hit.id - b.hit.id;
}

/**
 * Library labels in alphabetical order ignoring case, as `localeCompare` puts the letters, digits and punctuation of
 * `name@version`, without loading ICU's collator (~15 ms the first time in a process, on a one-question `docs search`).
 */
function byLabel(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Joins, on a page of sections ranked best first, each section with the ones
 * that follow it in its document and rank below it, into one result at its
 * rank, so an answer split across chunks reads whole. A block starts at its
 * best section and is labelled by it: a section before it in the document
 * stays a result of its own, so a token budget never cuts the best part of a
 * block to show what comes before it.
 */
function mergeAdjacent(page: readonly Group[]): Group[] {
  type Joined = Omit<Group, 'held' | 'members'> & {
    members: ChunkHit[];
    held: ReadonlyArray<readonly number[] | undefined>;
  };
  const groups: Joined[] = [];
  const lastInDocument = new Map<string, Map<number, Joined>>();
  for (const section of page) {
    const hit = section.members[0] as ChunkHit;
    const key = `${section.target.label}\0${hit.documentId}`;
    const ends = lastInDocument.get(key) ?? new Map<number, Joined>();
    const block = ends.get(hit.ord - 1);
    if (block) {
      block.members.push(hit);
      block.held = block.held.map((terms, i) => unite(terms, section.held[i]));
      ends.delete(hit.ord - 1);
      ends.set(hit.ord, block);
      continue;
    }
    const joined: Joined = { ...section, members: [hit] };
    groups.push(joined);
    ends.set(hit.ord, joined);
    lastInDocument.set(key, ends);
  }
  return groups;
}

/**
 * Where the next page starts: the first section of this page that no result
 * shows (the token budget skips what does not fit), else the section after the
 * page; undefined when nothing is left or nothing was shown.
 */
function nextOffset(
  page: readonly Group[],
  shown: readonly Group[],
  offset: number,
  total: number,
): number | undefined {
  if (shown.length === 0) return undefined;
  const key = (target: Target, hit: ChunkHit) => `${target.label}\0${hit.id}`;
  const ids = new Set(shown.flatMap((g) => g.members.map((m) => key(g.target, m))));
  const missing = page.findIndex((g) => !ids.has(key(g.target, g.members[0] as ChunkHit)));
  const next = offset + (missing === -1 ? page.length : missing);
  return next < total ? next : undefined;
}

/** The terms either list holds; undefined when neither phrasing found anything. */
function unite(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [...new Set([...a, ...b])];
}

function toResult(group: Group, content: string | undefined, tokens?: number): DocResult {
  const first = group.members[0] as ChunkHit;
  const heading = first.breadcrumb.at(-1) ?? first.title;
  return {
    library: group.target.label,
    path: first.path,
    title: first.title,
    breadcrumb: first.breadcrumb,
    heading,
    score: group.score,
    tokens: tokens ?? groupTokens(group),
    truncated: false,
    ...(group.members.length > 1 ? { sections: group.members.map((m) => m.breadcrumb) } : {}),
    ...(content === undefined ? {} : { content }),
  };
}

/** The tokens of a group's chunks together, as counted when the package was built. */
function groupTokens(group: Group): number {
  return group.members.reduce((sum, m) => sum + m.tokens, 0);
}

/** Chunk contents, per library, keyed by chunk id. */
type Contents = ReadonlyMap<Target, ReadonlyMap<number, string>>;

/** Reads the content of every chunk of the groups, one query batch per library. */
async function loadContents(groups: readonly Group[]): Promise<Contents> {
  const idsByTarget = new Map<Target, number[]>();
  for (const g of groups)
    idsByTarget.set(g.target, [...(idsByTarget.get(g.target) ?? []), ...g.members.map((m) => m.id)]);
  const contents = new Map<Target, ReadonlyMap<number, string>>();
  for (const [target, ids] of idsByTarget) contents.set(target, await target.reader().chunkContents(ids));
  return contents;
}

function repeatsChecked(groups: readonly Group[], options: ResolvedOptions): boolean {
  return options.duplicateThreshold < 1 && groups.length > 1;
}

/**
 * How many of the first groups the near-duplicate check looks at: the page
 * plus as many again, and on the first page no further than twice what the
 * token budget can show, since only that part of the list can reach the reader.
 */
function repeatsWindow(groups: readonly Group[], options: ResolvedOptions): number {
  if (!repeatsChecked(groups, options)) return 0;
  const most = Math.min(groups.length, 2 * (options.offset + options.limit));
  if (options.offset > 0 || options.tokens === 0) return most;
  let tokens = 0;
  for (let i = 0; i < most; i++) {
    tokens += groupTokens(groups[i] as Group);
    if (tokens > 2 * options.tokens) return i + 1;
  }
  return most;
}

/**
 * Near-duplicates go below their first occurrence in the part of the list a
 * caller can see (see repeatsWindow): a passage repeated in a guide and a
 * reference would spend the token budget twice. The index format moves them
 * too, so that both formats list the same sections in the same order.
 */
function withoutRepeats(
  groups: readonly Group[],
  windowSize: number,
  contents: Contents,
  options: ResolvedOptions,
): Group[] {
  if (windowSize === 0) return [...groups];
  const window = groups.slice(0, windowSize);
  const textOf = (g: Group) => g.members.map((m) => contents.get(g.target)?.get(m.id) ?? '').join('\n\n');
  const reordered = demoteNearDuplicates(window, textOf, {
    threshold: options.duplicateThreshold,
    sizeOf: groupTokens,
  });
  return [...reordered, ...groups.slice(window.length)];
}

/** The page's results with their content, within the token budget, and the groups they show. */
async function withContent(
  page: readonly Group[],
  contents: Contents,
  options: ResolvedOptions,
): Promise<{ results: DocResult[]; shown: Group[] }> {
  const items = page.map((g) => {
    const texts = contents.get(g.target) ?? new Map<number, string>();
    let tokens = 0;
    const parts = g.members.map((m, i) => {
      tokens += m.tokens;
      const text = texts.get(m.id) ?? '';
      const previous = g.members[i - 1];
      const ownHeading = m.breadcrumb.at(-1);
      // A later member that starts a new section keeps its heading, so the merged text reads as the page does.
      if (
        previous &&
        ownHeading !== undefined &&
        m.level > 0 &&
        JSON.stringify(previous.breadcrumb) !== JSON.stringify(m.breadcrumb)
      ) {
        const line = `${'#'.repeat(Math.min(m.level + 1, 6))} ${ownHeading}`;
        // Counted generously (two characters a token) so the budget holds without loading the tokenizer.
        tokens += Math.ceil(line.length / 2) + 1;
        return `${line}\n\n${text}`;
      }
      return text;
    });
    return { group: g, content: parts.join('\n\n'), tokens };
  });
  const budget = options.tokens === 0 ? Number.POSITIVE_INFINITY : options.tokens;
  // The tokenizer is needed only to cut a top result larger than the whole budget.
  const countTokens = (items[0]?.tokens ?? 0) > budget ? await loadTokenCounter() : undefined;
  const fitted = tokenBudget(items, { budget, ...(countTokens ? { countTokens } : {}) });
  return {
    results: fitted.items.map((item) => ({
      ...toResult(item.group, item.content, item.tokens),
      truncated: item.truncated,
    })),
    shown: fitted.items.map((item) => item.group),
  };
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
function withNotes(response: SearchResponse, notes: readonly string[]): SearchResponse {
  return notes.length === 0 ? response : { ...response, message: `${notes.join('; ')}. ${response.message}` };
}

function withoutPhrasings({ byPhrasing: _, ...confidence }: Confidence & { byPhrasing: unknown }): Confidence {
  return confidence;
}

function unresolved(error: ResolveError): SearchResponse {
  if (error.code === 'no-packages') {
    return empty(
      'no-packages',
      'No documentation packages are installed. Add one with: docs add <folder> --name <name> --version <version>',
      [],
      [],
      'none',
    );
  }
  return empty(error.code, error.message, [], [], 'none', {
    installed: error.installed.map(formatPackageId),
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  });
}
