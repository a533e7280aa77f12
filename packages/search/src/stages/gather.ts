import type { Term } from '@docs/store';
import type { Retrieval } from '../hybrid.js';
import { idfWeights } from '../idf.js';
import type { ResolvedOptions } from '../options.js';
import { termAlternatives } from '../terms.js';
import type { Phrasing } from './analyse.js';
import { cannotAnswer, ceilingOf, coverageCeiling, type SearchedEvidence } from './bounds.js';
import type { CatalogKnowledge, KnownTerms } from './catalog.js';
import { crossLibraryScale, type Found, fusePhrasings } from './merge.js';
import { catalogued, nothingFound, type PhrasingHits, scoreLibrary } from './score-library.js';
import { isUnreadable, type Target } from './target.js';

/** What the libraries searched found, and what the question's words are worth over them. */
export interface Gathered extends Found {
  /** Whether any library searched holds the phrasing's term at all. */
  readonly mentioned: (phrasing: number, term: number) => boolean;
  /** A library left out because it could not be read, by name and reason. */
  readonly warnings: readonly string[];
}

/**
 * Stage 2: the libraries that answer, each scored (stage 3). What the store's
 * catalog knows decides what is opened: a library holding none of the words is
 * answered from the catalog unopened, and over many libraries one whose term
 * counts the catalog knows exactly is deferred and searched only while what the
 * others found leaves it a chance to change the answer (see bounds.ts). A
 * library that cannot be read is left out with a warning when `skipUnreadable`;
 * should none be left, its error is thrown.
 */
export async function gather(
  targets: readonly Target[],
  phrasings: readonly Phrasing[],
  options: ResolvedOptions,
  retrieval: Retrieval,
  how: {
    readonly skipUnreadable: boolean;
    readonly catalog?: ((terms: readonly (readonly Term[])[]) => Promise<CatalogKnowledge>) | undefined;
  },
): Promise<Gathered> {
  const perLibrary = Math.max(options.candidates, options.offset + options.limit);
  // One library after another (see scoreLibrary): the store may close idle readers.
  let unreadable: Error | undefined;
  const warnings: string[] = [];
  // What the store's catalog knows of each library: one that holds none of the words is answered from it,
  // unopened, with exactly what searching it finds (nothing, and its chunk count for the terms' information);
  // the others are asked only about the words they may hold.
  const known = how.catalog
    ? await how.catalog(phrasings.map((p) => p.terms.map((w) => termAlternatives(w, { synonyms: options.synonyms }))))
    : new Map<string, { phrasings: KnownTerms[]; skip: boolean; exact: boolean }>();
  /** Per target: what it found, undefined while deferred (see below) or when it could not be read. */
  const slots: (PhrasingHits[] | undefined)[] = targets.map(() => undefined);
  const searchTarget = async (index: number) => {
    const target = targets[index] as Target;
    const knowledge = known.get(target.pkg.file);
    try {
      slots[index] = await scoreLibrary(target, phrasings, perLibrary, options, retrieval, knowledge?.phrasings);
    } catch (error) {
      if (!how.skipUnreadable || !isUnreadable(error)) throw error;
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
  return { answering, found, information, rarest, mentioned, warnings };
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
