import { describeModels, pullModel } from '@docs/embed';
import { printJson } from '../context.js';
import type { GlobalOptions } from '../options.js';

/** `docs models`: the local embedders and re-rankers, whether each is ready, and the endpoint if one is set. */
export async function models(globals: GlobalOptions): Promise<void> {
  const report = describeModels();
  const endpoint = process.env.DOCS_EMBED_URL ?? process.env.OPENAI_BASE_URL;
  if (globals.json) {
    printJson({ ...report, endpoint: endpoint ?? null });
    return;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`Models directory:   ${report.modelsDir} ($DOCS_MODELS)`);
  out(`Hugging Face cache: ${report.hubCache}`);
  out(
    `Local runtime:      ${report.runtime.installed ? `@huggingface/transformers ${report.runtime.version}` : `not installed (${report.runtime.install})`}`,
  );
  out(`Endpoint:           ${endpoint ? `${endpoint} (use openai:<model>)` : 'none ($DOCS_EMBED_URL)'}`);
  if (report.models.length === 0) {
    out('');
    out('No local models. Put a model folder (config.json, tokenizer.json, onnx/model.onnx) in the models directory,');
    out('or run: docs models pull Xenova/bge-small-en-v1.5');
    return;
  }
  out('');
  const width = Math.max(...report.models.map((m) => m.spec.length));
  for (const m of report.models) {
    const dims = m.dimensions ? `${m.dimensions} dims` : '';
    const state = m.ready ? 'ready' : `not ready: ${m.problem}`;
    out(`${m.kind.padEnd(8)}  ${m.spec.padEnd(width)}  ${dims.padStart(9)}  ${state}`);
  }
}

/** `docs models pull <org/name>`: a model folder from the Hugging Face hub into the models directory. */
export async function pull(repo: string, globals: GlobalOptions): Promise<void> {
  const pulled = await pullModel(repo, {
    onFile: globals.json
      ? undefined
      : (file, bytes) => process.stderr.write(`  ${file} (${(bytes / 1e6).toFixed(1)} MB)\n`),
  });
  if (globals.json) {
    printJson(pulled);
    return;
  }
  const name = repo.split('/')[1];
  process.stdout.write(
    `Pulled ${repo} (${pulled.kind}, ${(pulled.bytes / 1e6).toFixed(1)} MB) into ${pulled.path}. Use it as ${name}, e.g. docs add <folder> --embed ${name}\n`,
  );
}
