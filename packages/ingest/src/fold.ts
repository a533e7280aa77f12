import type { Section } from './markdown.js';

/**
 * Folds each section smaller than `minTokens` into the section just before
 * it when that one is its parent (a shallower heading), keeping its heading
 * as a line of the parent's content. A heading with one line under it says
 * little on its own, and BM25's length normalisation would rank such a
 * fragment above the section that explains it.
 *
 * @example
 * foldSmallSections(sections, { minTokens: 30, countTokens })
 */
export function foldSmallSections(
  sections: readonly Section[],
  options: { minTokens: number; countTokens: (text: string) => number },
): Section[] {
  const folded: Section[] = [];
  for (const section of sections) {
    const parent = folded.at(-1);
    const heading = section.breadcrumb.at(-1);
    // The preamble (level 0) is the page's introduction, not a heading the section sits under.
    const isParent = parent !== undefined && parent.level > 0 && section.level > parent.level;
    if (!parent || !isParent || heading === undefined || section.tokens >= options.minTokens) {
      folded.push(section);
      continue;
    }
    const line = `${'#'.repeat(section.level)} ${heading}`;
    folded[folded.length - 1] = {
      ...parent,
      content: `${parent.content}\n\n${line}\n\n${section.content}`,
      text: `${parent.text}\n${heading}\n${section.text}`,
      // Two blank lines and the heading line join the parts.
      tokens: parent.tokens + options.countTokens(`\n\n${line}\n\n`) + section.tokens,
    };
  }
  return folded;
}
