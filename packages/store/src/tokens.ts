/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let counter: Promise<TokenCounter> | undefined;

/**
 * The token unit of the package format: OpenAI's o200k_base encoding, via
 * gpt-tokenizer. Loaded on first use because the encoding tables take about
 * a tenth of a second to load, which a search that cuts nothing should not pay.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  // Documentation about LLMs quotes special tokens such as `<|endoftext|>`; gpt-tokenizer throws on them by
  // default. An empty disallow set counts them as text, as the build counted them (@docs/ingest's tokens.ts).
  const options = { disallowedSpecial: new Set<string>() };
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text, options));
  return counter;
}
