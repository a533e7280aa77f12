import type { ColumnWeights } from '@docs/store';

/**
 * One ranking knob: its default, the values it takes, and what it does. The
 * defaults are the evaluation's choices (docs/ranking.md gives the figures);
 * callers leave them alone, the evaluation (`pnpm eval --<knob> …`) tries others.
 */
interface Knob<T> {
  readonly default: T;
  /** The rule a value must follow, as an error message says it ("between 0 and 1"); undefined: any value of the type. */
  readonly rule?: string;
  readonly accepts: (value: T) => boolean;
  readonly description: string;
}

const between0And1 = { rule: 'between 0 and 1', accepts: (v: number) => v >= 0 && v <= 1 } as const;
const above0AtMost1 = { rule: 'above 0 and at most 1', accepts: (v: number) => v > 0 && v <= 1 } as const;
const finiteAtLeast = (min: number) =>
  ({ rule: `a finite number ≥ ${min}`, accepts: (v: number) => v >= min && Number.isFinite(v) }) as const;
const wholeAtLeast = (min: number) =>
  ({ rule: `a whole number ≥ ${min}`, accepts: (v: number) => Number.isInteger(v) && v >= min }) as const;

/**
 * Every ranking knob, once: the defaults, the checks and the evaluation's
 * flags are all read from this table.
 */
export const RANKING_KNOBS = {
  drop: {
    default: 0.3,
    ...between0And1,
    description: 'Relevance drop: keep results scoring at least this fraction of the best.',
  },
  weights: {
    default: { title: 1, headings: 1, heading: 1, body: 1 } as ColumnWeights,
    accepts: () => true,
    description: 'BM25 weights of the indexed columns.',
  },
  candidates: {
    default: 50,
    ...wholeAtLeast(1),
    description: 'How many chunks each library contributes before merging.',
  },
  coverageExponent: {
    default: 1,
    ...finiteAtLeast(0),
    description: "How strongly a chunk's share of the query terms scales its BM25 score (0 = not at all).",
  },
  historyWeight: {
    default: 0.5,
    ...between0And1,
    description:
      'Score multiplier for changelogs, release notes, migration and upgrade guides, blog posts, and pages in a folder named for another major version (`v4/` in a 3.x package).',
  },
  entryPointWeight: {
    default: 0.5,
    ...between0And1,
    description:
      "Score multiplier for the API pages of a package's entry points its own README and docs never import (tooling and integration entries such as `vitest/node`).",
  },
  headingBoost: {
    default: 2,
    ...finiteAtLeast(0),
    description:
      "How much a section gains when its heading trail holds the query's terms: score × (1 + boost × share of terms).",
  },
  synonymWeight: {
    default: 0.75,
    ...between0And1,
    description:
      "How much a query word counts, in a section's share of the terms and in its heading boost, when the section holds only a synonym of it (1 = as much as the word).",
  },
  formWeight: {
    default: 0.75,
    ...between0And1,
    description:
      'How much a query word counts in a section\'s heading boost where the heading holds not the word but another form of it (the same Porter stem) as a part of a joined name (`safe` in `safe_load` for "safely"); 0 turns this off.',
  },
  partWeight: {
    default: 0.9,
    ...between0And1,
    description:
      "How much a query word counts in a section's heading boost when its heading holds it only as a part of a longer joined name the query does not otherwise name (`option` in `help_option`; 1 = as much as a name of its own).",
  },
  pageWeight: {
    default: 0.05,
    ...between0And1,
    description: 'Share of the scores of the other matching sections of the same page that a section gains.',
  },
  identifierWeight: {
    default: 2,
    ...finiteAtLeast(1),
    description: 'How many plain words an identifier or error code in the query counts for in term coverage.',
  },
  duplicateThreshold: {
    default: 0.8,
    ...above0AtMost1,
    description:
      'Full format: a result sharing at least this share of its word 3-grams with a higher one moves to the end; 1 turns this off.',
  },
  samePageDecay: {
    default: 0.6,
    ...above0AtMost1,
    description:
      'Each further section of a page already listed scores this much less (the n-th × decay^n), so the first results span several pages; 1 turns this off.',
  },
  synonyms: {
    default: true as boolean,
    accepts: () => true,
    description: 'Let a query word also match its synonyms from a small developer thesaurus (`print` finds `log`).',
  },
  linkWeight: {
    default: 0.05,
    ...between0And1,
    description:
      'How much a page linked from many other pages of its package gains: score × (1 + inbound links)^weight; 0 turns this off.',
  },
  rerankCandidates: {
    default: 20,
    ...wholeAtLeast(0),
    description: 'How many of the first merged results the re-ranker reorders.',
  },
  vectorWeight: {
    default: 0.5,
    ...between0And1,
    description: 'Hybrid: the share of vector similarity in the fused score (the lexical score has the rest).',
  },
  fusion: {
    default: 'convex' as 'convex' | 'rrf',
    rule: '"convex" or "rrf"',
    accepts: (v: string) => v === 'convex' || v === 'rrf',
    description:
      'Hybrid: `convex` combines the two scores with vectorWeight; `rrf` fuses the two orders by reciprocal rank.',
  },
  rrfK: { default: 60, ...finiteAtLeast(0), description: 'Hybrid with `rrf`: the RRF constant k.' },
  maxTopicChars: {
    default: 1000,
    ...wholeAtLeast(1),
    description:
      'A longer topic is cut to its first this many characters (at a word boundary), and the answer says so.',
  },
  maxTerms: {
    default: 32,
    ...wholeAtLeast(1),
    description:
      'Words searched for at most; further words are left out, and the answer says so. Keeps the cost linear in the words kept.',
  },
  alternativeWeight: {
    default: 0.8,
    ...between0And1,
    description: "How much an alternative phrasing's matches count beside the topic's (1 = as much).",
  },
  alternativeVectorWeight: {
    default: 0,
    ...between0And1,
    description:
      "Hybrid: the share of vector similarity in an alternative phrasing's fused score, as vectorWeight is the question's; 0 answers alternatives lexically and does not embed them.",
  },
  fusionRest: {
    default: 0.5,
    ...between0And1,
    description:
      "Fusing phrasings: how much the phrasings other than a section's best add to its score, from 0 (its best phrasing's score alone, CombMAX) to 1 (all of them summed, CombSUM).",
  },
  idfExponent: {
    default: 1,
    ...finiteAtLeast(0),
    description:
      "Across libraries: how strongly a library's results are scaled by the share of the question's information (words weighed by rarity) its best section holds, relative to the best library's; 0 turns this off.",
  },
  weakBelow: {
    default: 0.5,
    ...between0And1,
    description:
      "An answer whose best results hold less than this share of the question's information is flagged weak.",
  },
} as const satisfies {
  readonly [name: string]: Knob<never> | Knob<number> | Knob<string> | Knob<boolean> | Knob<ColumnWeights>;
};

/** The ranking: every knob of {@link RANKING_KNOBS} with a value. */
export type RankingConfig = {
  readonly [K in keyof typeof RANKING_KNOBS]: Widened<(typeof RANKING_KNOBS)[K]['default']>;
};

/** A default's type as a value's: any number where the default is 0.3. */
type Widened<T> = T extends number ? number : T;

/** Every ranking knob's default, frozen. */
export const RANKING_DEFAULTS: RankingConfig = Object.freeze(
  Object.fromEntries(Object.entries(RANKING_KNOBS).map(([name, knob]) => [name, knob.default])) as RankingConfig,
);

/** A ranking knob whose values are numbers (the evaluation takes each as a flag). */
export type NumericKnob = {
  [K in keyof RankingConfig]: RankingConfig[K] extends number ? K : never;
}[keyof RankingConfig];

/** The names of the numeric knobs, in the table's order. */
export const NUMERIC_KNOBS: readonly NumericKnob[] = Object.freeze(
  (Object.keys(RANKING_KNOBS) as (keyof RankingConfig)[]).filter(
    (name): name is NumericKnob => typeof RANKING_DEFAULTS[name] === 'number',
  ),
);

/**
 * The defaults with `ranking`'s values over them, each checked: a value a knob
 * does not take is refused with `refuse(message)`, naming the knob and its rule.
 */
export function resolveRanking(ranking: Partial<RankingConfig>, refuse: (message: string) => Error): RankingConfig {
  // The defaults are accepted (a test checks every one): a search that sets no knob, every one but the evaluation's,
  // checks nothing again.
  if (Object.keys(ranking).length === 0) return RANKING_DEFAULTS;
  const resolved = { ...RANKING_DEFAULTS, ...withoutUndefined(ranking) };
  for (const [name, knob] of Object.entries(RANKING_KNOBS) as [keyof RankingConfig, Knob<unknown>][]) {
    const value = resolved[name];
    if (!knob.accepts(value as never)) {
      const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
      throw refuse(`${name} must be ${knob.rule ?? 'of its type'}, got ${shown}`);
    }
  }
  return resolved;
}

/** `{ drop: undefined }` leaves the default, as `drop ?? 0.3` did. */
function withoutUndefined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
