import { type InstalledPackage, type PackageStore, parsePackageSpec, type Term } from '@docs/store';
import { phrasingsOf } from './alternatives.js';
import { answerFromInstalled, retryIfGone } from './gone.js';
import { Retrieval } from './hybrid.js';
import { type LibraryScope, nothingServed, resolveLibrary, servedPackages } from './library-scope.js';
import { type ResolvedOptions, resolveOptions, type SearchAllOptions, type SearchOptions } from './options.js';
import type { SearchResponse } from './results.js';
import { analyse } from './stages/analyse.js';
import { type CatalogKnowledge, catalogKnowledge } from './stages/catalog.js';
import { gather } from './stages/gather.js';
import { merge } from './stages/merge.js';
import { pageOf } from './stages/page.js';
import { nothingMatched, noWords, respond, unresolved, withNotes } from './stages/respond.js';
import { type Target, targetOf } from './stages/target.js';
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
  options: SearchOptions & {
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
  } = {},
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
        search([targetOf(store, pkg)], phrasings, resolved, { alsoDrop, skipUnreadable: false });
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
    {
      skipUnreadable: true,
      catalog: (terms) => catalogKnowledge(store, packages, terms, resolved),
    },
  );
  return withNotes(response, notes);
}

/** How a search treats the libraries it is given. */
interface SearchPolicy {
  /** Words the analysis drops (a library's own name, when searching within it). */
  readonly alsoDrop?: readonly string[];
  /** Leave out a library that cannot be read, with a warning, rather than fail (searching every library). */
  readonly skipUnreadable: boolean;
  /** What the store's catalog knows of the libraries' terms (searching every library). */
  readonly catalog?: (terms: readonly (readonly Term[])[]) => Promise<CatalogKnowledge>;
}

/**
 * A query, stage by stage (each a module of ./stages, in this order): analyse
 * the phrasings, gather the libraries that answer (scoring each), merge them
 * into one list, cut a page from it, and respond.
 */
async function search(
  targets: readonly Target[],
  texts: readonly string[],
  options: ResolvedOptions,
  policy: SearchPolicy,
): Promise<SearchResponse> {
  const question = analyse(texts, options, policy.alsoDrop ? { alsoDrop: policy.alsoDrop } : {});
  // The embedder reads each phrasing it answers (the topic; the alternatives too when they take part in the vectors) as
  // the caps cut it, so a pasted page costs no more than its head.
  const embedded = options.alternativeVectorWeight > 0 ? question.phrasings : question.phrasings.slice(0, 1);
  const retrieval = new Retrieval(
    embedded.map((p) => p.text.slice(0, options.maxTopicChars)),
    options,
  );
  if (question.phrasings.every((p) => p.terms.length === 0)) {
    return noWords(
      question,
      targets.map((t) => t.label),
      retrieval,
    );
  }
  const gathered = await gather(targets, question.phrasings, options, retrieval, policy);
  const { merged, match } = await merge(gathered, question.phrasings, options, retrieval);
  if (merged.length === 0) return nothingMatched(question, gathered, retrieval, options);
  return respond(question, gathered, match, await pageOf(merged, options), retrieval, options);
}
