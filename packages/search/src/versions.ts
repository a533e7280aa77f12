import { formatPackageId, type InstalledPackage, type PackageStore } from '@docs/store';
import type { SearchResponse } from './results.js';

/** Other installed versions looked at when the one answered from is empty or thin; the highest first. */
const MAX_OTHER_VERSIONS = 3;
/** A version whose package file is this many times larger holds far more documentation (a README build vs full docs). */
const RICHER_FACTOR = 4;

/**
 * One package per library name from `installed` (which lists the highest
 * version of each name first): the version the project installs when it is
 * there, else the highest.
 */
export function oneVersionEach(
  installed: readonly InstalledPackage[],
  projectVersions: ReadonlyMap<string, string> | undefined,
): InstalledPackage[] {
  const chosen = new Map<string, InstalledPackage>();
  for (const pkg of installed) {
    const name = pkg.name.toLowerCase();
    const current = chosen.get(name);
    if (current === undefined) chosen.set(name, pkg);
    else if (pkg.version === projectVersions?.get(name) && current.version !== pkg.version) chosen.set(name, pkg);
  }
  return [...chosen.values()];
}

/**
 * Adds to an answer what the caller should know about other versions:
 * - the project installs a version other than the one answered from (it is
 *   not in the store): `project`, and the message says how to add it, or, when
 *   `building`, that it is being built and when to ask again;
 * - the version answered from matched nothing, or far less than another
 *   installed version whose documentation is much larger (a README-only build
 *   beside full docs): `otherVersions`, and the message names them.
 * Other versions are searched only in those two cases, so a normal answer
 * costs nothing more.
 */
export async function withVersionHints(
  store: PackageStore,
  chosen: InstalledPackage,
  response: SearchResponse,
  projectVersion: string | undefined,
  searchOther: (pkg: InstalledPackage) => Promise<SearchResponse>,
  building?: { readonly retryAfterSeconds: number },
): Promise<SearchResponse> {
  let result = response;
  if (projectVersion && projectVersion !== chosen.version) {
    const wanted = `${chosen.name}@${projectVersion}`;
    const answered = formatPackageId(chosen);
    result = {
      ...result,
      project: { library: wanted, installed: false },
      message: building
        ? `${sentence(result.message)} The project uses ${wanted}, which is being built now (answered from ${answered} meanwhile): ask again in about ${building.retryAfterSeconds} seconds for its own docs.`
        : `${sentence(result.message)} The project uses ${wanted}, which is not installed (answered from ${answered}): add it with docs sync, or docs add.`,
    };
  }
  if (response.status !== 'ok' && response.status !== 'no-match') return result;
  const others = (await store.list())
    .filter((p) => p.name === chosen.name && p.file !== chosen.file)
    .filter((p) => response.total === 0 || p.bytes >= RICHER_FACTOR * chosen.bytes)
    .slice(0, MAX_OTHER_VERSIONS);
  const better: { library: string; total: number }[] = [];
  for (const other of others) {
    const answer = await searchOther(other);
    if (answer.total > 0 && (response.total === 0 || answer.total >= 2 * response.total)) {
      better.push({ library: formatPackageId(other), total: answer.total });
    }
  }
  if (better.length === 0) return result;
  const named = better.map((b) => `${b.library} (${b.total} matching ${b.total === 1 ? 'section' : 'sections'})`);
  const lead = response.total === 0 ? 'Another installed version matches' : 'Another installed version has fuller docs';
  return {
    ...result,
    otherVersions: better,
    message: `${sentence(result.message)} ${lead}: ${named.join(', ')}; ask for it by version.`,
  };
}

function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}
