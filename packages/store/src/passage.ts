import type { SectionText } from './vector-job.js';

/**
 * The text a model reads for a section: the document title and heading trail
 * on the first line (where the section sits often says what it is about),
 * then its content. One definition for the vectors made at build time and the
 * passages a re-ranker scores at search time, so both read the same thing.
 *
 * @example
 * sectionPassage({ title: 'Timers', breadcrumb: ['Timers', 'Advance'], content: 'Use vi.advanceTimersByTime.' });
 * // → 'Timers > Advance\n\nUse vi.advanceTimersByTime.'
 */
export function sectionPassage(section: Pick<SectionText, 'title' | 'breadcrumb' | 'content'>): string {
  const trail = section.breadcrumb[0] === section.title ? section.breadcrumb : [section.title, ...section.breadcrumb];
  const place = trail.filter((t) => t.trim() !== '').join(' > ');
  return place === '' ? section.content : `${place}\n\n${section.content}`;
}
