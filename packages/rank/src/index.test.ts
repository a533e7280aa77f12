import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public API', () => {
  it('exports exactly the eight ranking functions and the two text measures', () => {
    expect(Object.keys(api).sort()).toEqual([
      'convexFusion',
      'diversify',
      'encodedBytes',
      'fuseScores',
      'minMaxNormalize',
      'reciprocalRankFusion',
      'relevanceDrop',
      'rerank',
      'textCost',
      'tokenBudget',
    ]);
  });

  it('composes as in the README: min-max → drop → budget', () => {
    const hits = [
      { id: 'install', raw: 12.4, content: 'Run npm install @docs/rank.', tokens: 7 },
      { id: 'usage', raw: 9.1, content: 'Call minMaxNormalize, then relevanceDrop.', tokens: 10 },
      { id: 'changelog', raw: 2.3, content: 'Version history.', tokens: 4 },
    ];
    const normalized = api.minMaxNormalize(hits.map((hit) => hit.raw));
    const scored = hits.map((hit, i) => ({ ...hit, score: normalized[i] ?? 0 }));
    const relevant = api.relevanceDrop(scored, { drop: 0.5 });
    const { items, totalTokens, skipped } = api.tokenBudget(relevant, { budget: 12 });
    expect(items.map((item) => item.id)).toEqual(['install']);
    expect(totalTokens).toBe(7);
    expect(skipped).toBe(1);
  });
});
