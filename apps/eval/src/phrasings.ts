import { readFile } from 'node:fs/promises';
import type { SearchOptions } from '@docs/search';

/**
 * Reads `{"id", "alternatives": [...]}` lines (several files merge; the dev
 * and external sets' ids differ) into id → phrasings. A malformed line is
 * refused by file and line number rather than skipped.
 */
export async function readAlternatives(files: readonly string[]): Promise<Map<string, readonly string[]>> {
  const byId = new Map<string, readonly string[]>();
  for (const file of files) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line) as { id?: unknown; alternatives?: unknown };
      if (
        typeof entry.id !== 'string' ||
        !Array.isArray(entry.alternatives) ||
        !entry.alternatives.every((a) => typeof a === 'string')
      ) {
        throw new Error(`${file}:${i + 1}: expected {"id": string, "alternatives": string[]}`);
      }
      byId.set(entry.id, entry.alternatives as string[]);
    }
  }
  return byId;
}

/** The options with the question's alternative phrasings, when it has any. */
export function withAlternatives<T extends SearchOptions>(
  options: T,
  phrasings: ReadonlyMap<string, readonly string[]>,
  id: string,
): T {
  const alternatives = phrasings.get(id);
  return alternatives && alternatives.length > 0 ? { ...options, alternatives } : options;
}
