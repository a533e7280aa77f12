// A package is built elsewhere, so every string in it is as long as its maker chose: a 10 MB title, a heading
// trail of a thousand headings, content whose stored token count says 5. These limits are what an answer carries
// at most of each, whatever the package holds; an honest page stays well within them.

/**
 * What an answer carries at most of a package's strings. The content of a full-format answer counts against
 * the token budget, at {@link ANSWER_LIMITS.bytesPerToken} bytes a token at most; the labels are cut.
 */
export const ANSWER_LIMITS: {
  /** Bytes (UTF-8 inside JSON, `encodedBytes`) one token of the budget may carry: `--tokens N` sends at most 8·N bytes of content. */
  readonly bytesPerToken: number;
  /** Characters of a title, a path or a heading, beyond which it is cut and ends with `…`. */
  readonly labelChars: number;
  /** Headings of a breadcrumb: a deeper one keeps its first and its last ones, with `…` between. */
  readonly breadcrumbHeadings: number;
  /** Characters of a library's description. */
  readonly descriptionChars: number;
} = Object.freeze({ bytesPerToken: 8, labelChars: 300, breadcrumbHeadings: 8, descriptionChars: 500 });

/**
 * `text` when it has at most `max` characters (UTF-16 units), else its first `max - 1` and `…`, never splitting
 * a surrogate pair.
 *
 * @example
 * shortText('a'.repeat(10), 4); // 'aaa…'
 */
export function shortText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A title, a path or a heading as an answer carries it: at most {@link ANSWER_LIMITS.labelChars} characters. */
export function shortLabel(text: string): string {
  return shortText(text, ANSWER_LIMITS.labelChars);
}

/**
 * A breadcrumb as an answer carries it: each heading a {@link shortLabel}, and at most
 * {@link ANSWER_LIMITS.breadcrumbHeadings} of them (the first two, `…`, and the last ones, so the section's own
 * heading stays last). Markdown has six heading levels, so an honest breadcrumb is never shortened.
 */
export function shortBreadcrumb(breadcrumb: readonly string[]): readonly string[] {
  const max = ANSWER_LIMITS.breadcrumbHeadings;
  const kept = breadcrumb.length <= max ? breadcrumb : [...breadcrumb.slice(0, 2), '…', ...breadcrumb.slice(3 - max)];
  return kept === breadcrumb && breadcrumb.every((h) => h.length <= ANSWER_LIMITS.labelChars)
    ? breadcrumb
    : kept.map(shortLabel);
}

/** A library's description as a listing carries it: at most {@link ANSWER_LIMITS.descriptionChars} characters. */
export function shortDescription(text: string): string {
  return shortText(text, ANSWER_LIMITS.descriptionChars);
}
