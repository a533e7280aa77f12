import { getDocs, type SearchOptions, type SearchResponse, searchAll } from '@docs/search';
import type { PackageStore } from '@docs/store';
import { libraryName } from './headings.js';

interface Asked {
  readonly id: string;
  readonly query: string;
  /** The library the question is asked of, or null for a cross-library question. */
  readonly library: string | null;
  /** The libraries holding its answers. */
  readonly libraries: readonly string[];
}

/**
 * Does the weak-match flag fire when the answer is not installed? Each
 * question is asked twice: as usual (the flag should stay quiet), and across
 * every installed library except those holding its answers (the flag should
 * fire). Prints the flag's precision and recall at the default threshold and
 * at others, from each answer's strength, so the threshold's choice shows.
 */
export async function weakMatchCheck(
  name: string,
  store: PackageStore,
  questions: readonly Asked[],
  optionsOf: (id: string) => SearchOptions,
): Promise<void> {
  const installed = [...new Set((await store.list()).map((p) => p.name))];
  const answered: SearchResponse[] = [];
  const removed: SearchResponse[] = [];
  for (const q of questions) {
    const options = optionsOf(q.id);
    answered.push(
      q.library === null ? await searchAll(store, q.query, options) : await getDocs(store, q.library, q.query, options),
    );
    const gold = new Set(q.libraries.map(libraryName));
    const others = installed.filter((n) => !gold.has(libraryName(n)));
    removed.push(await searchAll(store, q.query, { ...options, libraries: others }));
  }
  const strength = (r: SearchResponse) => r.confidence?.strength ?? 0;
  const rows = [
    `weak-match flag (${name}): ${questions.length} questions answered, the same with their libraries removed`,
  ];
  const at = (flagged: (r: SearchResponse) => boolean, label: string) => {
    const tp = removed.filter(flagged).length;
    const fp = answered.filter(flagged).length;
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp / removed.length;
    rows.push(
      `  ${label.padEnd(22)} flagged ${String(tp).padStart(3)}/${removed.length} removed, ${String(fp).padStart(3)}/${answered.length} answered   precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}`,
    );
  };
  at((r) => r.confidence?.weak ?? true, 'default threshold');
  for (const threshold of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) at((r) => strength(r) < threshold, `strength < ${threshold}`);
  const mean = (list: readonly SearchResponse[]) => list.reduce((sum, r) => sum + strength(r), 0) / list.length;
  rows.push(`  mean strength: answered ${mean(answered).toFixed(3)}, removed ${mean(removed).toFixed(3)}`);
  process.stdout.write(`${rows.join('\n')}\n\n`);
}
