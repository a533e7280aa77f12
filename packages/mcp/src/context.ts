import { ADD_DOCS_HINT, NO_PACKAGES_MESSAGE, type SearchModels } from '@docs/search';
import { formatPackageId, type InstalledPackage, type PackageStore, parsePackageSpec } from '@docs/store';

/** What the tools work on. */
export interface DocsToolContext {
  /** The store the tools read; re-read on every call, so packages added or removed while running are seen. */
  readonly store: PackageStore;
  /**
   * Serve only these libraries (`name`: any installed version, the highest by
   * default; `name@version` or a range: the version it resolves to).
   * @default every installed library
   */
  readonly libraries?: readonly string[];
  /** Where searches get a query embedder and a re-ranker; none → lexical. @default none */
  readonly models?: SearchModels;
  /**
   * The version of a library the project being worked on installs, when there is one: get_docs answers a bare
   * name from that version when it is served, and says so when it is not. @default none (the highest version)
   */
  readonly projectVersion?: (name: string) => Promise<string | undefined>;
  /**
   * projectVersion for many names at once (the installed ones among them, by name): search_all asks for every
   * library installed in more than one version, and one walk up the project's folders answers them all.
   * @default projectVersion asked for each name
   */
  readonly projectVersions?: (names: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** Told of every failure a tool turned into an error result, for the server's log. */
  readonly onError?: (error: unknown, tool: string) => void;
}

/**
 * The installed packages this server serves, by name ascending, highest
 * version first: all of them, or those the scope names.
 */
export async function servedPackages(context: DocsToolContext): Promise<InstalledPackage[]> {
  const installed = await context.store.list();
  if (!isScoped(context)) return installed;
  const served = new Set<string>();
  for (const spec of context.libraries ?? []) {
    const { name, version } = parsePackageSpec(spec.trim());
    if (version === undefined) {
      for (const p of installed) if (sameName(p.name, name)) served.add(p.file);
      continue;
    }
    const found = await context.store.resolve(spec);
    if (found.ok) served.add(found.value.file);
  }
  return installed.filter((p) => served.has(p.file));
}

/** The highest served version of each served library. */
export async function servedLatest(context: DocsToolContext): Promise<InstalledPackage[]> {
  const seen = new Set<string>();
  return (await servedPackages(context)).filter((p) => !seen.has(p.name) && seen.add(p.name));
}

export function isScoped(context: DocsToolContext): boolean {
  return context.libraries !== undefined && context.libraries.length > 0;
}

/** Why a library could not be used, in the shape the tools' output schemas share. */
export interface Unresolved {
  readonly status: 'no-packages' | 'unknown-library' | 'unknown-version';
  readonly message: string;
  readonly installed: readonly string[];
  readonly suggestion?: string;
}

export type Resolved =
  | {
      readonly ok: true;
      readonly pkg: InstalledPackage /** A prerelease was taken for a range. */;
      readonly note?: string;
    }
  | ({ readonly ok: false } & Unresolved);

/**
 * Finds the package a tool call asks for, among those this server serves.
 * Unscoped, this is the store's own resolution; scoped, a library outside the
 * scope is refused with the served ones listed, and a bare name gives the
 * highest served version.
 */
export async function resolveLibrary(context: DocsToolContext, library: string, version?: string): Promise<Resolved> {
  const found = await context.store.resolve(library, version);
  const note = found.ok && found.note ? { note: found.note } : {};
  if (!isScoped(context)) {
    if (found.ok) return { ok: true, pkg: found.value, ...note };
    return {
      ok: false,
      status: found.error.code,
      message:
        found.error.code === 'no-packages' ? NO_PACKAGES_MESSAGE : found.error.message.replace(/^library /, 'Library '),
      installed: found.error.installed.map(formatPackageId),
      ...(found.error.suggestion ? { suggestion: found.error.suggestion } : {}),
    };
  }
  const served = await servedPackages(context);
  const labels = served.map(formatPackageId);
  const scope = (context.libraries ?? []).join(', ');
  if (found.ok && served.some((p) => p.file === found.value.file)) return { ok: true, pkg: found.value, ...note };
  const { name, version: asked } = parsePackageSpec(library.trim());
  const wantedVersion = version ?? asked;
  const sameLibrary = served.filter((p) => sameName(p.name, name));
  if (sameLibrary[0] && (wantedVersion === undefined || wantedVersion === '' || wantedVersion === 'latest')) {
    return { ok: true, pkg: sameLibrary[0] };
  }
  const listing = labels.length > 0 ? labels.join(', ') : `none of them is installed (${ADD_DOCS_HINT})`;
  if (sameLibrary.length > 0) {
    return {
      ok: false,
      status: 'unknown-version',
      message: `${sameLibrary[0]?.name} has no version "${wantedVersion}" on this server. Versions served: ${sameLibrary.map((p) => p.version).join(', ')}.`,
      installed: labels,
      suggestion: formatPackageId(sameLibrary[0] as InstalledPackage),
    };
  }
  const suggestion = found.ok ? undefined : found.error.suggestion;
  const close = suggestion && served.some((p) => sameName(p.name, suggestion)) ? suggestion : undefined;
  return {
    ok: false,
    status: labels.length === 0 ? 'no-packages' : 'unknown-library',
    message:
      `Library "${name}" is not served by this server (scoped to ${scope}).` +
      (close ? ` Did you mean "${close}"?` : '') +
      ` Served: ${listing}.`,
    installed: labels,
    ...(close ? { suggestion: close } : {}),
  };
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
