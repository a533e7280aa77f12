import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { installedDistributions, recordedFiles } from '../environment.js';
import { normaliseName } from '../requirements.js';
import type { PythonModule } from './parse-modules.js';

// How many distributions of the environment are followed through their requirements (a bound, not a limit met).
const MAX_REQUIRED = 200;

/**
 * The top-level import names a distribution's installation brings with it: those of the distributions its
 * `Requires-Dist` names without an extra, and theirs in turn, as installed in `site` (each one's RECORD says what it
 * installed: `markdown-it-py` installs `markdown_it`); a requirement not installed counts by its own name
 * (`typing-extensions` → `typing_extensions`). A requirement of an extra is optional: the modules needing it are not
 * what installing the package gives a user.
 */
export async function requiredImports(site: string, distInfo: string): Promise<Set<string>> {
  const { distributions } = await installedDistributions(site);
  const names = new Set<string>();
  const seen = new Set<string>();
  let queue = await requirementsOf(distInfo);
  while (queue.length > 0 && seen.size < MAX_REQUIRED) {
    const next: string[] = [];
    for (const requirement of queue) {
      if (seen.has(requirement)) continue;
      seen.add(requirement);
      const installed = distributions.get(requirement);
      if (!installed) {
        names.add(requirement.replace(/-/g, '_'));
        continue;
      }
      for (const top of topLevelNames(await recordedFiles(installed.dir))) names.add(top);
      next.push(...(await requirementsOf(installed.dir)));
    }
    queue = next;
  }
  return names;
}

/** The normalised names of the `Requires-Dist` headers of a `.dist-info`'s METADATA that no extra's marker guards. */
async function requirementsOf(distInfo: string): Promise<string[]> {
  const metadata = await readFile(path.join(distInfo, 'METADATA'), 'utf8').catch(() => '');
  const head = metadata.replace(/\r\n?/g, '\n').split('\n\n')[0] ?? '';
  const names: string[] = [];
  for (const line of head.split('\n')) {
    const header = /^Requires-Dist:\s*(.*)$/i.exec(line);
    if (!header?.[1]) continue;
    const [requirement = '', marker = ''] = header[1].split(';', 2);
    if (/\bextra\s*==/.test(marker)) continue;
    // PEP 508: the name opens the requirement.
    const name = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(requirement)?.[1];
    if (name) names.push(normaliseName(name));
  }
  return names;
}

/** The importable top-level names among files a RECORD lists: `yaml/__init__.py` → yaml, `six.py` → six. */
function topLevelNames(files: readonly string[]): Set<string> {
  const tops = new Set<string>();
  for (const file of files) {
    const [first = '', ...rest] = file.split('/');
    if (first.endsWith('.dist-info') || first.endsWith('.data') || first === '__pycache__') continue;
    const name = rest.length > 0 ? first : /^([A-Za-z_]\w*)(?:\..*)?\.(?:py|pyi|so|pyd)$/.exec(first)?.[1];
    if (name && /^[A-Za-z_]\w*$/.test(name)) tops.add(name.endsWith('-stubs') ? name.slice(0, -6) : name);
  }
  return tops;
}

/**
 * The modules of a distribution that serve another tool: each needs, to be imported at all, a package that neither
 * the standard library, the distribution itself nor what installing it brings (`requiredImports`) provides.
 * `pydantic.mypy` imports `mypy`, `sqlalchemy.testing.plugin.pytestplugin` imports `pytest`: plugins for a type
 * checker or a test runner, which the package's users do not import. An import under an `if` or a `try` (an optional
 * dependency, `TYPE_CHECKING`) does not count, nor a stub's. A top-level module is never one: it is the package.
 *
 * @example
 * toolModules(modules, new Set(['pydantic', 'pydantic_core', 'typing_extensions'])); // → Set { 'pydantic.mypy' }
 */
export function toolModules(modules: ReadonlyMap<string, PythonModule>, provided: ReadonlySet<string>): Set<string> {
  const own = new Set([...modules.keys()].map((name) => name.split('.')[0] as string));
  const tools = new Set<string>();
  for (const [name, module] of modules) {
    // A stub's imports are read by type checkers only (`_typeshed`): what loading the module needs is in its source.
    if (!name.includes('.') || module.path.endsWith('.pyi')) continue;
    const needs = (module.imports ?? []).some((entry) => {
      const top = entry.module.split('.')[0] ?? '';
      return entry.conditional === false && entry.stdlib === false && top !== '' && !own.has(top) && !provided.has(top);
    });
    if (needs) tools.add(name);
  }
  return tools;
}
