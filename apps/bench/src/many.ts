#!/usr/bin/env node
// One measurement of the benchmark in a process of its own, so its memory is
// only what serving takes: searchAll over every library of a store.
//   node many.js <store dir> <questions.jsonl> <runs>
// Prints one JSON object: { p50, p95, n, peakRssMb, anonRssMb, fileRssMb, rankedQueryP50 } (anonRssMb and fileRssMb
// at the end, Linux only).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { analyzeQuery, searchAll } from '@docs/search';
import { matchExpression, PackageStore } from '@docs/store';
import Database from 'better-sqlite3';
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
const files = (await store.list()).map((p) => p.file);
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
const rankedQueryP50 = rankedQueryFloor();
process.stdout.write(
  `${JSON.stringify({ p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), n: samples.length, peakRssMb, ...resident, rankedQueryP50 })}\n`,
);

/**
 * What no searchAll that reads every library can go under: the ranked full-text query alone, once per library, for
 * each question (an OR of its words without the search's other phrases, so no more than it asks; the best 50 by
 * bm25, the statement the store runs when a phrase's lists are not kept), on connections opened beforehand. Over
 * copies of the same libraries every copy's best section ties with its original's, so no bound can leave one
 * unread (docs/benchmarks.md): this is the time a search over them cannot save. Measured after the peak above.
 */
function rankedQueryFloor(): number {
  const connections = files.map((file) => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('cache_size = 0');
    db.pragma('cache_size = -32');
    const ranked = db.prepare(
      'select rowid, -bm25(chunks_fts, 1, 1, 1, 1) as score from chunks_fts where chunks_fts match ? order by score desc limit 50',
    );
    return { db, ranked };
  });
  const times: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const q of sample) {
        const expression = matchExpression({ terms: analyzeQuery(q.query).terms, mode: 'any' });
        if (expression === undefined) continue;
        const started = process.hrtime.bigint();
        for (const { ranked } of connections) ranked.all(expression);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
  } finally {
    for (const { db } of connections) db.close();
  }
  times.sort((a, b) => a - b);
  return quantile(times, 0.5);
}
