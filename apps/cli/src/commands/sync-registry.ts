import type { InstalledDependency } from '@docs/sources';
import { docPackageName, installDocPackage, RegistryError, resolveDocPackage } from '@docs/sources';
import { formatPackageId, type PackageStore } from '@docs/store';
import { projectNpmrcApproval } from '../config/npmrc-approval.js';

/** A dependency whose docs came from the registry rather than a build. */
export interface FromRegistry {
  readonly library: string;
  /** The npm package installed (or, in a dry run, that would be), `@acme/docs-react@19.2.0`. */
  readonly package: string;
  readonly registry: string;
}

interface Reporting {
  readonly installed: FromRegistry[];
  readonly failed: Array<{ library: string; reason: string }>;
  readonly say: (line: string) => void;
  readonly warn: (line: string) => void;
}

/**
 * `docs sync --scope`: installs, for each dependency, the doc package
 * published for exactly its installed version (only looks it up with
 * `dryRun`), and returns the dependencies that have none, to be built. A
 * published package that is refused (integrity, validation, credentials) is
 * reported as failed, not built quietly in its place; one of a package format
 * this docs cannot read is built, with a warning saying so.
 */
export async function installPublished(
  store: PackageStore,
  dependencies: readonly InstalledDependency[],
  options: { scope: string; registry?: string; project: string; dryRun: boolean; signal?: AbortSignal },
  report: Reporting,
): Promise<InstalledDependency[]> {
  const rest: InstalledDependency[] = [];
  const install = {
    scope: options.scope,
    cwd: options.project,
    ...(options.registry ? { registry: options.registry } : {}),
    approveProjectNpmrc: projectNpmrcApproval(),
  };
  for (const dependency of dependencies) {
    options.signal?.throwIfAborted();
    const library = formatPackageId(dependency);
    const spec = `${docPackageName(options.scope, dependency.name)}@${dependency.version}`;
    try {
      if (options.dryRun) {
        const { resolved } = await resolveDocPackage(spec, install);
        report.installed.push({ library, package: resolved.spec, registry: resolved.registry });
        report.say(`Would install ${library} from ${resolved.spec}`);
      } else {
        const done = await installDocPackage(store, spec, install);
        report.installed.push({
          library: formatPackageId(done.installed),
          package: done.spec,
          registry: done.registry,
        });
        report.say(`Installed ${library} from ${done.spec}`);
      }
    } catch (error) {
      if (error instanceof RegistryError && (error.code === 'not-found' || error.code === 'no-matching-version')) {
        rest.push(dependency);
        continue;
      }
      // Published by an older (or newer) docs: nothing is wrong with it, this docs just cannot read it, so the
      // dependency is built here as if none were published, and the summary says why.
      if (error instanceof RegistryError && error.code === 'other-format') {
        rest.push(dependency);
        report.warn(`${library}: ${error.message.split(':')[0]}; building it here instead`);
        continue;
      }
      if (options.signal?.aborted) throw error;
      const reason = (error as Error).message;
      report.failed.push({ library, reason });
      report.warn(`${library} failed: ${reason}`);
    }
  }
  return rest;
}
