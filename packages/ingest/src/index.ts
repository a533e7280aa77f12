// This file is the public API of @docs/ingest.

export type { BuildOptions, BuildProgress, BuildSummary, SkippedFile } from './build.js';
export { buildPackage } from './build.js';
export type { IngestErrorCode } from './errors.js';
export { IngestError } from './errors.js';
export type { DocFormat } from './formats/convert.js';
export { formatOf, toMarkdown } from './formats/convert.js';
export type { HtmlDocument, HtmlOptions } from './formats/html.js';
export { htmlToMarkdown } from './formats/html.js';
export { splitFrontMatter } from './front-matter.js';
export type { ParsedDocument, ParseOptions, Section } from './markdown.js';
export { parseMarkdown } from './markdown.js';
export { stripMdx } from './mdx.js';
export type {
  FindDependenciesOptions,
  InstalledDependency,
  ProjectDependencies,
  SkippedDependency,
} from './sources/dependencies.js';
export { findProjectDependencies } from './sources/dependencies.js';
export type { StageOptions, StageResult } from './sources/dependency-docs.js';
export { stageDependencyDocs } from './sources/dependency-docs.js';
export type { SourceSpec } from './sources/detect.js';
export { detectSource } from './sources/detect.js';
export { openFolder } from './sources/folder.js';
export type { GitSourceOptions } from './sources/git.js';
export { cloneGitSource } from './sources/git.js';
export type { OpenSourceOptions } from './sources/open-source.js';
export { openSource } from './sources/open-source.js';
export type { PackageFileOptions } from './sources/package-file.js';
export { installPackageFile } from './sources/package-file.js';
export type { ResolvedSource, SourceKind, SourceProgress } from './sources/source.js';
export type { WebsiteOptions } from './sources/website.js';
export { fetchWebsite } from './sources/website.js';
export type { DocFile } from './walk.js';
export { DOC_EXTENSIONS, findDocFiles } from './walk.js';
