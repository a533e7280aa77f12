/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let counter: Promise<TokenCounter> | undefined;

/**
 * The token unit of the package format: OpenAI's o200k_base encoding, via
 * gpt-tokenizer. Loaded on first use because the encoding tables take about
 * a tenth of a second to load, which a search that cuts nothing should not pay.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
  return counter;
}
