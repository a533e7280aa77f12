import { getDocs, searchAll } from '@docs/search';
import type { PackageStore } from '@docs/store';

// A pasted page as the question: searchAll and getDocs with 10 KB and 100 KB topics. The caps (1,000 characters,
// 32 words) keep the cost near a short question's; before them 100 KB took 18.8 s (issue 18).

/** Rows of the benchmark table for topics of each size in `sizes` (bytes), over the questions' own words. */
export async function benchLongQueries(
  store: PackageStore,
  questions: readonly { query: string; library: string | null }[],
  runs: number,
  sizes: readonly number[] = [10_000, 100_000],
): Promise<{ results: Record<string, unknown>; rows: [string, string][] }> {
  const words = questions.map((q) => q.query).join(' ');
  const library = questions.find((q) => q.library)?.library ?? (await store.list())[0]?.name;
  const results: Record<string, unknown> = {};
  const rows: [string, string][] = [];
  for (const size of sizes) {
    const topic = words.repeat(Math.ceil(size / words.length)).slice(0, size);
    const time = async (search: () => Promise<unknown>) => {
      // One run first, not counted: it opens the packages, which a short question's figures do not count either.
      await search();
      const samples: number[] = [];
      for (let run = 0; run < runs; run++) {
        const started = performance.now();
        await search();
        samples.push(performance.now() - started);
      }
      return Math.max(...samples);
    };
    const all = await time(() => searchAll(store, topic));
    const one = library === undefined ? Number.NaN : await time(() => getDocs(store, library, topic));
    results[size] = { searchAllMaxMs: all, getDocsMaxMs: one };
    const kb = `${Math.round(size / 1000)} KB`;
    rows.push([`searchAll, a ${kb} topic (worst of ${runs}, packages open)`, `${all.toFixed(1)} ms`]);
    rows.push([`getDocs ${library}, a ${kb} topic (worst of ${runs}, packages open)`, `${one.toFixed(1)} ms`]);
  }
  return { results, rows };
}
