import type { RankingConfig } from '../ranking.js';
import type { Candidate, LibraryCandidates } from './fuse.js';

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
function crossLibraryEvidence(libraries: readonly LibraryCandidates[], ranking: RankingConfig): number[] {
  const bestCoverage = Math.max(...libraries.map((f) => f.coverage));
  const bestInformation = Math.max(...libraries.map((f) => f.information));
  const someHoldRarest = libraries.some((f) => f.holdsRarest);
  return libraries.map(({ coverage, information, holdsRarest }) => {
    const byCoverage = bestCoverage > 0 ? coverage / bestCoverage : 1;
    const lacking = someHoldRarest && !holdsRarest && bestInformation > 0;
    return byCoverage * (lacking ? (information / bestInformation) ** ranking.idfExponent : 1);
  });
}

/**
 * Scales each library's scores so that a merged list compares like with
 * like, by term coverage and information (crossLibraryEvidence), in hybrid
 * answers too: scaling by each library's best cosine similarity instead cost
 * cross-library MRR@10 0.876 → 0.772 with all-MiniLM-L6-v2, whose cosines
 * are close together for every library (docs/ranking.md, "Measured with real
 * models"). The merge stage scales with it, and the bounds (bounds.ts) read
 * what it would make of the libraries searched so far.
 */
export function crossLibraryScale(libraries: readonly LibraryCandidates[], ranking: RankingConfig): Candidate[][] {
  if (libraries.length < 2) return libraries.map((f) => f.list);
  const factors = crossLibraryEvidence(libraries, ranking);
  return libraries.map(({ list }, i) => {
    const factor = factors[i] ?? 1;
    return factor === 1 ? list : list.map((c) => ({ ...c, score: c.score * factor, plain: c.plain * factor }));
  });
}
