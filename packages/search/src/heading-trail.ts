import type { DocResult } from './results.js';

/**
 * The headings a result sits under, from its document's title down to its section: the breadcrumb, with the
 * title put first unless the breadcrumb already starts with it. Every text that labels a result uses it.
 *
 * @example
 * headingTrail({ title: 'Mocking', breadcrumb: ['Timers'] }).join(' > '); // 'Mocking > Timers'
 * headingTrail({ title: 'Mocking', breadcrumb: ['Mocking', 'Timers'] }).join(' > '); // 'Mocking > Timers'
 */
export function headingTrail(result: Pick<DocResult, 'title' | 'breadcrumb'>): readonly string[] {
  return result.breadcrumb[0] === result.title ? result.breadcrumb : [result.title, ...result.breadcrumb];
}
