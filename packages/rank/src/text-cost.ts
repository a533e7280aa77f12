// A token count is what a package says about its text; a package built elsewhere may say anything. The bytes a
// text takes when sent are a fact of the text itself, so a budget that also charges for them holds whatever the
// package claims.

/**
 * The most bytes `text` can take when an answer sends it: as UTF-8 inside a JSON string, the longest form any
 * surface of a search sends it in.
 *
 * - `"` and `\` and the whitespace controls JSON shortens (`\n`, `\t`, `\r`, `\b`, `\f`) count 2 bytes;
 * - every other control character (U+0000–U+001F, U+007F, U+0080–U+009F) counts 6, as `\u001b`;
 * - a lone surrogate counts 6 (JSON.stringify writes it as `\udXXX`); a surrogate pair 4;
 * - any other character counts its UTF-8 length (1 to 3 bytes).
 *
 * Empty text → 0. Linear in the length; allocates nothing.
 *
 * @example
 * encodedBytes('abc'); // 3
 * encodedBytes('é'); // 2
 * encodedBytes('\u001b[2J'); // 9: ESC counts 6
 */
export function encodedBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) bytes += c === 0x0a || c === 0x09 || c === 0x0d || c === 0x08 || c === 0x0c ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x7f) bytes += 1;
    else if (c <= 0x9f) bytes += 6;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/** Options for {@link textCost}. */
export interface TextCostOptions {
  /**
   * Bytes one token may stand for: a text costs at least its {@link encodedBytes} over this, so `budget`
   * tokens never carry more than `bytesPerToken × budget` bytes. Must be > 0; Infinity charges tokens alone.
   * @default Infinity
   */
  readonly bytesPerToken?: number;
}

/**
 * What a text costs against a token budget: its `tokens` (as its maker counted them), or more when its bytes say
 * it is larger, `Math.ceil(encodedBytes(text) / bytesPerToken)`. With the default (Infinity), `tokens`.
 *
 * @param text - The text that would be sent.
 * @param tokens - Its tokens as counted by its maker; finite and ≥ 0.
 * @param options - See {@link TextCostOptions}.
 * @returns `max(tokens, ceil(encodedBytes(text) / bytesPerToken))`.
 * @throws {RangeError} If `tokens` is negative or not finite, or `bytesPerToken` is not > 0.
 *
 * @example
 * textCost('x'.repeat(8000), 3, { bytesPerToken: 8 }); // 1000: 8,000 bytes, whatever the 3 claims
 * textCost('hello world', 2, { bytesPerToken: 8 }); // 2
 */
export function textCost(text: string, tokens: number, options: TextCostOptions = {}): number {
  const { bytesPerToken = Number.POSITIVE_INFINITY } = options;
  checkBytesPerToken(bytesPerToken, 'textCost');
  if (!(Number.isFinite(tokens) && tokens >= 0)) {
    throw new RangeError(`textCost: tokens is ${String(tokens)}; tokens must be a finite number >= 0`);
  }
  if (bytesPerToken === Number.POSITIVE_INFINITY) return tokens;
  return Math.max(tokens, Math.ceil(encodedBytes(text) / bytesPerToken));
}

/** Throws the RangeError for a `bytesPerToken` that is not > 0, naming the function it was given to. */
export function checkBytesPerToken(bytesPerToken: number, fn: string): void {
  if (!(bytesPerToken > 0)) {
    throw new RangeError(`${fn}: bytesPerToken must be a number > 0 (or Infinity), got ${String(bytesPerToken)}`);
  }
}
