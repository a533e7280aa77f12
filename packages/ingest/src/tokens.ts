import { o200kCounter } from './o200k.js';

/**
 * Number of tokens in `text` with the o200k_base encoding (GPT-4o and later), the same count as gpt-tokenizer's
 * `countTokens` (see o200k.ts for why the build counts with its own table). Documentation about LLMs quotes
 * special tokens such as `<|endoftext|>` literally; they are counted as plain text, never thrown on.
 *
 * @example
 * countTokens('hello world'); // → 2
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return o200kCounter().count(text);
}
