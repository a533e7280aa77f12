import { type InstalledPackage, type PackageStore, parsePackageSpec } from '@docs/store';
import { phrasingsOf } from './alternatives.js';
import { apiWords } from './api-words.js';
import { answerFromInstalled, retryIfGone } from './gone.js';
import { Retrieval } from './hybrid.js';
import { nothingServed, resolveLibrary, servedPackages } from './library-scope.js';
import {
  type GetDocsOptions,
  type Paging,
  type ResolvedOptions,
  resolveOptions,
  type SearchAllOptions,
  type SearchContext,
} from './options.js';
import type { RankingConfig } from './ranking.js';
import { Reranking } from './reranking.js';
import type { SearchResponse } from './results.js';
import { analyzeQuestion, droppedStopWords } from './stages/analyze.js';
import { catalogKnowledge } from './stages/catalog.js';
import { gather, type LibraryPolicy } from './stages/gather.js';
import { merge } from './stages/merge.js';
import { pageOf } from './stages/page.js';
import { noWords, respond, unresolved, withNotes } from './stages/respond.js';
import { isUnreadable, type Target, targetOf } from './stages/target.js';
import { oneVersionEach, withVersionHints } from './versions.js';

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
  options: GetDocsOptions = {},
): Promise<SearchResponse> {
  const resolved = resolveOptions(options);
  // Checked before the library is looked up: bad input is refused the same way whatever is installed.
  const phrasings = phrasingsOf(topic, options.alternatives);
  // A package another process removes mid-request is looked up again: the answer then says it is not installed.
  return answerFromInstalled(
    () =>
      resolveLibrary(store, library, {
        version: options.version,
        projectVersion: options.projectVersion,
        scope: options.scope,
      }),
    async (found) => {
      const alsoDrop = [found.value.name.replace(/^@[^/]+\//, '')];
      const answer = (pkg: InstalledPackage) =>
        search([targetOf(store, pkg)], phrasings, resolved, resolved.context, { alsoDrop, skipUnreadable: false });
      const response = withNotes(await answer(found.value), found.note ? [found.note] : []);
      // Another version is searched only when this one is empty or thin beside it (see withVersionHints).
      return withVersionHints(store, found.value, response, options.projectVersion, answer, options.projectBuilding);
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
  const { scope } = options;
  if (options.libraries && options.libraries.length > 0) {
    packages = [];
    for (const spec of options.libraries) {
      const projectVersion = options.projectVersions?.get(parsePackageSpec(spec.trim()).name.toLowerCase());
      const found = await resolveLibrary(store, spec, { projectVersion, scope });
      if (!found.ok) return unresolved(found.error);
      if (found.note) notes.push(found.note);
      if (!packages.some((p) => p.file === found.value.file)) packages.push(found.value);
    }
  } else {
    packages = oneVersionEach(await servedPackages(store, scope), options.projectVersions);
  }
  if (packages.length === 0) return unresolved(nothingServed(scope));
  const response = await search(
    packages.map((p) => targetOf(store, p)),
    phrasings,
    resolved,
    resolved.context,
    {
      skipUnreadable: true,
      catalog: (terms) => catalogKnowledge(store, packages, terms, resolved.context.mode),
      // A library that cannot reach the page is left unopened; the total then says "at least".
      depth: resolved.paging.offset + resolved.paging.limit,
    },
  );
  return withNotes(response, notes);
}

/** How a search treats the libraries it is given, and the words its analysis drops. */
interface SearchPolicy extends LibraryPolicy {
  /** Words the analysis drops (a library's own name, when searching within it). */
  readonly alsoDrop?: readonly string[];
}

/**
 * A query, stage by stage (each a module of ./stages, in this order): analyze
 * the phrasings, gather the libraries that answer (scoring each and fusing its
 * phrasings), merge them into one list, cut a page from it, and respond. Each
 * stage hands its result to the next; what the page sent is recorded here, in
 * the session's memory.
 */
async function search(
  targets: readonly Target[],
  texts: readonly string[],
  options: { readonly ranking: RankingConfig; readonly paging: Paging },
  context: SearchContext,
  policy: SearchPolicy,
): Promise<SearchResponse> {
  const alsoKeep = await librarysApiWords(targets, texts, options.ranking);
  const question = analyzeQuestion(texts, options.ranking, { alsoDrop: policy.alsoDrop, alsoKeep });
  // The embedder reads each phrasing it answers (the topic; the alternatives too when they take part in the vectors) as
  // the caps cut it, so a pasted page costs no more than its head; the re-ranker reads the topic so cut.
  const embedded = options.ranking.alternativeVectorWeight > 0 ? question.phrasings : question.phrasings.slice(0, 1);
  const read = embedded.map((p) => p.text.slice(0, options.ranking.maxTopicChars));
  const retrieval = new Retrieval(read, context);
  const reranking = new Reranking(read[0] ?? '', context);
  if (question.phrasings.every((p) => p.terms.length === 0)) {
    return noWords(
      question,
      targets.map((t) => t.label),
      retrieval.info(reranking.info()),
    );
  }
  const perLibrary = Math.max(options.ranking.candidates, options.paging.offset + options.paging.limit);
  let gathered = await gather(
    targets,
    question.phrasings,
    options.ranking,
    perLibrary,
    { retrieval, reranking },
    policy,
  );
  for (;;) {
    const merged = await merge(gathered.libraries, options.ranking, reranking);
    const paged = merged.length === 0 ? undefined : await pageOf(merged, options.ranking, options.paging, context.sent);
    // Over many libraries, those whose best section could not reach the page may be left unopened (policy.depth):
    // the page stage says how low the page reached, and any left out that could score that much are opened.
    const more = await gathered.more(paged?.bar ?? 0);
    if (more) {
      gathered = more;
      continue;
    }
    for (const section of paged?.sent ?? []) context.sent?.add(section.key, section.tokens);
    return respond(question, gathered, paged, retrieval.info(reranking.info()), options.ranking, options.paging);
  }
}

/**
 * In a search of one library, the question's stop words that name one of its APIs (api-words.ts): searched there,
 * as the question's word for it. Over several libraries they stay dropped: the question's words are the same in every
 * library (their counts and worth are added up over all of them). A library that cannot be read keeps them dropped;
 * scoring it says what is wrong.
 */
async function librarysApiWords(
  targets: readonly Target[],
  texts: readonly string[],
  ranking: RankingConfig,
): Promise<string[]> {
  const [only] = targets;
  if (only === undefined || targets.length > 1) return [];
  const words = droppedStopWords(texts, ranking);
  if (words.length === 0) return [];
  try {
    return await apiWords(only.reader(), words);
  } catch (error) {
    if (isUnreadable(error)) return [];
    throw error;
  }
}
