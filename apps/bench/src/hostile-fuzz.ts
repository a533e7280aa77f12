import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { classify } from '@docs/errors';
import { PackageStore, writePackage } from '@docs/store';
import fc from 'fast-check';
import { healthyDocuments, hostilePackage, type Mutation, mutations, tryHostile } from './hostile-packages.js';

/** What a hostile-package run found. */
export interface HostileFigures {
  readonly packages: number;
  readonly refused: number;
  readonly accepted: number;
  /** Installs that failed as a bug, answers over budget or that failed, healthy libraries that stopped answering. */
  readonly failed: number;
  readonly seconds: number;
}

/** The healthy libraries every hostile package is installed beside. */
const HEALTHY = ['lib-a', 'lib-b', 'lib-c'];

/**
 * Installs `count` hostile packages (drawn from `seed`), one at a time, into a store of healthy libraries under
 * `work`, checks each (tryHostile), and removes it again. Failures are written to stderr with their mutations.
 */
export async function fuzzHostile(
  work: string,
  count: number,
  seed: number,
  budgets: readonly number[] = [500, 2000],
): Promise<HostileFigures> {
  const started = performance.now();
  await mkdir(work, { recursive: true });
  const store = new PackageStore(path.join(work, 'store'));
  let refused = 0;
  let accepted = 0;
  let failed = 0;
  try {
    for (const [i, name] of HEALTHY.entries()) {
      const file = path.join(work, `${name}.db`);
      await writePackage(file, { name, version: '1.0.0' }, healthyDocuments(20, i));
      await store.install(file, { move: true });
    }
    const drawn: Mutation[][] = fc.sample(mutations, { numRuns: count, seed });
    for (const [i, changes] of drawn.entries()) {
      const file = path.join(work, `hostile-${i}.db`);
      await hostilePackage(file, `hostile-${i}`, changes);
      const result = await tryHostile(store, file, HEALTHY, budgets);
      const problem = result.outcome === 'failed' ? result.problem : await removeHostile(store);
      if (problem !== undefined) {
        failed += 1;
        process.stderr.write(`hostile ${i} (seed ${seed}): ${problem}\n  ${described(changes)}\n`);
        // A store a failure left in a bad way would fail every later case: start over with the healthy libraries.
        await removeHostile(store);
      } else if (result.outcome === 'refused') refused += 1;
      else accepted += 1;
      if ((i + 1) % 100 === 0) process.stderr.write(`${i + 1} hostile packages, ${failed} failed\n`);
    }
  } finally {
    await store.close();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  return { packages: count, refused, accepted, failed, seconds };
}

/** Removes every library but the healthy ones; what went wrong, if anything. */
async function removeHostile(store: PackageStore): Promise<string | undefined> {
  try {
    for (const pkg of await store.list())
      if (!HEALTHY.includes(pkg.name)) await store.remove(`${pkg.name}@${pkg.version}`);
    return undefined;
  } catch (error) {
    return `remove: ${classify(error).message}`;
  }
}

/** Mutations as one line of JSON (bigints as text, long strings cut), to replay or read a failure. */
function described(changes: readonly Mutation[]): string {
  return JSON.stringify(changes, (_, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'string' && value.length > 80) return `${value.slice(0, 80)}… (${value.length} characters)`;
    return value;
  });
}
