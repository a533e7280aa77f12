// This file is the public API of @docs/store.

export { writeFileAtomic } from './atomic-file.js';
export type { CatalogEntry } from './catalog.js';
export type { StoreErrorCode } from './errors.js';
export { isStoreError, StoreError } from './errors.js';
export type { ColumnWeights, Term, TermQuery } from './fts-query.js';
export { matchExpression } from './fts-query.js';
export { goLibraryName, isGoModulePath, storedGoVersion } from './go-module-name.js';
export { resolveHome } from './home.js';
export { identifierWords, indexText } from './index-text.js';
export { indexTokens, tokensContain } from './index-tokens.js';
export type { InstalledPackage } from './installed-package.js';
export { fitBreadcrumb, fitLine } from './lines.js';
export { isBeingBuilt, tryBuildLock } from './name-lock.js';
export type { ResolveError, ResolveResult } from './name-resolution.js';
export type { PackageId, VersionLabel } from './names.js';
export {
  assertFileNameFits,
  assertValidName,
  assertValidVersion,
  compareVersions,
  formatPackageId,
  packageFileName,
  parsePackageFileName,
  parsePackageSpec,
} from './names.js';
export type { PackageInfo } from './package-file.js';
export { inspectPackageFile } from './package-file.js';
export type { ChunkHit, PackageStats, StoredDocument, TermStatistics } from './package-reader.js';
export { PackageReader } from './package-reader.js';
export { PackageStore } from './package-store.js';
export type { ChunkInput, DocumentInput, PackageMeta, WritePackageOptions, WriteSummary } from './package-writer.js';
export { writePackage } from './package-writer.js';
export { isRunning } from './partial-files.js';
export { sectionPassage } from './passage.js';
export type { ReaderCacheSizes } from './reader-caches.js';
export { prereleaseNote, resolveErrorMessage } from './resolution-messages.js';
export type { FtsColumn, PackageDatabase } from './schema.js';
export { PACKAGE_FORMAT_VERSION } from './schema.js';
export type { TokenCounter } from './tokens.js';
export { loadTokenCounter } from './tokens.js';
export type { SectionText, SectionVector } from './vector-job.js';
export { VectorJob } from './vector-job.js';
export type { PackageEmbedder, VectorHit } from './vector-search.js';
export type { VectorWork } from './vector-worker-status.js';
export {
  clearVectorWork,
  readVectorWork,
  tryVectorWorkerLock,
  vectorWorkOf,
  writeVectorWork,
} from './vector-worker-status.js';
export { VerifiedPackages } from './verified-packages.js';
