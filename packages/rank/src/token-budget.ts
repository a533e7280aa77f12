import { checkBytesPerToken, encodedBytes, textCost } from './text-cost.js';

/** The shape {@link tokenBudget} needs from each ranked item. */
export interface BudgetItem {
  /** The text that would be sent to the reader. */
  readonly content: string;
  /** Its size in tokens, as counted by the caller; finite and ≥ 0. */
  readonly tokens: number;
}

/** Options for {@link tokenBudget}. */
export interface TokenBudgetOptions {
  /**
   * Total tokens allowed over all kept items. Infinity = no budget. 0 → nothing is kept.
   * @default 2000
   */
  readonly budget?: number;
  /**
   * Counts tokens of a piece of text; used only when the top item must be cut.
   * Must return a number ≥ 0 and should grow with the length of the text.
   * @default estimate: Math.ceil(text.length / 4)
   */
  readonly countTokens?: (text: string) => number;
  /**
   * Bytes one token may stand for: each item costs `textCost(content, tokens, { bytesPerToken })`, at least its
   * {@link encodedBytes} over this, so the kept contents never take more than `bytesPerToken × budget` bytes
   * whatever the items' `tokens` claim. Must be > 0. Infinity = items cost their `tokens`, as counted by the caller.
   * @default Infinity
   */
  readonly bytesPerToken?: number;
}

/** A kept item: a shallow copy of the input item, flagged when it was cut. */
export type BudgetedItem<T extends BudgetItem> = T & { readonly truncated: boolean };

/** What {@link tokenBudget} kept and what it spent. */
export interface TokenBudgetResult<T extends BudgetItem> {
  /** Kept items in input order. */
  readonly items: BudgetedItem<T>[];
  /** Sum of kept items' tokens (after truncation, as charged); always ≤ budget. */
  readonly totalTokens: number;
  /** How many input items did not fit. */
  readonly skipped: number;
}

/**
 * Spends one global token budget over a ranked list, best first.
 *
 * - The top (first) item is never dropped for being large: when its `tokens`
 *   exceed the budget its content is cut to fit, at the last paragraph
 *   boundary (blank line) that fits, else the last line boundary, else the
 *   last word boundary, else the last character (never splitting a surrogate
 *   pair). Trailing whitespace of the cut is trimmed, `countTokens(cut) ≤
 *   budget` is guaranteed, `tokens` is set to `countTokens(cut)` and
 *   `truncated` to `true`. The end of the text counts as a boundary of every
 *   kind, so if the caller's `tokens` overstated the size and the whole
 *   content fits by `countTokens`, the content is kept whole (trimmed) with
 *   recounted tokens, still flagged `truncated: true`.
 * - If not even the first character fits (only possible with a fractional
 *   budget or an unusual `countTokens`), the top item is kept with empty
 *   content, `tokens: 0` (without consulting `countTokens`) and
 *   `truncated: true`.
 * - Later items that do not fit in what remains are skipped, and later,
 *   smaller items that still fit are kept: skip, don't stop.
 * - Kept items that were not cut are shallow copies (own enumerable
 *   properties) with `truncated: false`; the input is not mutated.
 * - With `bytesPerToken`, an item whose bytes say it is larger than its `tokens` is charged for its bytes
 *   (see {@link textCost}), and a kept item's `tokens` is what it was charged; the top item's cut then also
 *   keeps `encodedBytes(cut) ≤ bytesPerToken × budget`, and `countTokens` only ever sees a prefix of at most
 *   `bytesPerToken × budget` characters (a longer one cannot fit), so a 10 MB item costs no 10 MB count.
 * - Budget 0 keeps nothing; budget Infinity keeps everything; empty input →
 *   `{ items: [], totalTokens: 0, skipped: 0 }`.
 *
 * Cutting uses a binary search over candidate boundaries, so it calls
 * `countTokens` O(log n) times even on very large texts. It assumes
 * `countTokens` grows with the prefix length; if it does not, a shorter cut
 * than the best one may be chosen, but every cut returned has been counted and
 * satisfies the bound.
 *
 * @param items - Ranked items, best first.
 * @param options - See {@link TokenBudgetOptions}.
 * @returns The kept items, their total tokens and how many were skipped.
 * @throws {RangeError} If the budget is negative or NaN, if an item's `tokens`
 *   is negative or not finite, if `bytesPerToken` is not > 0, or if
 *   `countTokens` returns a negative number or NaN.
 *
 * @example
 * tokenBudget(
 *   [{ content: 'big', tokens: 700 }, { content: 'huge', tokens: 900 }, { content: 'small', tokens: 200 }],
 *   { budget: 1000 },
 * );
 * // → items: [{ content: 'big', tokens: 700, truncated: false }, { content: 'small', tokens: 200, truncated: false }],
 * //   totalTokens: 900, skipped: 1
 */
export function tokenBudget<T extends BudgetItem>(
  items: readonly T[],
  options: TokenBudgetOptions = {},
): TokenBudgetResult<T> {
  const {
    budget = 2000,
    countTokens = (text: string) => Math.ceil(text.length / 4),
    bytesPerToken = Number.POSITIVE_INFINITY,
  } = options;
  if (!(budget >= 0)) {
    throw new RangeError(`tokenBudget: budget must be a number >= 0 (or Infinity), got ${String(budget)}`);
  }
  checkBytesPerToken(bytesPerToken, 'tokenBudget');
  for (let i = 0; i < items.length; i++) {
    const tokens = (items[i] as T).tokens;
    if (!(Number.isFinite(tokens) && tokens >= 0)) {
      throw new RangeError(`tokenBudget: items[${i}].tokens is ${String(tokens)}; tokens must be a finite number >= 0`);
    }
  }
  if (budget === 0) return { items: [], totalTokens: 0, skipped: items.length };

  const kept: BudgetedItem<T>[] = [];
  let totalTokens = 0;
  let skipped = 0;
  const charged =
    bytesPerToken === Number.POSITIVE_INFINITY ? countTokens : byBytesToo(countTokens, bytesPerToken, budget);
  items.forEach((item, index) => {
    const cost = textCost(item.content, item.tokens, { bytesPerToken });
    // Compare the running sum (not a decremented remainder) so the reported
    // total is exactly the sum that was checked against the budget.
    if (totalTokens + cost <= budget) {
      kept.push({ ...item, tokens: cost, truncated: false });
      totalTokens += cost;
    } else if (index === 0) {
      const cut = cutToBudget(longestFitting(item.content, bytesPerToken * budget), budget, charged);
      kept.push({ ...item, content: cut.content, tokens: cut.tokens, truncated: true });
      totalTokens += cut.tokens;
    } else {
      skipped++;
    }
  });
  return { items: kept, totalTokens, skipped };
}

/**
 * A counter that charges a text for its bytes too. Past the budget in bytes it does not consult `countTokens`:
 * the text cannot fit however few tokens it holds.
 */
function byBytesToo(
  countTokens: (text: string) => number,
  bytesPerToken: number,
  budget: number,
): (text: string) => number {
  return (text) => {
    const byBytes = Math.ceil(encodedBytes(text) / bytesPerToken);
    return byBytes > budget ? byBytes : Math.max(byBytes, countTokens(text));
  };
}

/**
 * The longest prefix of `text` that could fit in `bytes` encoded bytes: each UTF-16 unit encodes to at least one
 * byte, so no cut longer than `bytes` units fits. A surrogate pair is not split.
 */
function longestFitting(text: string, bytes: number): string {
  if (!(text.length > bytes)) return text;
  const end = Math.floor(bytes);
  return text.slice(0, splitsSurrogatePair(text, end) ? end - 1 : end);
}

/** Cut positions of one boundary kind, ascending; read lazily so the character level needs no array. */
interface Candidates {
  readonly length: number;
  at(index: number): number;
}

function cutToBudget(
  text: string,
  budget: number,
  countTokens: (text: string) => number,
): { content: string; tokens: number } {
  // A cut that is empty after trimming is no cut at all, so every candidate
  // must end after the first non-whitespace character.
  const first = text.search(/\S/);
  if (first === -1) return { content: '', tokens: 0 };
  const after = (ends: number[]): Candidates => {
    const usable = ends.filter((end) => end > first);
    usable.push(text.length);
    return { length: usable.length, at: (index) => usable[index] as number };
  };

  const levels: Candidates[] = [
    after(matchStarts(text, /\n[^\S\n]*\n/g)),
    after(matchStarts(text, /\n/g)),
    after(matchStarts(text, /\s+/g)),
    {
      length: text.length - first,
      // A cut inside a surrogate pair takes the whole pair: stepping back instead would make the first candidate
      // empty (a text opening with an emoji), which never fits, and the search, which takes the fitting candidates
      // for a prefix, would then find no cut at all.
      at: (index) => {
        const end = first + 1 + index;
        return splitsSurrogatePair(text, end) ? end + 1 : end;
      },
    },
  ];

  for (const candidates of levels) {
    const found = lastFitting(candidates, (end) => {
      const content = text.slice(0, end).trimEnd();
      if (content === '') return undefined;
      const tokens = countTokens(content);
      if (!(tokens >= 0)) {
        throw new RangeError(`tokenBudget: countTokens returned ${String(tokens)}; it must return a number >= 0`);
      }
      return tokens <= budget ? { content, tokens } : undefined;
    });
    if (found !== undefined) return found;
  }
  return { content: '', tokens: 0 };
}

/**
 * Binary search for the last candidate that fits, assuming fits are a prefix
 * of the candidates. Only candidates that were actually checked are returned,
 * so a non-monotone counter can cost cut length but never break the bound.
 */
function lastFitting<R>(candidates: Candidates, check: (end: number) => R | undefined): R | undefined {
  let low = -1;
  let high = candidates.length;
  let best: R | undefined;
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2);
    const result = check(candidates.at(mid));
    if (result === undefined) {
      high = mid;
    } else {
      low = mid;
      best = result;
    }
  }
  return best;
}

function matchStarts(text: string, pattern: RegExp): number[] {
  return Array.from(text.matchAll(pattern), (match) => match.index);
}

function splitsSurrogatePair(text: string, end: number): boolean {
  const before = text.charCodeAt(end - 1);
  const after = text.charCodeAt(end);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
