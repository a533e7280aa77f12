// This file is the public API of @docs/ingest.

export type { BuildOptions, BuildProgress, BuildSummary, SkippedFile } from './build.js';
export { buildPackage } from './build.js';
export type { IngestErrorCode } from './errors.js';
export { IngestError } from './errors.js';
export { splitFrontMatter } from './front-matter.js';
export type { ParsedDocument, ParseOptions, Section } from './markdown.js';
export { parseMarkdown } from './markdown.js';
export { stripMdx } from './mdx.js';
export type { DocFile } from './walk.js';
export { DOC_EXTENSIONS, findDocFiles } from './walk.js';
