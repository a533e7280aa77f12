import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { pyprojectRequirements } from './manifests.js';
import { type DeclaredRequirement, requirementName } from './requirements.js';

/** A member of a uv workspace: its path from the root, its project name, and what its pyproject.toml declares. */
export interface UvMember {
  readonly path: string;
  readonly name?: string;
  readonly requirements: readonly DeclaredRequirement[];
}

/**
 * The members of a uv workspace (`[tool.uv.workspace] members`, less `exclude`, globs relative to the root), each a
 * folder with a pyproject.toml, read as the root's is; empty when the root declares no workspace. One virtualenv at
 * the root serves them all, as uv lays it out.
 */
export async function uvWorkspaceMembers(root: string, rootManifest: Record<string, unknown>): Promise<UvMember[]> {
  const workspace = record(record(record(rootManifest.tool).uv).workspace);
  const include = strings(workspace.members);
  if (include.length === 0) return [];
  const { glob } = await import('tinyglobby');
  const folders = await glob(include.map(clean), {
    cwd: root,
    onlyDirectories: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: ['**/.venv/**', '**/node_modules/**', ...strings(workspace.exclude).map(clean)],
  });
  const members: UvMember[] = [];
  for (const folder of [...new Set(folders.map((f) => f.replace(/\/+$/, '')))].sort()) {
    if (folder === '' || folder === '.') continue;
    let manifest: Record<string, unknown>;
    try {
      manifest = parseToml(await readFile(path.join(root, ...folder.split('/'), 'pyproject.toml'), 'utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      continue;
    }
    const name = record(manifest.project).name;
    const normalised = typeof name === 'string' ? requirementName(name) : undefined;
    members.push({
      path: folder,
      ...(normalised ? { name: normalised } : {}),
      requirements: pyprojectRequirements(manifest).map((r) => ({ ...r, file: `${folder}/pyproject.toml` })),
    });
  }
  return members;
}

function clean(pattern: string): string {
  return pattern
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '');
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}
