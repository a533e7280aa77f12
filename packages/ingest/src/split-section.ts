// A section over the token budget in pieces that fit, split at block boundaries, counting its text about once.
import { joinTexts, sliceContent } from './section-content.js';

// Documentation averages about 4 characters per o200k token. Until a
// document has had something counted, that predicts whether a section fits.
const TYPICAL_TOKENS_PER_CHAR = 0.25;
// A section predicted to need at most this multiple of the limit is counted
// whole first: it may well fit, and splitting it needlessly would be worse.
const COUNT_WHOLE_MARGIN = 1.25;
// Used to pack split pieces before anything in the document was counted:
// about 3.3 characters per token, denser than typical prose and code.
const DEFAULT_TOKENS_PER_CHAR = 0.3;
// Estimates aim 10% high so that a packed piece rarely needs a recount.
const RATIO_SAFETY = 1.1;

/** A top-level block: a line range in the MDX-stripped body and its plain text. */
export interface Block {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** For lists: the items, so an oversized list can be split between items. */
  readonly items?: readonly Block[];
}

/** A block (or list item) to pack into output sections. */
interface Unit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Length of its source lines: the packing estimate is chars × tokens per char. */
  readonly chars: number;
}

/** Tokens and characters counted so far in a document; their ratio predicts block sizes when splitting. */
interface TokenRatio {
  tokens: number;
  chars: number;
}

/** A section, or a piece of one, within the budget. */
export interface SectionPiece {
  readonly content: string;
  readonly text: string;
  readonly tokens: number;
}

/**
 * A document's splitter: given each section in turn (its blocks, content and text), the section whole when it fits
 * `maxTokens`, else its pieces split at block boundaries (see splitSection). One per document, called in document
 * order: it predicts a section's tokens from the tokens per character counted so far in the document.
 */
export function sectionSplitter(
  lines: readonly string[],
  maxTokens: number,
  count: (text: string) => number,
): (blocks: readonly Block[], content: string, text: string) => SectionPiece[] {
  const ratio: TokenRatio = { tokens: 0, chars: 0 };
  return (blocks, content, text) => {
    // Counting tokens is the dominant cost of parsing. A section whose length
    // makes it clearly oversized goes straight to splitting, which counts
    // each piece once, instead of being counted whole and then again in pieces.
    const tokensPerChar = ratio.chars > 0 ? ratio.tokens / ratio.chars : TYPICAL_TOKENS_PER_CHAR;
    if (content.length * tokensPerChar <= maxTokens * COUNT_WHOLE_MARGIN) {
      const tokens = count(content);
      ratio.tokens += tokens;
      ratio.chars += content.length;
      if (tokens <= maxTokens) return [{ content, text, tokens }];
    }
    return splitSection(lines, blocks, maxTokens, count, ratio);
  };
}

/**
 * Splits an oversized section's blocks into pieces of at most `maxTokens`.
 *
 * Blocks are packed greedily on an estimate (characters × the tokens per
 * character seen so far in the document, with a safety margin), then each
 * piece is counted exactly once; a piece that turns out too large is repacked
 * with the ratio it revealed. So a split section's text is counted about once,
 * not once per block and again per piece. A list whose estimate exceeds the
 * limit is split between its items.
 */
function splitSection(
  lines: readonly string[],
  blocks: readonly Block[],
  maxTokens: number,
  count: (text: string) => number,
  ratio: TokenRatio,
): SectionPiece[] {
  let tokensPerChar = ratio.chars > 0 ? (ratio.tokens / ratio.chars) * RATIO_SAFETY : DEFAULT_TOKENS_PER_CHAR;
  const units: Unit[] = [];
  for (const block of blocks) {
    const chars = rangeChars(lines, block.start, block.end);
    if (block.items !== undefined && block.items.length > 1 && chars * tokensPerChar > maxTokens) {
      for (const item of block.items) units.push({ ...item, chars: rangeChars(lines, item.start, item.end) });
    } else {
      units.push({ start: block.start, end: block.end, text: block.text, chars });
    }
  }

  // End (exclusive) of the longest run from `index` whose estimate fits; at least one unit.
  const packEnd = (index: number): number => {
    let end = index + 1;
    let estimate = (units[index] as Unit).chars * tokensPerChar;
    while (end < units.length) {
      estimate += (units[end] as Unit).chars * tokensPerChar;
      if (estimate > maxTokens) break;
      end++;
    }
    return end;
  };

  const pieces: SectionPiece[] = [];
  let index = 0;
  while (index < units.length) {
    let end = packEnd(index);
    for (;;) {
      const content = sliceContent(lines, (units[index] as Unit).start, (units[end - 1] as Unit).end);
      const tokens = count(content);
      ratio.tokens += tokens;
      ratio.chars += content.length;
      // Neighbouring blocks tend to be alike (prose, code), so the piece just
      // counted is the best predictor for the next one.
      if (content.length > 0) tokensPerChar = (tokens / content.length) * RATIO_SAFETY;
      if (tokens <= maxTokens || end - index === 1) {
        pieces.push({ content, text: joinTexts(units.slice(index, end)), tokens });
        break;
      }
      end = Math.max(index + 1, Math.min(end - 1, packEnd(index)));
    }
    index = end;
  }
  return pieces;
}

/** Characters in lines [start, end), as a cheap proxy for their token count. */
function rangeChars(lines: readonly string[], start: number, end: number): number {
  let chars = 0;
  for (let l = start; l < end; l++) chars += (lines[l] as string).length + 1;
  return chars;
}
