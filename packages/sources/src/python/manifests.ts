import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import {
  type DeclaredRequirement,
  isDevFile,
  normaliseName,
  readRequirementsFile,
  requirementName,
} from './requirements.js';

/** What a Python project declares: its requirements, the manifests read, and what could not be read. */
export interface PythonManifests {
  readonly requirements: readonly DeclaredRequirement[];
  /** The manifests found (`pyproject.toml`, `requirements.txt`, `Pipfile`), relative to the project. */
  readonly files: readonly string[];
  readonly problems: readonly string[];
}

/**
 * A Python project's declared dependencies, from every manifest it has: `pyproject.toml` (`[project] dependencies`
 * and `optional-dependencies`; PEP 735 `[dependency-groups]`, uv's `dev-dependencies` and Poetry's dev groups as
 * development ones; Poetry's `[tool.poetry.dependencies]`), `requirements*.txt` in the project folder (with the
 * files they include) and `Pipfile` (`[packages]`, `[dev-packages]`). Each is parsed (TOML by a TOML parser), never
 * run; a manifest that does not parse is a problem, and the others are still read.
 *
 * @example
 * const { requirements } = await readPythonManifests('.');
 * // → [{ name: 'pydantic', dev: false, file: 'pyproject.toml' }, …]
 */
export async function readPythonManifests(project: string): Promise<PythonManifests> {
  const requirements: DeclaredRequirement[] = [];
  const files: string[] = [];
  const problems: string[] = [];
  const entries = await readdir(project).catch(() => [] as string[]);
  const toml = async (file: string): Promise<Record<string, unknown> | undefined> => {
    try {
      return parseToml(await readFile(path.join(project, file), 'utf8')) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    }
  };
  if (entries.includes('pyproject.toml')) {
    files.push('pyproject.toml');
    const manifest = await toml('pyproject.toml');
    if (manifest) requirements.push(...pyprojectRequirements(manifest));
  }
  for (const file of entries.filter((e) => /^requirements.*\.(?:txt|in)$/i.test(e)).sort()) {
    // A `.in` beside its compiled `.txt` (pip-tools) declares the same; the `.txt` is read.
    if (file.endsWith('.in') && entries.includes(file.replace(/\.in$/, '.txt'))) continue;
    files.push(file);
    const read = await readRequirementsFile(path.join(project, file), project, isDevFile(file));
    requirements.push(...read.requirements);
    problems.push(...read.problems);
  }
  if (entries.includes('Pipfile')) {
    files.push('Pipfile');
    const manifest = await toml('Pipfile');
    if (manifest) {
      for (const [table, dev] of [
        ['packages', false],
        ['dev-packages', true],
      ] as const) {
        for (const name of Object.keys(record(manifest[table]))) {
          const normalised = requirementName(name);
          if (normalised) requirements.push({ name: normalised, dev, file: 'Pipfile' });
        }
      }
    }
  }
  return { requirements, files, problems };
}

/** The requirements of a parsed pyproject.toml. */
export function pyprojectRequirements(manifest: Record<string, unknown>): DeclaredRequirement[] {
  const found: DeclaredRequirement[] = [];
  const add = (requirement: unknown, dev: boolean) => {
    const name = typeof requirement === 'string' ? requirementName(requirement) : undefined;
    if (name) found.push({ name, dev, file: 'pyproject.toml' });
  };
  const project = record(manifest.project);
  for (const requirement of list(project.dependencies)) add(requirement, false);
  for (const extra of Object.values(record(project['optional-dependencies'])))
    for (const requirement of list(extra)) add(requirement, false);
  // PEP 735 groups: what developing the project needs, not what it runs. `{include-group}` entries name another
  // group, whose requirements are read there.
  for (const group of Object.values(record(manifest['dependency-groups'])))
    for (const requirement of list(group)) add(requirement, true);
  const tool = record(manifest.tool);
  for (const requirement of list(record(tool.uv)['dev-dependencies'])) add(requirement, true);
  const poetry = record(tool.poetry);
  const poetryTable = (table: unknown, dev: boolean) => {
    for (const name of Object.keys(record(table))) {
      // `python` is the interpreter's version, not a distribution.
      if (normaliseName(name) === 'python') continue;
      const normalised = requirementName(name);
      if (normalised) found.push({ name: normalised, dev, file: 'pyproject.toml' });
    }
  };
  poetryTable(poetry.dependencies, false);
  poetryTable(poetry['dev-dependencies'], true);
  for (const group of Object.values(record(poetry.group))) poetryTable(record(group).dependencies, true);
  return found;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
