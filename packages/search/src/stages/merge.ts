import type { RankingConfig } from '../ranking.js';
import type { Reranking } from '../reranking.js';
import type { Candidate, LibraryCandidates } from './fuse.js';
import { crossLibraryScale } from './scale.js';
import type { Target } from './target.js';

/**
 * Stage 4: the libraries' candidates (each library's phrasings fused, see
 * gather) scaled to compare across libraries ({@link crossLibraryScale}) and
 * merged best first, then re-ranked when a re-ranker takes part.
 */
export async function merge(
  libraries: readonly LibraryCandidates[],
  ranking: RankingConfig,
  reranking: Reranking,
): Promise<Candidate[]> {
  const ordered = bestFirst(crossLibraryScale(libraries, ranking).flat());
  return reranking.rerank(ordered, ranking.rerankCandidates);
}

/**
 * Candidates best first: by score, then raw score, then library label (byLabel), then chunk id. Each library's label is
 * lowered once, not at each comparison: over many libraries, ties between libraries are most of the comparisons.
 */
function bestFirst(candidates: Candidate[]): Candidate[] {
  const lowered = new Map<Target, string>();
  for (const c of candidates) if (!lowered.has(c.target)) lowered.set(c.target, c.target.label.toLowerCase());
  const byLabelOf = (a: Target, b: Target) =>
    a === b ? 0 : byLabel(a.label, b.label, lowered.get(a) as string, lowered.get(b) as string);
  return candidates.sort(
    (a, b) => b.score - a.score || b.raw - a.raw || byLabelOf(a.target, b.target) || a.hit.id - b.hit.id,
  );
}

/**
 * Library labels in alphabetical order ignoring case, as `localeCompare` puts the letters, digits and punctuation of
 * `name@version`, without loading ICU's collator (~15 ms the first time in a process, on a one-question `docs search`);
 * `la` and `lb` are `a` and `b` lowercased.
 */
function byLabel(a: string, b: string, la: string, lb: string): number {
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
