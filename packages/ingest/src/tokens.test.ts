import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    expect(() => countTokens('the model emits <|endoftext|> at the end')).not.toThrow();
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
});
