#!/usr/bin/env node
// One measurement of the benchmark in a process of its own, so its memory is
// only what serving takes: searchAll over every library of a store.
//   node many.js <store dir> <questions.jsonl> <runs>
// Prints one JSON object: { p50, p95, n, peakRssMb, anonRssMb, fileRssMb } (the last two at the end, Linux only).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { searchAll } from '@docs/search';
import { PackageStore } from '@docs/store';
import { quantile } from './quantile.js';

/**
 * Resident memory now, split (Linux only) into the process's own pages and
 * pages of mapped files: SQLite maps package files, and those pages are the
 * kernel's file cache, dropped under pressure, though RSS counts them.
 */
function residentSplit(): { anonRssMb?: number; fileRssMb?: number } {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return {};
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { anonRssMb: (kb('RssAnon') * 1024) / 1e6, fileRssMb: (kb('RssFile') * 1024) / 1e6 };
}

const [dir, questionsFile, runsArg] = process.argv.slice(2);
if (!dir || !questionsFile) throw new Error('usage: many.js <store dir> <questions.jsonl> [runs]');
const runs = Math.max(1, Number(runsArg ?? 3));
const questions = (await readFile(questionsFile, 'utf8'))
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { query: string; library: string | null });
// The cross-library questions, and a few single-library ones asked of everything.
const sample = questions
  .filter((q) => q.library === null)
  .concat(questions.filter((q) => q.library !== null).slice(0, 5));
const store = new PackageStore(dir);
for (const q of sample) await searchAll(store, q.query);
const samples: number[] = [];
for (let run = 0; run < runs; run++) {
  for (const q of sample) {
    const started = process.hrtime.bigint();
    await searchAll(store, q.query);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}
// The kernel's high-water mark: a timer sampling RSS would not run while searches hold the thread.
const peakRssMb = (process.resourceUsage().maxRSS * 1024) / 1e6;
const resident = residentSplit();
await store.close();
samples.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({ p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), n: samples.length, peakRssMb, ...resident })}\n`,
);
