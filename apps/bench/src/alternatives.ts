import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { getDocs, searchAll } from '@docs/search';
import type { PackageStore } from '@docs/store';

interface Asked {
  readonly id?: string;
  readonly query: string;
  readonly library: string | null;
}

type Timer = (fn: () => Promise<unknown>) => Promise<number>;
type Summary = (samples: readonly number[]) => { p50: number; p95: number; n: number };

/**
 * getDocs and searchAll over every library, each question asked alone and
 * with its alternative phrasings (`{"id", "alternatives"}` lines), on the same
 * warm store: what alternatives cost, as a ratio to one phrasing.
 */
export async function benchAlternatives(
  store: PackageStore,
  questions: readonly Asked[],
  file: string,
  runs: number,
  timed: Timer,
  latency: Summary,
): Promise<{ results: Record<string, unknown>; rows: Array<[string, string]> } | undefined> {
  if (!existsSync(file)) return undefined;
  const byId = new Map<string, readonly string[]>();
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { id: string; alternatives: string[] };
    byId.set(entry.id, entry.alternatives);
  }
  const asked = questions.filter((q) => q.id !== undefined && (byId.get(q.id)?.length ?? 0) > 0);
  if (asked.length === 0) return undefined;
  const measure = async (
    list: readonly Asked[],
    ask: (q: Asked, alternatives: readonly string[] | undefined) => Promise<unknown>,
  ) => {
    const alone: number[] = [];
    const together: number[] = [];
    for (const q of list) await ask(q, byId.get(q.id as string)); // warm-up
    for (let run = 0; run < runs; run++) {
      for (const q of list) {
        alone.push(await timed(() => ask(q, undefined)));
        together.push(await timed(() => ask(q, byId.get(q.id as string))));
      }
    }
    return { alone: latency(alone), together: latency(together) };
  };
  const single = asked.filter((q) => q.library !== null);
  const get = await measure(single, (q, alternatives) =>
    getDocs(store, q.library as string, q.query, alternatives ? { alternatives } : {}),
  );
  const all = await measure(asked, (q, alternatives) =>
    searchAll(store, q.query, alternatives ? { alternatives } : {}),
  );
  const phrasings = Math.max(...asked.map((q) => byId.get(q.id as string)?.length ?? 0));
  const row = (name: string, m: typeof get): [string, string] => [
    name,
    `p50 ${m.alone.p50.toFixed(2)} → ${m.together.p50.toFixed(2)} ms (× ${(m.together.p50 / m.alone.p50).toFixed(2)}), p95 ${m.alone.p95.toFixed(2)} → ${m.together.p95.toFixed(2)} ms`,
  ];
  return {
    results: {
      alternatives: phrasings,
      questions: { getDocs: single.length, searchAll: asked.length },
      getDocs: get,
      searchAll: all,
    },
    rows: [row(`getDocs, + ${phrasings} alternatives`, get), row(`searchAll, + ${phrasings} alternatives`, all)],
  };
}
