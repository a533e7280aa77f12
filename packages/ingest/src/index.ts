// This file is the public API of @docs/ingest.
export { buildPackage } from './build.js';
export type { BuildOptions, BuildProgress, BuildSummary, SkippedFile } from './build.js';
export { IngestError } from './errors.js';
export type { IngestErrorCode } from './errors.js';
export { splitFrontMatter } from './front-matter.js';
export { parseMarkdown } from './markdown.js';
export type { ParsedDocument, ParseOptions, Section } from './markdown.js';
export { stripMdx } from './mdx.js';
export { DOC_EXTENSIONS, findDocFiles } from './walk.js';
export type { DocFile } from './walk.js';
