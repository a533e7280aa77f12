import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { RANKING_DEFAULTS, RANKING_KNOBS, type RankingConfig } from './ranking.js';
import { RANKING_SIGNALS, type SignalHit, signalScore, withSamePage } from './signals.js';

const section = (over: Partial<SignalHit> = {}): SignalHit => ({
  inboundLinks: 3,
  history: false,
  otherVersion: false,
  otherEntry: false,
  heldWeight: 1,
  trailWeight: () => 1,
  ...over,
});
const context = (ranking: Partial<RankingConfig> = {}) => ({
  ranking: { ...RANKING_DEFAULTS, ...ranking },
  totalWeight: 2,
});

describe('RANKING_SIGNALS', () => {
  it('reads only knobs of RANKING_KNOBS, and names each signal once', () => {
    for (const signal of RANKING_SIGNALS) for (const knob of signal.knobs) expect(RANKING_KNOBS).toHaveProperty(knob);
    expect(new Set(RANKING_SIGNALS.map((s) => s.name)).size).toBe(RANKING_SIGNALS.length);
  });

  // Each knob's neutral value turns its signal off, whatever the section.
  test.each([
    ['coverage', { coverageExponent: 0 }, { heldWeight: 1 }],
    ['links', { linkWeight: 0 }, { inboundLinks: 40 }],
    ['entryPoint', { entryPointWeight: 1 }, { otherEntry: true }],
    ['history', { historyWeight: 1 }, { history: true, otherVersion: true }],
    ['heading', { headingBoost: 0 }, { trailWeight: (): number => 2 }],
  ] as const)('%s is 1 at %o', (name, ranking, over) => {
    const signal = RANKING_SIGNALS.find((s) => s.name === name);
    expect(signal?.factor(section(over), context(ranking))).toBe(1);
  });

  test.each([
    ['coverage', {}, { heldWeight: 1 }, 0.5],
    ['entryPoint', {}, { otherEntry: true }, RANKING_DEFAULTS.entryPointWeight],
    ['history', {}, { otherVersion: true }, RANKING_DEFAULTS.historyWeight],
    ['heading', {}, { trailWeight: (): number => 1 }, 1 + RANKING_DEFAULTS.headingBoost / 2],
    // A changelog's heading names what changed, not what the section documents.
    ['heading', {}, { history: true, trailWeight: (): number => 2 }, 1],
  ] as const)('%s with %o on %o is %d', (name, ranking, over, expected) => {
    const signal = RANKING_SIGNALS.find((s) => s.name === name);
    expect(signal?.factor(section(over), context(ranking))).toBeCloseTo(expected, 12);
  });

  it('scores a section by its BM25 times every signal, its words alone without the order signals', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.nat(1000),
        fc.boolean(),
        fc.double({ min: 0, max: 2, noNaN: true }),
        (bm25, inboundLinks, history, trail) => {
          const hit = section({ inboundLinks, history, trailWeight: () => trail });
          const { score, words } = signalScore(bm25, hit, context());
          const factors = RANKING_SIGNALS.map((s) => ({ part: s.part, f: s.factor(hit, context()) }));
          const wordsExpected = factors.filter((f) => f.part === 'words').reduce((x, f) => x * f.f, bm25);
          expect(words).toBe(wordsExpected);
          expect(score).toBe(factors.filter((f) => f.part === 'order').reduce((x, f) => x * f.f, wordsExpected));
        },
      ),
    );
  });
});

describe('withSamePage', () => {
  it("adds pageWeight of the page's other matching sections", () => {
    const hits = [{ documentId: 1 }, { documentId: 2 }, { documentId: 1 }];
    expect(withSamePage(hits, [1, 2, 3], 0.5)).toEqual([1 + 0.5 * 3, 2, 3 + 0.5 * 1]);
    expect(withSamePage(hits, [1, 2, 3], 0)).toEqual([1, 2, 3]);
    expect(withSamePage([], [], 0.5)).toEqual([]);
  });
});
