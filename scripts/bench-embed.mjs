#!/usr/bin/env node
// Measures @docs/embed's local provider on this CPU: sections/s when embedding documents, ms per
// query embedding, and ms to re-rank 20 and 50 candidates. A measurement, not a test: figures
// depend on the machine and its load. Needs `pnpm build` and @huggingface/transformers installed.
//
//   node scripts/bench-embed.mjs --embedder <model dir> [--embedder <dir>…] [--reranker <dir>…]
//        [--text <folder of .md>…] [--sections 200] [--queries 50] [--runs 5] [--batch n] [--threads n]
//
// The sections are the Markdown files of --text (default: this repository's README and docs/)
// split at headings, as the package builder splits them, so their lengths are those of real
// documentation sections.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openEmbedder, openReranker } = await import(path.join(root, 'packages/embed/dist/index.js'));

const { values } = parseArgs({
  options: {
    embedder: { type: 'string', multiple: true, default: [] },
    reranker: { type: 'string', multiple: true, default: [] },
    text: { type: 'string', multiple: true, default: [] },
    sections: { type: 'string', default: '200' },
    queries: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    threads: { type: 'string' },
    batch: { type: 'string' },
  },
});
const config = {
  ...(values.threads ? { threads: Number(values.threads) } : {}),
  ...(values.batch ? { batchSize: Number(values.batch) } : {}),
};

function markdownFiles(p) {
  if (statSync(p).isFile()) return p.endsWith('.md') || p.endsWith('.mdx') ? [p] : [];
  return readdirSync(p, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
    .flatMap((e) => markdownFiles(path.join(p, e.name)));
}

const sources = values.text.length > 0 ? values.text : [path.join(root, 'README.md'), path.join(root, 'docs')];
const sections = sources
  .flatMap(markdownFiles)
  .sort()
  .flatMap((file) => readFileSync(file, 'utf8').split(/\n(?=#{1,6} )/))
  .map((s) => s.trim())
  .filter((s) => s.length > 40)
  .slice(0, Number(values.sections));
const questions = [
  'how do I enable CORS on the server',
  'what happens when the token budget is exceeded',
  'install the command line tool globally',
  'why does my search return nothing',
  'configure a custom models directory',
];
const chars = sections.reduce((sum, s) => sum + s.length, 0);
console.log(`${sections.length} sections, ${Math.round(chars / sections.length)} characters on average`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => `${Math.round(bytes / 1e6)} MB`;

for (const dir of values.embedder) {
  const started = performance.now();
  const embedder = await openEmbedder(dir, config);
  const loadMs = performance.now() - started;
  await embedder.embed(sections.slice(0, 4), 'document'); // warm-up
  const t0 = performance.now();
  await embedder.embed(sections, 'document');
  const seconds = (performance.now() - t0) / 1000;
  const perQuery = [];
  for (let i = 0; i < Number(values.queries); i++) {
    const q0 = performance.now();
    await embedder.embed([questions[i % questions.length]], 'query');
    perQuery.push(performance.now() - q0);
  }
  console.log(
    `${embedder.id} (${dir}): load ${Math.round(loadMs)} ms; ${(sections.length / seconds).toFixed(1)} sections/s; ` +
      `query p50 ${median(perQuery).toFixed(1)} ms; peak rss ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
  await embedder.close();
}

for (const dir of values.reranker) {
  const reranker = await openReranker(dir, config);
  await reranker.score(questions[0], sections.slice(0, 4));
  for (const n of [20, 50]) {
    const times = [];
    for (let i = 0; i < Number(values.runs); i++) {
      const candidates = sections.slice(
        (i * 13) % Math.max(1, sections.length - n),
        ((i * 13) % Math.max(1, sections.length - n)) + n,
      );
      const t0 = performance.now();
      await reranker.score(questions[i % questions.length], candidates);
      times.push(performance.now() - t0);
    }
    console.log(`${reranker.id} (${dir}): re-rank ${n} candidates p50 ${Math.round(median(times))} ms`);
  }
  console.log(`peak rss ${mb(process.resourceUsage().maxRSS * 1024)}`);
  await reranker.close();
}
