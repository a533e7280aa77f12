// @docs/store/section-text: what a builder computes for each section that the store defines (headings cut to fit a
// line, the index text), without the database: a build's worker threads load this alone, not better-sqlite3.

export { identifierWords, indexText } from './index-text.js';
export { fitBreadcrumb, fitLine } from './lines.js';
