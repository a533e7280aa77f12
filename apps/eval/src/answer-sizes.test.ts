import { SEARCH_DEFAULTS } from '@docs/search';
import { describe, expect, it } from 'vitest';
import { AnswerSizes, parseBudgets } from './answer-sizes.js';

describe('parseBudgets', () => {
  it.each([
    [undefined, [SEARCH_DEFAULTS.tokens]],
    ['4000,1000,2000', [1000, 2000, 4000]],
    ['2000, 2000', [2000]],
  ])('reads %j as %j', (flag, budgets) => {
    expect(parseBudgets(flag)).toEqual(budgets);
  });

  it.each(['', '1000,', 'a', '0', '1.5', '-100'])('refuses %j, saying what it takes', (flag) => {
    expect(() => parseBudgets(flag)).toThrow(/whole numbers of tokens separated by commas/);
  });
});

describe('AnswerSizes', () => {
  it('gives each budget its share of answers holding a correct section, and the tokens they took', () => {
    const sizes = new AnswerSizes();
    for (const [held, tokens] of [
      [true, 900],
      [false, 700],
      [true, 1000],
      [true, 950],
    ] as const) {
      sizes.record(1000, held, tokens);
    }
    sizes.record(SEARCH_DEFAULTS.tokens, true, 1200);
    const [small, standard] = sizes.lines('dev');
    expect(small).toMatch(
      /^correct section inside the answer \(full format\), dev, 1,000 tokens +3\/4 = 75\.0%; answer tokens median 950, p95 1,000$/,
    );
    expect(standard).toMatch(/ \(default\) +1\/1 = 100\.0%; answer tokens median 1,200, p95 1,200$/);
  });
});
