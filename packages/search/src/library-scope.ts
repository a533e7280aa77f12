import {
  formatPackageId,
  type InstalledPackage,
  type PackageStore,
  parsePackageSpec,
  prereleaseNote,
  resolveErrorMessage,
} from '@docs/store';
import { ADD_DOCS_HINT, NO_PACKAGES_MESSAGE } from './messages.js';

/**
 * The libraries a caller may reach (a server started with `--libs`): `name`
 * serves every installed version of it, `name@version` or a range the version
 * it resolves to. Absent or empty: every installed library.
 */
export type LibraryScope = readonly string[];

/** Why a library named by a call could not be used: the answer's status, its message, and what there is instead. */
export interface LibraryError {
  readonly code: 'no-packages' | 'unknown-library' | 'unknown-version';
  /** The whole sentence an answer gives. */
  readonly message: string;
  /** The libraries that could have been asked for, as `name@version`. */
  readonly installed: readonly string[];
  /** The closest of them, when there is one. */
  readonly suggestion?: string;
}

/** A library named by a call: the package it resolves to (with a note when a range took a prerelease), or why not. */
export type LibraryResolution =
  | { readonly ok: true; readonly value: InstalledPackage; readonly note?: string }
  | { readonly ok: false; readonly error: LibraryError };

/** Whether a scope narrows what is served. */
export function isScoped(scope: LibraryScope | undefined): scope is LibraryScope {
  return scope !== undefined && scope.length > 0;
}

/**
 * The installed packages a scope serves, by name ascending, highest version
 * first: all of them when there is no scope.
 */
export async function servedPackages(store: PackageStore, scope?: LibraryScope): Promise<InstalledPackage[]> {
  const installed = await store.list();
  if (!isScoped(scope)) return installed;
  const served = new Set<string>();
  for (const spec of scope) {
    const { name, version } = parsePackageSpec(spec.trim());
    if (version === undefined) {
      for (const p of installed) if (sameName(p.name, name)) served.add(p.file);
      continue;
    }
    const found = await store.resolve(spec);
    if (found.ok) served.add(found.value.file);
  }
  return installed.filter((p) => served.has(p.file));
}

/** The highest served version of each served library. */
export async function servedLatest(store: PackageStore, scope?: LibraryScope): Promise<InstalledPackage[]> {
  const seen = new Set<string>();
  return (await servedPackages(store, scope)).filter((p) => !seen.has(p.name) && seen.add(p.name));
}

/**
 * The package a call names: `library` is `name` or `name@version` (or a
 * range), `version` the version for a bare name. A bare name takes
 * `projectVersion`, the version the project being worked on installs, when
 * that version is served. Within a scope, a library outside it is refused with
 * the served ones listed, and a bare name gives the highest served version.
 * The store says which package a name means, as data; the sentences of a failure are the store's
 * (`resolveErrorMessage`), or, for what a scope refuses, written here.
 */
export async function resolveLibrary(
  store: PackageStore,
  library: string,
  options: {
    readonly version?: string | undefined;
    readonly projectVersion?: string | undefined;
    readonly scope?: LibraryScope | undefined;
  } = {},
): Promise<LibraryResolution> {
  const { version, projectVersion, scope } = options;
  const bare = (version === undefined || version === '') && parsePackageSpec(library.trim()).version === undefined;
  if (bare && projectVersion) {
    const preferred = await resolveServed(store, library, projectVersion, scope);
    if (preferred.ok && preferred.value.version === projectVersion) return preferred;
  }
  return resolveServed(store, library, version, scope);
}

async function resolveServed(
  store: PackageStore,
  library: string,
  version: string | undefined,
  scope: LibraryScope | undefined,
): Promise<LibraryResolution> {
  const found = await store.resolve(library, version);
  const note = found.ok && found.prerelease ? { note: prereleaseNote(found.value, found.prerelease.asked) } : {};
  if (!isScoped(scope)) {
    if (found.ok) return { ok: true, value: found.value, ...note };
    const { error } = found;
    return refused({
      code: error.code,
      message: error.code === 'no-packages' ? NO_PACKAGES_MESSAGE : resolveErrorMessage(error),
      installed: error.installed.map(formatPackageId),
      ...(error.code !== 'no-packages' && error.suggestion ? { suggestion: error.suggestion } : {}),
    });
  }
  const served = await servedPackages(store, scope);
  const labels = served.map(formatPackageId);
  if (found.ok && served.some((p) => p.file === found.value.file)) return { ok: true, value: found.value, ...note };
  const { name, version: asked } = parsePackageSpec(library.trim());
  const wantedVersion = version ?? asked;
  const sameLibrary = served.filter((p) => sameName(p.name, name));
  if (sameLibrary[0] && (wantedVersion === undefined || wantedVersion === '' || wantedVersion === 'latest')) {
    return { ok: true, value: sameLibrary[0] };
  }
  const listing = labels.length > 0 ? labels.join(', ') : `none of them is installed (${ADD_DOCS_HINT})`;
  if (sameLibrary.length > 0) {
    return refused({
      code: 'unknown-version',
      message: `${sameLibrary[0]?.name} has no version "${wantedVersion}" on this server. Versions served: ${sameLibrary.map((p) => p.version).join(', ')}.`,
      installed: labels,
      suggestion: formatPackageId(sameLibrary[0] as InstalledPackage),
    });
  }
  const suggestion = found.ok || found.error.code === 'no-packages' ? undefined : found.error.suggestion;
  const close = suggestion && served.some((p) => sameName(p.name, suggestion)) ? suggestion : undefined;
  return refused({
    code: labels.length === 0 ? 'no-packages' : 'unknown-library',
    message:
      `Library "${name}" is not served by this server (scoped to ${scope.join(', ')}).` +
      (close ? ` Did you mean "${close}"?` : '') +
      ` Served: ${listing}.`,
    installed: labels,
    ...(close ? { suggestion: close } : {}),
  });
}

/** Why a search of every served library has none to search: nothing installed, or none of the scope's libraries. */
export function nothingServed(scope: LibraryScope | undefined): LibraryError {
  const message = isScoped(scope)
    ? `None of the libraries this server serves (${scope.join(', ')}) is installed. ${ADD_DOCS_HINT}`
    : NO_PACKAGES_MESSAGE;
  return { code: 'no-packages', message, installed: [] };
}

function refused(error: LibraryError): LibraryResolution {
  return { ok: false, error };
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
