// Lays a Python virtualenv out on disk for the tests: a `pyvenv.cfg`, `lib/python3.X/site-packages`, and each
// distribution as pip installs it (its modules, a `.dist-info` with METADATA and a RECORD listing the files).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A distribution to install: its name and version as METADATA says them, and its files relative to site-packages. */
export interface TestDistribution {
  readonly name: string;
  readonly version: string;
  readonly summary?: string;
  readonly description?: string;
  /** Its `Requires-Dist` headers (`markdown-like>=1`, `mypy-like; extra == "mypy"`). */
  readonly requires?: readonly string[];
  readonly files?: Readonly<Record<string, string>>;
}

/** Writes `files` under `root` (folders made as needed). */
export async function writeFiles(root: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

/** A virtualenv at `<project>/<folder>` holding `distributions`; returns its site-packages folder. */
export async function layOutVenv(
  project: string,
  distributions: readonly TestDistribution[],
  folder = '.venv',
): Promise<string> {
  const venv = path.join(project, folder);
  await writeFiles(venv, { 'pyvenv.cfg': `home = /usr/bin\nversion = 3.11.7\n` });
  const site = path.join(venv, 'lib', 'python3.11', 'site-packages');
  await mkdir(site, { recursive: true });
  for (const distribution of distributions) {
    const distInfo = `${distribution.name.replace(/[-.]+/g, '_')}-${distribution.version}.dist-info`;
    const files = distribution.files ?? {};
    const metadata =
      `Metadata-Version: 2.1\nName: ${distribution.name}\nVersion: ${distribution.version}\n` +
      (distribution.summary ? `Summary: ${distribution.summary}\n` : '') +
      (distribution.requires ?? []).map((requirement) => `Requires-Dist: ${requirement}\n`).join('') +
      (distribution.description ? `Description-Content-Type: text/markdown\n\n${distribution.description}\n` : '');
    const record = [...Object.keys(files), `${distInfo}/METADATA`, `${distInfo}/RECORD`]
      .map((file) => `${file.includes(',') ? `"${file}"` : file},sha256=x,1`)
      .join('\n');
    await writeFiles(site, { ...files, [`${distInfo}/METADATA`]: metadata, [`${distInfo}/RECORD`]: `${record}\n` });
  }
  return site;
}
