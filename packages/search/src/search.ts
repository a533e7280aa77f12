import { diversify, minMaxNormalize, relevanceDrop, tokenBudget } from '@docs/rank';
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
  tokensContain,
} from '@docs/store';
import { isHistoryPage } from './history.js';
import { fuseWithVectors, Retrieval, type ScoredHits, shareOfBest, similarityFactors } from './hybrid.js';
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

interface Candidate {
  readonly target: Target;
  readonly hit: ChunkHit;
  /** Within-library score before normalisation. */
  readonly raw: number;
  /** Normalised within its library, [0, 1]. */
  readonly score: number;
  /** How many of the query's terms the chunk holds. */
  readonly coverage: number;
}

/** A library's candidates above its own drop, and the best coverage among all it found. */
interface LibraryCandidates {
  readonly list: Candidate[];
  readonly bestCoverage: number;
  /** Hybrid: the best cosine similarity of any of its sections to the query, and the model that measured it. */
  readonly bestSimilarity?: number;
  readonly embedder?: string;
}

/** A run of adjacent chunks of one document, shown as one result. */
interface Group {
  readonly target: Target;
  readonly members: ChunkHit[];
  readonly score: number;
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
  const found = await resolveForProject(store, library, options.version, options.projectVersion);
  if (!found.ok) return unresolved(found.error);
  const alsoDrop = [found.value.name.replace(/^@[^/]+\//, '')];
  const answer = (pkg: InstalledPackage) => search([targetOf(store, pkg)], topic, resolved, { alsoDrop }, false);
  const response = withNotes(await answer(found.value), found.note ? [found.note] : []);
  // Another version is searched only when this one is empty or thin beside it (see withVersionHints).
  return withVersionHints(store, found.value, response, options.projectVersion, answer);
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
    topic,
    resolved,
    {},
    true,
  );
  return withNotes(response, notes);
}

function targetOf(store: PackageStore, pkg: InstalledPackage): Target {
  return { pkg, label: formatPackageId(pkg), reader: () => store.reader(pkg) };
}

/**
 * A package that cannot be read as it is (damaged after it was installed, or
 * of another format): searching every library leaves it out with a warning
 * naming it, so one bad package never breaks the others' answers.
 */
function isUnreadable(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.name === 'StoreError' &&
    ['damaged-package', 'unknown-format'].includes((error as { code?: string }).code ?? '')
  );
}

async function search(
  targets: readonly Target[],
  topic: string,
  options: ResolvedOptions,
  analysis: { alsoDrop?: readonly string[] },
  skipUnreadable: boolean,
): Promise<SearchResponse> {
  const analyzed = analyzeQuery(topic, { ...analysis, maxChars: options.maxTopicChars, maxTerms: options.maxTerms });
  const { terms } = analyzed;
  const warnings = capWarnings(analyzed.cut, options);
  // The embedder reads the topic as the caps cut it, so a pasted page costs no more than its head.
  const retrieval = new Retrieval(topic.slice(0, options.maxTopicChars), options);
  if (terms.length === 0) {
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
  // One library after another: SQLite work is synchronous, so running them
  // "concurrently" would only interleave, and the store may close idle readers.
  const found: LibraryCandidates[] = [];
  const answering: Target[] = [];
  let unreadable: Error | undefined;
  for (const target of targets) {
    try {
      found.push(await candidates(target, terms, perLibrary, options, retrieval));
      answering.push(target);
    } catch (error) {
      if (!skipUnreadable || !isUnreadable(error)) throw error;
      unreadable ??= error;
      warnings.push(`Left out ${target.label}: ${error.message}`);
    }
  }
  // Nothing left to answer: the reason is the answer, not an empty list.
  if (answering.length === 0 && unreadable) throw unreadable;
  const searched = answering.map((t) => t.label);
  const extra = warnings.length > 0 ? { warnings } : {};
  const lists = crossLibraryScale(found, options.coverageExponent);
  const match = found.some((l) => l.bestCoverage === terms.length) ? 'all' : 'some';
  const merged = await retrieval.rerank(lists.flat().sort(byScore));
  if (merged.length === 0) {
    const where = answering.length === 1 ? searched[0] : `the ${answering.length} libraries searched`;
    return empty(
      'no-match',
      `Nothing in ${where} matched "${shorten(topic)}". Try fewer or other words: an API name, a config key or an error message.`,
      searched,
      terms,
      'none',
      { retrieval: retrieval.info(), ...extra },
    );
  }
  // The drop measures relevance alone; the spread over pages comes after it.
  const kept = diversify(relevanceDrop(merged, { drop: options.drop }), {
    key: (c) => `${c.target.label}\0${c.hit.documentId}`,
    decay: options.samePageDecay,
  });
  // Merging serves reading, so only the full format does it; an index entry points at one section.
  const joined =
    options.format === 'full'
      ? mergeAdjacent(kept)
      : kept.map((c) => ({ target: c.target, members: [c.hit], score: c.score }));
  // The full format reads each shown chunk once, for the duplicate check and the answer alike.
  const shown = joined.slice(0, options.offset + options.limit);
  const window = repeatsWindow(joined, options);
  const contents =
    options.format === 'full' ? await loadContents(joined.slice(0, Math.max(shown.length, window))) : undefined;
  const groups = contents ? withoutRepeats(joined, window, contents, options) : joined;
  const page = groups.slice(options.offset, options.offset + options.limit);
  const results =
    contents === undefined ? page.map((g) => toResult(g, undefined)) : await withContent(page, contents, options);
  const totalTokens = options.format === 'index' ? 0 : results.reduce((sum, r) => sum + r.tokens, 0);
  const message =
    results.length > 0
      ? `${results.length} of ${groups.length} results from ${searched.length === 1 ? searched[0] : `${new Set(results.map((r) => r.library)).size} of ${searched.length} libraries`}${match === 'some' ? ' (no section holds every word; ranked by how many they hold)' : ''}`
      : `No results at offset ${options.offset}: there are ${groups.length}.`;
  return {
    status: 'ok',
    message,
    results,
    total: groups.length,
    totalTokens,
    searched,
    query: { terms, match },
    retrieval: retrieval.info(),
    ...extra,
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
 * A library's best chunks for the terms: any chunk holding at least one term,
 * scored by BM25 times the share of the terms it holds (raised to
 * `coverageExponent`), so chunks holding every word come first and a question
 * with a word the docs never use still finds the sections holding the rest.
 */
async function candidates(
  target: Target,
  words: readonly string[],
  limit: number,
  options: ResolvedOptions,
  retrieval: Retrieval,
): Promise<LibraryCandidates> {
  const lexical = await lexicalCandidates(target, words, limit, options);
  const query = await retrieval.queryVector(target);
  if (query === undefined) {
    // BM25 of a chunk that matches nothing is 0: that, not the weakest candidate, is the bottom of the scale.
    const scores = lexical.hits.length === 0 ? [] : minMaxNormalize(lexical.raw, { floor: 0 });
    return aboveDrop(target, lexical, scores, options);
  }
  const fused = await fuseWithVectors(target, lexical, query, limit, options);
  const embedder = (await target.reader().embedder())?.id;
  return {
    ...aboveDrop(target, fused, shareOfBest(fused.raw), options),
    bestSimilarity: Math.max(...fused.similarity),
    ...(embedder ? { embedder } : {}),
  };
}

/**
 * A library's candidates whose score is at least the drop times its best, best first.
 * A chunk under the drop within its own library is under it in any merged list (scaling a
 * library's scores keeps their ratios), so it is let go here: over many libraries, most are.
 */
function aboveDrop(
  target: Target,
  scored: ScoredHits,
  scores: readonly number[],
  options: ResolvedOptions,
): LibraryCandidates {
  const bestCoverage = scored.covered.reduce((best, c) => Math.max(best, c), 0);
  const top = scores.reduce((best, score) => Math.max(best, score), 0);
  const list = scored.hits
    .map((hit, i) => ({
      target,
      hit,
      raw: scored.raw[i] ?? 0,
      score: scores[i] ?? 0,
      coverage: scored.covered[i] ?? 1,
    }))
    .filter((c) => c.score >= options.drop * top)
    .sort((x, y) => y.raw - x.raw);
  return { list, bestCoverage };
}

/**
 * A library's lexical candidates: any chunk holding at least one term,
 * scored by BM25 times the share of the terms it holds (and the heading,
 * history, link and page signals below), before normalisation.
 */
async function lexicalCandidates(
  target: Target,
  words: readonly string[],
  limit: number,
  options: ResolvedOptions,
): Promise<ScoredHits> {
  const terms = words.map((w) => termAlternatives(w, { synonyms: options.synonyms }));
  const hits = await target.reader().search({ terms, mode: 'any' }, { limit, weights: options.weights });
  if (hits.length === 0) return { hits: [], raw: [], covered: [] };
  const ids = hits.map((h) => h.id);
  // A pasted identifier or error code is the most deliberate part of a query: it counts more.
  const weights = words.map((w) => (isIdentifier(w) ? options.identifierWeight : 1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const weightOf = (found: readonly number[]) => found.reduce((sum, t) => sum + (weights[t] ?? 0), 0);
  // Every hit holds at least one term; with one term there is nothing to count.
  const matches = terms.length === 1 ? undefined : await target.reader().termMatches(terms, ids);
  const held = hits.map((h) => matches?.get(h.id) ?? [0]);
  const covered = held.map((found) => found.length);
  const own = hits.map((h, i) => {
    const share = (weightOf(held[i] ?? []) / total) ** options.coverageExponent;
    // A section whose heading trail names the query's words is usually the one that answers it.
    // The trail is on the hit already, so it is read here rather than queried.
    const trail = options.headingBoost > 0 ? indexTokens(h.breadcrumb.join(' ')) : [];
    const inTrail = terms.flatMap((term, t) => (tokensContain(trail, term) ? [t] : []));
    // A changelog's heading names what changed ("Upgraded z.discriminatedUnion()"), not what the section documents.
    const history = isHistoryPage(h.path, h.title);
    const heading = history ? 1 : 1 + options.headingBoost * (weightOf(inTrail) / total);
    // A page many others link to is where the docs explain a thing; a copy of it for another dialect is not.
    const central = (1 + h.inboundLinks) ** options.linkWeight;
    return h.score * share * heading * central * (history ? options.historyWeight : 1);
  });
  // A page with many matching sections is about the topic; one stray match is not.
  const pageTotals = new Map<number, number>();
  for (const [i, h] of hits.entries())
    pageTotals.set(h.documentId, (pageTotals.get(h.documentId) ?? 0) + (own[i] ?? 0));
  const raw = hits.map(
    (h, i) => (own[i] ?? 0) + options.pageWeight * ((pageTotals.get(h.documentId) ?? 0) - (own[i] ?? 0)),
  );
  return { hits, raw, covered };
}

/**
 * Min-max makes every library's best chunk 1.0, even a library that only
 * matches a stray word. Coverage, unlike BM25, means the same in every
 * library, so each library's scores are scaled by how its best coverage
 * compares with the best of any library (raised to the same exponent).
 */
function crossLibraryCoverage(found: readonly LibraryCandidates[], exponent: number): number[] {
  const best = Math.max(...found.map((f) => f.bestCoverage));
  return found.map(({ bestCoverage }) => (best > 0 ? (bestCoverage / best) ** exponent : 1));
}

/**
 * Scales each library's scores so that a merged list compares like with
 * like: by cosine similarity when every library answered with vectors of one
 * model (see similarityFactors), else by term coverage.
 */
function crossLibraryScale(found: readonly LibraryCandidates[], exponent: number): Candidate[][] {
  if (found.length < 2) return found.map((f) => f.list);
  const factors = similarityFactors(found) ?? crossLibraryCoverage(found, exponent);
  return found.map(({ list }, i) => {
    const factor = factors[i] ?? 1;
    return factor === 1 ? list : list.map((c) => ({ ...c, score: c.score * factor }));
  });
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.raw - a.raw || a.target.label.localeCompare(b.target.label) || a.hit.id - b.hit.id;
}

/**
 * Joins chunks that follow each other in one document into one result, at
 * the rank of the best of them, so an answer split across chunks reads whole.
 */
function mergeAdjacent(candidates: readonly Candidate[]): Group[] {
  const groups: Group[] = [];
  const byDocument = new Map<string, Group[]>();
  for (const c of candidates) {
    const key = `${c.target.label}\0${c.hit.documentId}`;
    const siblings = byDocument.get(key) ?? [];
    const neighbour = siblings.find((g) => g.members.some((m) => Math.abs(m.ord - c.hit.ord) === 1));
    if (neighbour) {
      neighbour.members.push(c.hit);
      neighbour.members.sort((a, b) => a.ord - b.ord);
      continue;
    }
    const group: Group = { target: c.target, members: [c.hit], score: c.score };
    groups.push(group);
    siblings.push(group);
    byDocument.set(key, siblings);
  }
  return groups;
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
  return options.format === 'full' && options.duplicateThreshold < 1 && groups.length > 1;
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
 * In the full format, near-duplicates go below their first occurrence in the
 * part of the list a caller can see (see repeatsWindow): a passage
 * repeated in a guide and a reference would spend the token budget twice.
 * The index format lists sections as they rank; there, both copies may be
 * answers and showing them costs nothing.
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

async function withContent(page: readonly Group[], contents: Contents, options: ResolvedOptions): Promise<DocResult[]> {
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
  return fitted.items.map((item) => ({
    ...toResult(item.group, item.content, item.tokens),
    truncated: item.truncated,
  }));
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
