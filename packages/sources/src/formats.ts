// @docs/sources/formats: what a file's format is and HTML into markdown, without the rest of the package (its
// registry clients, git, the store): all a build's worker threads need of it, each loading it on its own.

export type { DocFormat } from './doc-formats.js';
export { DOC_EXTENSIONS, DOC_FORMATS } from './doc-formats.js';
export type { HtmlDocument, HtmlOptions } from './html.js';
export { htmlToMarkdown } from './html.js';
