// Titles and headings are lines, not pages: an install of a file from elsewhere refuses longer ones
// (package-queries.ts), so what this process writes is cut to fit, and a build counts what is stored.
import { MAX_BREADCRUMB, MAX_LINE } from './schema.js';

/**
 * A title or heading cut to at most `max` characters, with an ellipsis: an install elsewhere refuses longer ones
 * (package-queries.ts), so a package built from a page with a 200 KB heading installs wherever it is shared. Cut at
 * `max - 1` UTF-16 units, which never hold more characters than that, and never inside a surrogate pair.
 */
export function fitLine(text: string, max: number = MAX_LINE): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A breadcrumb whose headings each fit a line and whose JSON text fits MAX_BREADCRUMB: headings are cut evenly
 * when they must be, and when even short ones do not fit (hundreds of headings), the first two are kept, then `…`,
 * then as many of the last as fit.
 */
export function fitBreadcrumb(breadcrumb: readonly string[]): readonly string[] {
  const fits = (headings: readonly string[]) => JSON.stringify(headings).length <= MAX_BREADCRUMB;
  let max = MAX_LINE;
  let fitted = breadcrumb.map((heading) => fitLine(heading, max));
  while (!fits(fitted) && max > SHORTEST) {
    max = Math.max(SHORTEST, Math.floor(max * 0.8));
    fitted = breadcrumb.map((heading) => fitLine(heading, max));
  }
  if (fits(fitted)) return fitted;
  const first = fitted.slice(0, 2);
  let last = fitted.length - 2;
  while (last > 0 && !fits([...first, '…', ...fitted.slice(-last)])) last -= 1;
  return [...first, '…', ...(last > 0 ? fitted.slice(-last) : [])];
}

/** The shortest a heading of a breadcrumb is cut to before headings are left out instead. */
const SHORTEST = 16;
