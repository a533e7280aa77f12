#!/usr/bin/env node
// Evaluation only: the table of docs/ranking.md's "Measured with real models", reproduced. For each model that
// scripts/eval-models.mjs fetched, the dev and external sets are asked lexically and hybrid, each with and without
// the agents' phrasings, on one kept store per model (the corpus is embedded once; a store that has the model's
// vectors is reused). Nothing here is a dependency of the product, its install, its tests or CI.
//
//   node scripts/real-model-figures.mjs --shared ../shared [--models all-minilm-l6-v2,bge-small-en-v1.5]
//     [--cache ~/.cache/docs/eval-models] [--stores /tmp/docs-real-models] [--sets dev,external] [--vector-weight W]
//
// Prints one markdown table per set: MRR@10 per style and scope on dev (with recall@5 and the share of questions
// whose correct section is inside the answer at the default budget), MRR@5 and Recall@5 per intent on external.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const evalMain = path.join(root, 'apps/eval/dist/main.js');

const { values } = parseArgs({
  options: {
    shared: { type: 'string' },
    models: { type: 'string', default: 'all-minilm-l6-v2,bge-small-en-v1.5' },
    cache: { type: 'string', default: path.join(homedir(), '.cache/docs/eval-models') },
    stores: { type: 'string', default: path.join(tmpdir(), 'docs-real-models') },
    sets: { type: 'string', default: 'dev,external' },
    'vector-weight': { type: 'string' },
  },
});
if (!values.shared) {
  process.stderr.write(
    'usage: node scripts/real-model-figures.mjs --shared <dir holding corpus/, eval/, external/> [...]\n',
  );
  process.exit(2);
}
if (!existsSync(evalMain)) {
  process.stderr.write(`${evalMain} is missing: build the repository first (npx -y pnpm@10.34.9 build)\n`);
  process.exit(2);
}
const shared = path.resolve(values.shared);
const models = values.models.split(',').filter(Boolean);
for (const model of models) {
  if (!existsSync(path.join(values.cache, model, 'onnx/model.onnx'))) {
    process.stderr.write(`${model} is not in ${values.cache}: run node scripts/eval-models.mjs --models ${model}\n`);
    process.exit(2);
  }
}
const sets = new Set(values.sets.split(','));
const phrasings = [
  '--alternatives',
  path.join(shared, 'eval/alternatives-dev.jsonl'),
  '--alternatives',
  path.join(shared, 'external/alternatives.jsonl'),
];
mkdirSync(values.stores, { recursive: true });

/** One run of `pnpm eval`, its printed tables kept as text. */
function evaluate(args) {
  return execFileSync(process.execPath, [evalMain, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The figures of a row of a printed table (`ALL  60  0.838 …` → [60, 0.838, …]), by its first cell. */
function row(text, label) {
  const line = text.split('\n').find((l) => l.trim().split(/\s+/)[0] === label);
  return line ? line.trim().split(/\s+/).slice(1).map(Number) : undefined;
}

function inAnswer(text) {
  // `pnpm eval` prints one such line per budget; the default budget's is marked `(default)`.
  return /inside the answer \(full format\), dev, [^\n]*\(default\)\s+(\d+\/\d+)/.exec(text)?.[1] ?? '';
}

const runs = [{ label: 'lexical', model: models[0], args: ['--mode', 'lexical'] }];
runs.push({ label: 'lexical + phrasings', model: models[0], args: ['--mode', 'lexical', ...phrasings] });
const weight = values['vector-weight'] ? ['--vector-weight', values['vector-weight']] : [];
for (const model of models) {
  runs.push({ label: `hybrid, ${model}`, model, args: weight });
  runs.push({ label: `hybrid + phrasings, ${model}`, model, args: [...weight, ...phrasings] });
}

const dev = [];
const external = [];
for (const run of runs) {
  const store = path.join(values.stores, `store-${run.model}`);
  const common = ['--store', store, '--embed', path.join(values.cache, run.model), ...run.args];
  process.stderr.write(`${run.label}…\n`);
  if (sets.has('dev')) {
    const text = evaluate([
      '--corpus',
      path.join(shared, 'corpus'),
      '--queries',
      path.join(shared, 'eval/queries-dev.jsonl'),
      ...common,
    ]);
    const cells = [
      'ALL',
      'style=natural',
      'style=keyword',
      'style=api',
      'style=error',
      'scope=single-library',
      'scope=cross-library',
    ].map((label) => row(text, label)?.[1]?.toFixed(3) ?? '');
    dev.push([run.label, ...cells, row(text, 'ALL')?.[3]?.toFixed(3) ?? '', inAnswer(text)]);
  }
  if (sets.has('external')) {
    const text = evaluate(['--external', path.join(shared, 'external'), ...common]);
    const all = row(text, 'ALL');
    const intents = ['intent=api-lookup', 'intent=comparison', 'intent=conceptual', 'intent=troubleshooting'].map(
      (label) => row(text, label)?.[1]?.toFixed(3) ?? '',
    );
    external.push([run.label, all?.[1]?.toFixed(3) ?? '', all?.[5]?.toFixed(3) ?? '', ...intents]);
  }
}

const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
if (dev.length > 0) {
  process.stdout.write(
    `dev (section level, MRR@10)\n\n${table(
      [
        '',
        'ALL',
        'natural',
        'keyword',
        'API',
        'error',
        'single-library',
        'cross-library',
        'recall@5',
        'in the default answer',
      ],
      dev,
    )}\n\n`,
  );
}
if (external.length > 0) {
  process.stdout.write(
    `external (page level)\n\n${table(
      ['', 'MRR@5', 'Recall@5', 'api-lookup MRR@5', 'comparison', 'conceptual', 'troubleshooting'],
      external,
    )}\n`,
  );
}
