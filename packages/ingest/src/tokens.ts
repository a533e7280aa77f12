import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

// Documentation about LLMs quotes special tokens such as `<|endoftext|>`
// literally. By default gpt-tokenizer throws on them; an empty disallow set
// counts them as ordinary text instead (and skips a regex scan per call).
// Built once because the library re-derives its config from every options
// object it is given.
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };

/**
 * Number of tokens in `text` with the o200k_base encoding (GPT-4o and later).
 * Special-token strings in the text are counted as plain text, never thrown on.
 *
 * @example
 * countTokens('hello world'); // → 2
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return countO200k(text, ENCODE_OPTIONS);
}
