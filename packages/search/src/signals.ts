import type { RankingConfig } from './ranking.js';

/**
 * What the signals read of one section a phrasing found in one library: its links, the facts kept per section (see
 * SectionFacts in stages/score-library.ts), and how much of the question's words it holds, in its text and in its
 * heading trail. Weights count an identifier as `identifierWeight` words and a word held only through a synonym as
 * `synonymWeight` of itself.
 */
export interface SignalHit {
  /** How many other pages of its package link to its page. */
  readonly inboundLinks: number;
  /** Its page is a changelog, release notes, a migration guide or a blog post. */
  readonly history: boolean;
  /** Its page is in a folder of another major version than its package's. */
  readonly otherVersion: boolean;
  /** It is an API page of an entry point the package's docs never import. */
  readonly otherEntry: boolean;
  /** The weight of the question's words the section holds. */
  readonly heldWeight: number;
  /** The weight of the question's words its heading trail holds; asked only by the signal that reads it. */
  readonly trailWeight: () => number;
}

/** What the signals read of the search: the ranking's knobs and the weight of all the phrasing's words. */
export interface SignalContext {
  readonly ranking: RankingConfig;
  /** The weight of every word of the phrasing together. */
  readonly totalWeight: number;
}

/** One ranking signal: a factor a section's BM25 score is multiplied by, and which knobs it reads. */
export interface RankingSignal {
  readonly name: string;
  readonly knobs: readonly (keyof RankingConfig)[];
  /**
   * `words`: part of what the section's words alone are worth (the score the relevance drop also measures, see
   * aboveDrop in stages/page.ts); `order`: orders what is relevant without deciding what is (the heading boost).
   */
  readonly part: 'words' | 'order';
  readonly factor: (hit: SignalHit, context: SignalContext) => number;
}

/**
 * The per-section ranking signals, in the order they multiply a section's BM25 score (the order is part of the
 * result: floating-point products of other orders differ in the last bit, and ties are broken by score). A new
 * signal is a row here and, when it needs one, a knob of RANKING_KNOBS. The one signal that reads other sections,
 * the page's, is {@link withSamePage}.
 */
export const RANKING_SIGNALS: readonly RankingSignal[] = [
  {
    // A section holding every word comes first; one with a word the docs never use still finds those holding the rest.
    name: 'coverage',
    knobs: ['coverageExponent', 'identifierWeight', 'synonymWeight'],
    part: 'words',
    factor: (s, c) => (s.heldWeight / c.totalWeight) ** c.ranking.coverageExponent,
  },
  {
    // A page many others link to is where the docs explain a thing; a copy of it for another dialect is not.
    name: 'links',
    knobs: ['linkWeight'],
    part: 'words',
    factor: (s, c) => (1 + s.inboundLinks) ** c.ranking.linkWeight,
  },
  {
    // An entry point the package's docs never import (tooling, integrations) answers after the ones they do.
    name: 'entryPoint',
    knobs: ['entryPointWeight'],
    part: 'words',
    factor: (s, c) => (s.otherEntry ? c.ranking.entryPointWeight : 1),
  },
  {
    // What changed, or another major version's page, answers after the pages of this one.
    name: 'history',
    knobs: ['historyWeight'],
    part: 'words',
    factor: (s, c) => (s.history || s.otherVersion ? c.ranking.historyWeight : 1),
  },
  {
    // A section whose heading trail names the query's words is usually the one that answers it; a changelog's
    // heading names what changed ("Upgraded z.discriminatedUnion()"), not what the section documents.
    name: 'heading',
    knobs: ['headingBoost'],
    part: 'order',
    factor: (s, c) =>
      s.history || c.ranking.headingBoost === 0 ? 1 : 1 + c.ranking.headingBoost * (s.trailWeight() / c.totalWeight),
  },
];

/**
 * A section's score by the signals: `words`, its BM25 score times every `words` signal (what its words alone are
 * worth), and `score`, that times the `order` signals.
 */
export function signalScore(
  bm25: number,
  hit: SignalHit,
  context: SignalContext,
  signals: readonly RankingSignal[] = RANKING_SIGNALS,
): { readonly score: number; readonly words: number } {
  let words = bm25;
  for (const signal of signals) if (signal.part === 'words') words *= signal.factor(hit, context);
  let score = words;
  for (const signal of signals) if (signal.part === 'order') score *= signal.factor(hit, context);
  return { score, words };
}

/**
 * The page signal: a page with many matching sections is about the topic, one stray match is not; each section gains
 * `pageWeight` of the scores of the other matching sections of its page.
 */
export function withSamePage(
  hits: readonly { readonly documentId: number }[],
  scores: readonly number[],
  pageWeight: number,
): number[] {
  const pageTotals = new Map<number, number>();
  for (const [i, h] of hits.entries())
    pageTotals.set(h.documentId, (pageTotals.get(h.documentId) ?? 0) + (scores[i] ?? 0));
  return hits.map((h, i) => (scores[i] ?? 0) + pageWeight * ((pageTotals.get(h.documentId) ?? 0) - (scores[i] ?? 0)));
}
