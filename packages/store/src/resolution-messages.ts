// The sentences a name that resolves to no one package gives, written once from name-resolution.ts' data: the CLI
// prints them after "docs: ", the MCP tools and the HTTP API answer with them (through @docs/search's
// library-scope.ts, which adds only what a server's scope refuses).
import type { InstalledPackage } from './installed-package.js';
import type { RemoveError, ResolveError } from './name-resolution.js';
import { formatPackageId } from './names.js';

/**
 * Why a name resolved to no package, as one sentence (no final period, so a caller may go on: "…; serving it once
 * it is installed").
 *
 * @example
 * const found = await store.resolve('vitset');
 * if (!found.ok) console.error(resolveErrorMessage(found.error));
 * // Library "vitset" is not installed. Did you mean "vitest"? Installed: vitest@3.2.0
 */
export function resolveErrorMessage(error: ResolveError): string {
  switch (error.code) {
    case 'no-packages':
      return 'No documentation packages are installed';
    case 'unknown-library': {
      const hint = error.suggestion ? ` Did you mean "${error.suggestion}"?` : '';
      return `Library "${error.name}" is not installed.${hint} Installed: ${listed(error.installed)}`;
    }
    case 'unknown-version':
      return `${error.versions[0]?.name} has no version "${error.version}". Installed versions: ${error.versions.map((p) => p.version).join(', ')}`;
  }
}

/**
 * What a caller tells the user when the version asked for was met only by a prerelease (`vitest@5` → 5.0.0-rc.2).
 *
 * @example
 * const found = await store.resolve('vitest@5');
 * if (found.ok && found.prerelease) console.error(prereleaseNote(found.value, found.prerelease.asked));
 * // vitest has no release matching "5"; using the prerelease 5.0.0-rc.2
 */
export function prereleaseNote(pkg: InstalledPackage, asked: string): string {
  return `${pkg.name} has no release matching "${asked}"; using the prerelease ${pkg.version}`;
}

/** Why a spec names no one package to remove (the message of PackageStore.remove's StoreError). */
export function removeErrorMessage(error: RemoveError): string {
  switch (error.code) {
    case 'not-installed':
      return `${error.spec} is not installed. Installed: ${listed(error.known)}`;
    case 'ambiguous':
      return `${error.name} has ${error.matches.length} versions installed; say which to remove: ${error.matches.map(formatPackageId).join(', ')}`;
  }
}

function listed(packages: readonly InstalledPackage[]): string {
  return packages.length === 0 ? '(none)' : packages.map(formatPackageId).join(', ');
}
