import { readdirSync } from 'node:fs';
import path from 'node:path';
import { normaliseName } from './requirements.js';

// Where a project keeps its virtualenv, as environment.ts looks for it.
const VIRTUALENV_FOLDERS = ['.venv', 'venv', 'env', '.env'];

/**
 * The versions of the Python distributions installed in a project's virtualenv, by PEP 503 name, read from the
 * `.dist-info` folders' names (`pydantic-2.10.6.dist-info`: a wheel escapes `-` out of both parts, so the last `-`
 * splits them). Synchronous and without reading any METADATA, as the npm lookup beside it: a bare library name in a
 * search is answered from it. Empty without a virtualenv.
 *
 * @example
 * pythonInstalledVersions('.'); // → Map { 'pydantic' => '2.10.6', 'sqlalchemy' => '2.0.36', … }
 */
export function pythonInstalledVersions(projectDir: string): Map<string, string> {
  const versions = new Map<string, string>();
  for (const folder of VIRTUALENV_FOLDERS) {
    const venv = path.join(projectDir, folder);
    for (const lib of ['lib', 'lib64']) {
      for (const python of list(path.join(venv, lib)).filter((entry) => /^python\d/.test(entry))) {
        addFrom(path.join(venv, lib, python, 'site-packages'), versions);
      }
    }
    addFrom(path.join(venv, 'Lib', 'site-packages'), versions);
  }
  return versions;
}

function addFrom(site: string, versions: Map<string, string>): void {
  for (const entry of list(site)) {
    const match = /^(.+)-([^-]+)\.dist-info$/.exec(entry);
    if (!match?.[1] || !match[2]) continue;
    const name = normaliseName(match[1]);
    if (!versions.has(name)) versions.set(name, match[2]);
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
