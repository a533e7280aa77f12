import path from 'node:path';
import type { InstalledDependency, SkippedDependency } from '../dependencies.js';
import { SourceError } from '../errors.js';
import { findSitePackages, type InstalledDistribution, installedDistributions } from './environment.js';
import { readPythonManifests } from './manifests.js';

/** Options for {@link findPythonDependencies}. */
export interface PythonDependencyOptions {
  /** Include development requirements (dependency groups, dev requirement files, `[dev-packages]`). */
  readonly dev: boolean;
  /** Every distribution installed in the environment, not only those the project declares. */
  readonly all: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** The virtualenv to read (relative to the project), instead of looking for one. */
  readonly venv?: string;
}

/** What a Python project depends on, or undefined when the folder has neither a Python manifest nor a virtualenv. */
export interface PythonDependencies {
  readonly installed: InstalledDependency[];
  readonly skipped: SkippedDependency[];
}

// Tools a virtualenv always holds; not what the project runs.
const PYTHON_TOOLING = new Set(['pip', 'setuptools', 'wheel', 'distribute']);

/**
 * A Python project's own dependencies at the versions installed in its environment: the requirements its manifests
 * declare (see readPythonManifests), each looked up by its PEP 503 name among the distributions of the project's
 * virtualenv (see findSitePackages), with `all` every installed distribution instead. A stub distribution
 * (`types-PyYAML`, `yaml-stubs`) is joined to the library it types, as `@types/…` is to an npm package. A
 * requirement not installed is skipped with the reason.
 */
export async function findPythonDependencies(
  project: string,
  options: PythonDependencyOptions,
): Promise<PythonDependencies | undefined> {
  const manifests = await readPythonManifests(project);
  const sites = await findSitePackages(project, options.env, options.venv);
  if (options.venv !== undefined && sites.length === 0) {
    throw new SourceError('not-found', `no Python virtualenv (pyvenv.cfg and site-packages) in ${options.venv}`);
  }
  if (manifests.files.length === 0 && sites.length === 0) return undefined;
  const skipped: SkippedDependency[] = manifests.problems.map((problem) => ({ name: 'python', reason: problem }));
  const distributions = new Map<string, InstalledDistribution>();
  for (const site of sites) {
    const found = await installedDistributions(site);
    for (const [name, distribution] of found.distributions)
      if (!distributions.has(name)) distributions.set(name, distribution);
    skipped.push(...found.problems);
  }
  const venv = sites[0] ? path.relative(project, sites[0]).split(path.sep)[0] || sites[0] : undefined;

  // Which distributions, and whether each is only a development one.
  const wanted = new Map<string, boolean>();
  if (options.all) {
    for (const name of distributions.keys()) if (!PYTHON_TOOLING.has(name)) wanted.set(name, false);
  } else {
    if (manifests.files.length === 0) {
      skipped.push({
        name: venv ?? 'python',
        reason:
          'no pyproject.toml, requirements*.txt or Pipfile says which distributions the project uses (--all builds every installed one)',
      });
    }
    for (const requirement of manifests.requirements) {
      if (requirement.dev && !options.dev) continue;
      wanted.set(requirement.name, (wanted.get(requirement.name) ?? true) && requirement.dev);
    }
  }

  const installed: InstalledDependency[] = [];
  const joined = new Map<string, InstalledDistribution>();
  for (const [name, dev] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const distribution = distributions.get(name);
    if (distribution === undefined) {
      skipped.push({
        name,
        reason:
          venv === undefined
            ? 'not installed (no virtualenv: create .venv and install the requirements into it)'
            : `not installed in ${venv}`,
      });
      continue;
    }
    const stubs = stubDistribution(distributions, name);
    if (stubs) joined.set(stubs.name, distribution);
    installed.push({
      name,
      version: distribution.version,
      dir: distribution.dir,
      ecosystem: 'python',
      dev,
      ...(distribution.summary ? { description: distribution.summary } : {}),
      ...(stubs ? { types: { name: stubs.name, version: stubs.version, dir: stubs.dir } } : {}),
    });
  }
  // `types-PyYAML` documents PyYAML, at PyYAML's version: not a library of its own beside it.
  const kept = installed.filter((dependency) => {
    const runtime = joined.get(dependency.name);
    if (runtime === undefined) return true;
    skipped.push({
      name: dependency.name,
      version: dependency.version,
      reason: `its stubs document ${runtime.name}@${runtime.version}`,
    });
    return false;
  });
  return { installed: kept, skipped };
}

/** The stub distribution typing `name` (typeshed's `types-<name>`, or PEP 561's `<name>-stubs`), if installed. */
function stubDistribution(
  distributions: ReadonlyMap<string, InstalledDistribution>,
  name: string,
): InstalledDistribution | undefined {
  if (name.startsWith('types-') || name.endsWith('-stubs')) return undefined;
  return distributions.get(`types-${name}`) ?? distributions.get(`${name}-stubs`);
}
