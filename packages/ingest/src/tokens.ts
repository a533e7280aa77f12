import { createRequire } from 'node:module';
import type { countTokens as CountO200k } from 'gpt-tokenizer/encoding/o200k_base';

// The o200k tables are loaded on first use (the library's CommonJS build, so counting stays synchronous): building
// them costs a thread ~0.4–0.9 s of CPU and ~70 MB, which a build's main thread, whose workers count, and any process
// that imports this package without counting never need to pay. The CLI's `docs add` bundle (apps/cli/scripts/bundle.mjs)
// inlines this `load` as a `require` and gives gpt-tokenizer its rank list as JSON written from the library's own.
const load = createRequire(import.meta.url);
let countO200k: typeof CountO200k | undefined;

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
  countO200k ??= (load('gpt-tokenizer/encoding/o200k_base') as { countTokens: typeof CountO200k }).countTokens;
  return countO200k(text, ENCODE_OPTIONS);
}
