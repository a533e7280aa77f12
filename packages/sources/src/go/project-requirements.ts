import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { goLibraryName, storedGoVersion } from '@docs/store';
import { parseGoMod } from './go-mod.js';

/**
 * The versions a Go project requires, by library name (`cobra` → `1.8.1`, as docs sync stores them): the nearest
 * go.work at or above `projectDir` (its `use` modules' go.mod files) or else the nearest go.mod, read by
 * {@link parseGoMod} (no process per question), indirect requirements too. Empty where there is neither, or where
 * the file cannot be read or parsed (go itself would refuse the project then, and a bare name answers the highest).
 *
 * @example
 * goRequirements('.').get('cobra'); // → '1.8.1'
 */
export function goRequirements(projectDir: string): Map<string, string> {
  const versions = new Map<string, string>();
  const work = nearest(path.resolve(projectDir), 'go.work');
  const modFiles = work
    ? readParsed(work).use.map((use) => path.join(path.resolve(path.dirname(work), use), 'go.mod'))
    : [nearest(path.resolve(projectDir), 'go.mod')].flatMap((file) => (file ? [file] : []));
  for (const file of modFiles) {
    for (const requirement of readParsed(file).require) {
      const name = goLibraryName(requirement.path);
      if (!versions.has(name)) versions.set(name, storedGoVersion(requirement.version));
    }
  }
  return versions;
}

function nearest(from: string, file: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, file);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readParsed(file: string): ReturnType<typeof parseGoMod> {
  try {
    return parseGoMod(readFileSync(file, 'utf8'), file);
  } catch {
    return { require: [], replace: [], use: [] };
  }
}
