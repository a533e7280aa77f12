import { encodedBytes } from '@docs/rank';

// A package is built elsewhere, so every string in it is as long as its maker chose: a 10 MB title, a heading
// trail of a thousand headings, content whose stored token count says 5. These limits are what an answer carries
// at most of each, whatever the package holds; an honest page stays well within them. Labels are measured in the
// bytes they take when sent (`encodedBytes`: UTF-8 inside JSON, a control character 6), so a label of escapes
// is no longer than a label of letters.

/**
 * What an answer carries at most of a package's strings. The content of a full-format answer counts against
 * the token budget, at {@link ANSWER_LIMITS.bytesPerToken} bytes a token at most; the labels are cut.
 */
export const ANSWER_LIMITS: {
  /** Bytes (UTF-8 inside JSON, `encodedBytes`) one token of the budget may carry: `tokens: N` sends at most 8·N bytes of content. */
  readonly bytesPerToken: number;
  /** Bytes of a title, a path or a heading, beyond which it is cut and ends with `…`. */
  readonly labelBytes: number;
  /** Headings of a breadcrumb: a deeper one keeps its first two and its last ones, with `…` between. */
  readonly breadcrumbHeadings: number;
  /** Bytes of a library's description (and of where a package says it came from). */
  readonly descriptionBytes: number;
} = Object.freeze({ bytesPerToken: 8, labelBytes: 300, breadcrumbHeadings: 8, descriptionBytes: 500 });

const ELLIPSIS = '…';

/**
 * `text` when it takes at most `maxBytes` bytes when sent (`encodedBytes`), else its longest start that takes at
 * most `maxBytes` with `…` (3 bytes) after it, never splitting a surrogate pair. Reads no more of `text` than
 * `maxBytes` characters, however long it is.
 *
 * @example
 * shortText('a'.repeat(10), 6); // 'aaa…'
 */
export function shortText(text: string, maxBytes: number): string {
  // Every character takes at least a byte: past `maxBytes` characters the text cannot fit.
  if (text.length <= maxBytes && encodedBytes(text) <= maxBytes) return text;
  const room = maxBytes - encodedBytes(ELLIPSIS);
  let end = 0;
  let bytes = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const next = code >= 0xd800 && code <= 0xdbff ? end + 2 : end + 1;
    const size = encodedBytes(text.slice(end, next));
    if (bytes + size > room) break;
    bytes += size;
    end = next;
  }
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/** A title, a path or a heading as an answer carries it: at most {@link ANSWER_LIMITS.labelBytes} bytes. */
export function shortLabel(text: string): string {
  return shortText(text, ANSWER_LIMITS.labelBytes);
}

/**
 * A breadcrumb as an answer carries it: each heading a {@link shortLabel}, and at most
 * {@link ANSWER_LIMITS.breadcrumbHeadings} of them (the first two, `…`, and the last ones, so the section's own
 * heading stays last). Markdown has six heading levels, so an honest breadcrumb keeps all its headings.
 */
export function shortBreadcrumb(breadcrumb: readonly string[]): readonly string[] {
  const max = ANSWER_LIMITS.breadcrumbHeadings;
  const kept = breadcrumb.length <= max ? breadcrumb : [...breadcrumb.slice(0, 2), '…', ...breadcrumb.slice(3 - max)];
  const shortened = kept.map(shortLabel);
  // The same array when nothing was cut, as most are.
  return kept === breadcrumb && shortened.every((h, i) => h === breadcrumb[i]) ? breadcrumb : shortened;
}

/** A library's description as a listing carries it: at most {@link ANSWER_LIMITS.descriptionBytes} bytes. */
export function shortDescription(text: string): string {
  return shortText(text, ANSWER_LIMITS.descriptionBytes);
}
