import { heldShare } from '../idf.js';
import type { ResolvedOptions } from '../options.js';
import type { KnownTerms } from './catalog.js';

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
  /** At most the share of the question's information its best chunk holds, as fusePhrasings measures it. */
  readonly information: number;
  /** Whether a chunk of it may hold a phrasing's rarest word. */
  readonly mayHoldRarest: boolean;
  /** Whether a chunk of it may hold every term of a phrasing. */
  readonly mayHoldAll: boolean;
}

/** What the libraries searched found, as the cross-library scale reads it. */
export interface SearchedEvidence {
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
export function coverageCeiling(
  known: readonly KnownTerms[],
  phrasings: readonly Asked[],
  options: ResolvedOptions,
): number {
  let coverage = 0;
  for (const [p, phrasing] of phrasings.entries()) {
    const count = known[p]?.holds.filter(Boolean).length ?? 0;
    if (count === 0 || phrasing.terms.length === 0) continue;
    coverage = Math.max(coverage, phrasing.weight * (count / phrasing.terms.length) ** options.coverageExponent);
  }
  return coverage;
}

export function ceilingOf(
  known: readonly KnownTerms[],
  phrasings: readonly Asked[],
  information: readonly (readonly number[])[],
  rarest: readonly number[],
  options: ResolvedOptions,
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
    coverage: coverageCeiling(known, phrasings, options),
    information: informationHeld,
    mayHoldRarest,
    mayHoldAll,
  };
}

/**
 * Whether a library with this ceiling, left unsearched, leaves the answer as
 * it would be had it been searched: it cannot raise the best coverage or
 * information the other libraries are scaled by, cannot be the one holding
 * the rarest word or every word, and its best chunk, scaled as
 * crossLibraryEvidence would scale it, falls under the relevance drop from
 * the top, so none of its chunks would be kept.
 */
export function cannotAnswer(ceiling: Ceiling, searched: SearchedEvidence, options: ResolvedOptions): boolean {
  if (ceiling.coverage > searched.bestCoverage || ceiling.information > searched.bestInformation) return false;
  if (ceiling.mayHoldRarest && !searched.someHoldRarest) return false;
  if (ceiling.mayHoldAll && !searched.matchAll) return false;
  if (!(searched.top > 0) || !(searched.bestCoverage > 0)) return false;
  const byCoverage = ceiling.coverage / searched.bestCoverage;
  const lacking = searched.someHoldRarest && !ceiling.mayHoldRarest && searched.bestInformation > 0;
  const factor = byCoverage * (lacking ? (ceiling.information / searched.bestInformation) ** options.idfExponent : 1);
  // Strictly under, with room for rounding: a chunk at the threshold itself would be kept.
  return factor * (1 + 1e-9) < options.drop * searched.top;
}
