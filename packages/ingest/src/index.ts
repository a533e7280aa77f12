// This file is the public API of @docs/ingest: files → sections. Where the
// files come from (folders, git, websites, dependencies) is @docs/sources.

export type { BuildOptions, BuildProgress, BuildSummary } from './build.js';
export { buildPackage } from './build.js';
export type { EmbedPackageOptions, EmbedProgress, EmbedSummary } from './embed-package.js';
export { embedPackage } from './embed-package.js';
export type { IngestErrorCode } from './errors.js';
export { IngestError } from './errors.js';
export type { DocFormat } from './formats/convert.js';
export { formatOf, toMarkdown } from './formats/convert.js';
export { splitFrontMatter } from './front-matter.js';
export type { ParsedDocument, ParseOptions, Section } from './markdown.js';
export { parseMarkdown } from './markdown.js';
export { stripMdx } from './mdx.js';
