// This file is the public API of @docs/errors.

export type { Classified } from './classify.js';
export { classify } from './classify.js';
export type { Blame } from './docs-error.js';
export { DocsError, isDocsError, isDocsErrorNamed } from './docs-error.js';
