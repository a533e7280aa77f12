import type { Term } from '@docs/store';
import type { Retrieval } from '../hybrid.js';
import type { TermCounts } from '../idf.js';
import { idfWeights } from '../idf.js';
import type { RankingConfig } from '../ranking.js';
import type { Reranking } from '../reranking.js';
import type { Phrasing } from './analyze.js';
import { OpeningPlan, worthCounting } from './bounds.js';
import { type CatalogKnowledge, countedExactly } from './catalog.js';
import { type FusedLibrary, fusePhrasings, type LibraryCandidates, matchesAll, withWorth } from './fuse.js';
import type { PhrasingHits } from './hits.js';
import { scoreLibrary } from './score-library.js';
import { isUnreadable, type Target } from './target.js';

/** What a library answering found: its phrasings fused, and per phrasing its counts of the terms. */
interface Found {
  readonly counts: readonly TermCounts[];
  readonly fused: FusedLibrary;
}

/** How a search treats the libraries it is given. */
export interface LibraryPolicy {
  /** Leave out a library that cannot be read, with a warning, rather than fail (searching every library). */
  readonly skipUnreadable: boolean;
  /** What the store's catalog knows of the libraries' terms (searching every library). */
  readonly catalog?: (terms: readonly (readonly Term[])[]) => Promise<CatalogKnowledge>;
  /**
   * How many of the merged list's first sections the answer needs (offset + limit), when a library that cannot
   * reach them may stay unopened and the total be a lower bound (searching every library). Unset: the total is exact.
   */
  readonly depth?: number;
}

/** The libraries that answer, each with its candidates, and what the question's words are worth over them. */
export interface Gathered {
  readonly answering: readonly Target[];
  /** Per library answering, its candidates, every phrasing's fused (fuse.ts), not yet scaled to compare. */
  readonly libraries: readonly LibraryCandidates[];
  /** Per phrasing, each term's information over everything searched. */
  readonly information: readonly (readonly number[])[];
  /** Whether any library searched holds the phrasing's term at all. */
  readonly mentioned: (phrasing: number, term: number) => boolean;
  /** `all` when some section holds every word of a phrasing (matchesAll). */
  readonly match: 'all' | 'some';
  /** A library left out because it could not be read, by name and reason. */
  readonly warnings: readonly string[];
  /** A library left unopened might hold sections above the drop, though none that reach the page (see `more`). */
  readonly lowerBound: boolean;
  /**
   * Opens the libraries left unopened whose best section could score `bar` or more (the page stage's Paged.bar),
   * and gathers again; undefined when there is none.
   */
  readonly more: (bar: number) => Promise<Gathered | undefined>;
}

/**
 * Stage 2: the libraries that answer, each scored (stage 3) and its
 * phrasings fused into one list. Which are opened, and when, is the
 * OpeningPlan's (bounds.ts) from what the store's catalog knows. A library
 * that cannot be read is left out with a warning when `skipUnreadable`;
 * should none be left, its error is thrown.
 */
export async function gather(
  targets: readonly Target[],
  phrasings: readonly Phrasing[],
  ranking: RankingConfig,
  perLibrary: number,
  models: { readonly retrieval: Retrieval; readonly reranking: Reranking },
  policy: LibraryPolicy,
): Promise<Gathered> {
  // One library after another (see scoreLibrary): the store may close idle readers.
  let unreadable: Error | undefined;
  const warnings: string[] = [];
  // The others are asked only about the words the catalog says they may hold.
  const searched = phrasings.map((p) => p.searched);
  const catalogued: CatalogKnowledge = policy.catalog ? await policy.catalog(searched) : new Map();
  // Over many libraries, a re-ranker aside, a library may be deferred once its counts are known (OpeningPlan): those
  // the catalog cannot know are read first, for less than scoring costs.
  const mayDefer =
    targets.length > 1 && catalogued.size > 0 && !(await models.reranking.mayRerank(ranking.rerankCandidates));
  const known = mayDefer
    ? await countedExactly(targets, searched, catalogued, worthCounting(catalogued, phrasings, ranking))
    : catalogued;
  const plan = OpeningPlan.of(
    targets.map((t) => t.pkg.file),
    known,
    phrasings,
    ranking,
    mayDefer,
    policy.depth,
  );
  /**
   * Per target: what it found, its phrasings fused at once (fusePhrasings) and its counts; undefined while not opened,
   * or when it could not be read. Only the candidates above the library's own drop are kept: over many libraries the
   * rest of each one's hits are let go of as soon as it is scored, instead of being held, and fused again, until the
   * last library is.
   */
  const opened: (Found | undefined)[] = targets.map(() => undefined);
  /** What a library not opened stands in with (OpeningPlan.standIn), fused once. */
  const standing = new Map<number, Found>();
  const found = (target: Target, lists: readonly PhrasingHits[]): Found => ({
    counts: lists.map((l) => l.counts),
    fused: fusePhrasings(target, lists, phrasings, ranking),
  });
  const open = async (indices: readonly number[]) => {
    for (const index of indices) {
      const target = targets[index] as Target;
      try {
        opened[index] = found(
          target,
          await scoreLibrary(
            target,
            phrasings,
            perLibrary,
            ranking,
            models.retrieval,
            known.get(target.pkg.file)?.phrasings,
          ),
        );
      } catch (error) {
        if (!policy.skipUnreadable || !isUnreadable(error)) throw error;
        unreadable ??= error;
        warnings.push(`Left out ${target.label}: ${error.message}`);
      }
    }
  };
  const standIn = (index: number): Found | undefined => {
    const lists = plan.standIn(index);
    if (!lists) return undefined;
    let kept = standing.get(index);
    if (!kept) {
      kept = found(targets[index] as Target, lists);
      standing.set(index, kept);
    }
    return kept;
  };
  const gathered = async (bar?: number): Promise<Gathered> => {
    for (;;) {
      const answering: Target[] = [];
      const answers: Found[] = [];
      for (const [index, target] of targets.entries()) {
        const answer = standIn(index) ?? opened[index];
        if (!answer) continue;
        answers.push(answer);
        answering.push(target);
      }
      // A term's information is counted over everything searched, so the shares compare across libraries.
      const information = phrasings.map((p, i) =>
        idfWeights(
          answers.map((a) => a.counts[i] as TermCounts),
          p.terms.length,
        ),
      );
      const mentioned = (p: number, term: number) => answers.some((a) => (a.counts[p]?.frequencies[term] ?? 0) > 0);
      // Each phrasing's rarest word that some library holds: the word that tells libraries apart.
      const rarest = information.map((w, p) =>
        w.reduce((best, x, t) => (mentioned(p, t) && (best < 0 || x > (w[best] ?? 0)) ? t : best), -1),
      );
      const libraries = answers.map((a) => withWorth(a.fused, phrasings, information, rarest));
      const more = plan.next(libraries, information, rarest, bar);
      if (more.length > 0) {
        await open(more);
        continue;
      }
      // Nothing left to answer: the reason is the answer, not an empty list.
      if (answering.length === 0 && unreadable) throw unreadable;
      const lowerBound = plan.lowerBound;
      return {
        answering,
        libraries,
        information,
        mentioned,
        match: matchesAll(libraries) ? 'all' : 'some',
        warnings,
        lowerBound,
        more: async (pageBar: number) => {
          if (!lowerBound) return undefined;
          const next = plan.next(libraries, information, rarest, pageBar);
          if (next.length === 0) return undefined;
          await open(next);
          return gathered(pageBar);
        },
      };
    }
  };
  await open(plan.first);
  return gathered();
}
