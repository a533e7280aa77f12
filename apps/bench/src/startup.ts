import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly n: number;
}

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cli/dist/bin.cjs');

/**
 * `docs search` as a whole process, and a bare `node -e 0` run in turn with it (one of each per question), so both
 * see the same machine: the ratio of the two p50s is what start-up costs beyond Node's own, whatever the load.
 */
export async function benchStartup(
  questions: readonly { readonly query: string }[],
  runs: number,
  runNode: (args: readonly string[]) => Promise<number>,
  latency: (samples: readonly number[]) => Latency,
): Promise<{ search: Latency; bareNode: Latency; rows: Array<[string, string]> }> {
  const searchSamples: number[] = [];
  const nodeSamples: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const q of questions.slice(0, 10)) {
      nodeSamples.push(await runNode(['-e', '0']));
      searchSamples.push(await runNode([bin, 'search', q.query]));
    }
  }
  const search = latency(searchSamples);
  const bareNode = latency(nodeSamples);
  return {
    search,
    bareNode,
    rows: [
      ['docs search, whole process', `p50 ${search.p50.toFixed(0)} ms, p95 ${search.p95.toFixed(0)} ms`],
      [
        '  node -e 0, side by side',
        `p50 ${bareNode.p50.toFixed(0)} ms, p95 ${bareNode.p95.toFixed(0)} ms (docs search ${(search.p50 / bareNode.p50).toFixed(2)}×)`,
      ],
    ],
  };
}
