// This file is the public API of @docs/sources: locations → documentation
// files, with their provenance. What the files say (sections) is @docs/ingest.

export type {
  FindDependenciesOptions,
  InstalledDependency,
  ProjectDependencies,
  SkippedDependency,
} from './dependencies.js';
export { findProjectDependencies } from './dependencies.js';
export type { StageOptions, StageResult } from './dependency-docs.js';
export { stageDependencyDocs } from './dependency-docs.js';
export type { SourceSpec } from './detect.js';
export { detectSource } from './detect.js';
export type { DocFormat } from './doc-formats.js';
export { DOC_EXTENSIONS, DOC_FORMATS } from './doc-formats.js';
export type { SourceErrorCode } from './errors.js';
export { SourceError } from './errors.js';
export { openFolder } from './folder.js';
export type { GitSourceOptions } from './git.js';
export { cloneGitSource } from './git.js';
export type { HtmlDocument, HtmlOptions } from './html.js';
export { htmlToMarkdown } from './html.js';
export type { OpenSourceOptions } from './open-source.js';
export { openSource } from './open-source.js';
export type { PackageFileOptions } from './package-file.js';
export { installPackageFile } from './package-file.js';
export { installedVersion, installedVersions } from './project-versions.js';
export type { DocPackageManifest } from './registry/doc-package.js';
export { docPackageName } from './registry/doc-package.js';
export type { InstalledDocPackage, InstallOptions, ResolvedDocPackage } from './registry/install.js';
export { installDocPackage, resolveDocPackage } from './registry/install.js';
export type { ProjectNpmrc, RegistryOptions } from './registry/npm-config.js';
export { loadNpmOptions } from './registry/npm-config.js';
export type { PublishOptions, PublishResult } from './registry/publish.js';
export { publishDocPackage } from './registry/publish.js';
export type { RegistryErrorCode } from './registry/registry-error.js';
export { RegistryError } from './registry/registry-error.js';
export type {
  PackageRepository,
  RepositoryDocsOptions,
  RepositoryPlan,
  RepositoryProgress,
  RepositoryStage,
} from './repository-docs.js';
export { candidateTags, planRepositories, repositoryOf, stageFromRepositories } from './repository-docs.js';
export type { ResolvedSource, SourceKind, SourceProgress } from './source.js';
export type { DocFile, SkippedFile } from './walk.js';
export { findDocFiles } from './walk.js';
export { pageWebAddress } from './web-address.js';
export type { WebsiteOptions } from './website.js';
export { fetchWebsite } from './website.js';
export type { ProjectLayout, WorkspacePackage } from './workspaces.js';
export { filterPackages, findProjectLayout } from './workspaces.js';
