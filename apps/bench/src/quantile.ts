/**
 * The value at quantile `q` (0…1) of `sorted` (ascending), by nearest rank: the one every figure of the benchmark
 * reports (p50, p95, p99). NaN for no values.
 */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] ?? Number.NaN;
}
