import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { InstalledDependency, SkippedDependency } from '../dependencies.js';
import { SourceError } from '../errors.js';
import { findSitePackages, type InstalledDistribution, installedDistributions } from './environment.js';
import { readPythonManifests } from './manifests.js';
import { uvWorkspaceMembers } from './uv-workspace.js';

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
 * requirement not installed is skipped with the reason. At a uv workspace root (`[tool.uv.workspace]`), each member's
 * pyproject.toml is read too, and each dependency lists the members that declare it (`usedBy`), as npm workspaces do.
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

  // A uv workspace: each member's pyproject.toml too, one virtualenv at the root; members are not releases.
  const rootManifest = await readFile(path.join(project, 'pyproject.toml'), 'utf8')
    .then((text) => parseToml(text) as Record<string, unknown>)
    .catch(() => undefined);
  const members = rootManifest ? await uvWorkspaceMembers(project, rootManifest) : [];
  const memberNames = new Set(members.flatMap((member) => (member.name ? [member.name] : [])));
  const requirements = [
    ...manifests.requirements.map((requirement) => ({ requirement, usedBy: '.' })),
    ...members.flatMap((member) => member.requirements.map((requirement) => ({ requirement, usedBy: member.path }))),
  ];
  const usedBy = new Map<string, string[]>();
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
    for (const { requirement, usedBy: user } of requirements) {
      if (requirement.dev && !options.dev) continue;
      if (memberNames.has(requirement.name)) {
        if (!skipped.some((s) => s.name === requirement.name)) {
          skipped.push({ name: requirement.name, reason: 'linked from the workspace, not an installed release' });
        }
        continue;
      }
      wanted.set(requirement.name, (wanted.get(requirement.name) ?? true) && requirement.dev);
      const users = usedBy.get(requirement.name) ?? [];
      if (!users.includes(user)) users.push(user);
      usedBy.set(requirement.name, users);
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
      ...(members.length > 0 && usedBy.has(name) ? { usedBy: usedBy.get(name) as string[] } : {}),
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
