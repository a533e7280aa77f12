import { existsSync } from 'node:fs';
import { EmbedError } from './errors.js';
import { findModel, nameOfFolder, resolveHubCache, resolveModelsDir } from './locations.js';
import { localEmbedderId, type OnnxDtype, preferredGraph, readModelFolder } from './model-folder.js';
import { type ModelSpec, parseSpec } from './spec.js';
import type { LocalModel } from './transformers-provider.js';
import type { EmbedConfig, Embedder, Reranker } from './types.js';

/**
 * Texts per ONNX run. Attention memory grows with batch × length², and sections run to the
 * model's 512 tokens: a MiniLM-L6-shaped model embedding 64 documentation sections peaked at
 * 904 MB RSS with batches of 8 against 2,352 MB with 32, and was no slower (scripts/bench-embed.mjs).
 */
const LOCAL_BATCH = 8;

/** Finds and reads the local model folder a transformers spec names; throws `not-found` with where it looked. */
function locate(
  spec: ModelSpec & { provider: 'transformers' },
  config: EmbedConfig,
  kind: 'embedder' | 'reranker',
): LocalModel {
  const env = config.env ?? process.env;
  let dir: string;
  let name: string;
  if ('path' in spec) {
    if (!existsSync(spec.path)) throw new EmbedError('not-found', `no model folder at ${spec.path}`);
    dir = spec.path;
    name = nameOfFolder(dir).name;
  } else {
    const modelsDir = resolveModelsDir({ modelsDir: config.modelsDir, env });
    const hubCache = resolveHubCache(env);
    const found = findModel(spec.name, modelsDir, hubCache);
    if (!found) {
      const pull = spec.name.includes('/') ? spec.name : `<org>/${spec.name}`;
      throw new EmbedError(
        'not-found',
        `no local model "${spec.name}": looked in ${modelsDir} ($DOCS_MODELS) and ${hubCache}. Put its folder there, give its path, or run: docs models pull ${pull}`,
      );
    }
    dir = found.path;
    name = found.name;
  }
  const folder = readModelFolder(dir, name);
  if (folder.problem) throw new EmbedError('not-found', folder.problem);
  if (folder.kind !== kind) {
    throw new EmbedError(
      'invalid-spec',
      `${dir} holds a ${folder.kind} (config.json architectures), not ${kind === 'embedder' ? 'an embedder' : 'a re-ranker'}`,
    );
  }
  return { dir, name, folder };
}

/**
 * The ONNX graph an embedder runs: the one the spec names (`@q8`); for a stored id without one
 * (`transformers:<name>:<dims>`), the folder's default graph, which is what such ids were made with; otherwise the
 * preferred one (int8 when the folder has it).
 */
function graphOf(spec: ModelSpec & { provider: 'transformers' }, model: LocalModel): OnnxDtype | undefined {
  const graph = spec.graph ?? (spec.dimensions === undefined ? preferredGraph(model.folder) : model.folder.dtype);
  if (graph !== undefined && !model.folder.graphs.includes(graph)) {
    throw new EmbedError(
      'not-found',
      `${model.dir} has no ${graph} graph (onnx/): it holds ${model.folder.graphs.join(', ') || 'none'}`,
    );
  }
  return graph;
}

function checkDimensions(embedder: Embedder, expected: number | undefined, spec: string): Embedder {
  if (expected !== undefined && embedder.dimensions !== expected) {
    void embedder.close();
    throw new EmbedError(
      'dimension',
      `${spec} gives vectors of ${embedder.dimensions} dimensions, ${expected} were expected (${embedder.id})`,
    );
  }
  return embedder;
}

/**
 * Opens an embedder. `spec` is one of:
 *
 * - a path to a model folder (transformers.js layout: `config.json`, `tokenizer.json`,
 *   `onnx/model.onnx`), e.g. `./models/bge-small-en-v1.5` → run locally;
 * - a model name, `bge-small-en-v1.5` or `Xenova/bge-small-en-v1.5` → that folder looked up in the
 *   models directory (`config.modelsDir`, `$DOCS_MODELS`, else `<user data dir>/docs/models`) and the
 *   Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, else `~/.cache/huggingface/hub`);
 * - `openai:<model>` → an OpenAI-compatible `/embeddings` endpoint (Ollama, LM Studio, llama.cpp,
 *   vLLM, OpenAI) at `config.url` / `$DOCS_EMBED_URL` / `$OPENAI_BASE_URL`, key from `config.key` /
 *   `$DOCS_EMBED_KEY` / `$OPENAI_API_KEY`;
 * - a stored id, `transformers:<model>:<dims>` or `openai:<model>:<dims>` → the same model as above,
 *   checked to give vectors of that length, so a reader reopens the embedder a package was built with.
 *
 * Local models need the optional `@huggingface/transformers`, loaded only here; without it this
 * throws `EmbedError` code `not-installed` with the install command. Nothing is ever downloaded.
 *
 * @example
 * const embedder = await openEmbedder('Xenova/bge-small-en-v1.5');
 * const [vector] = await embedder.embed(['how do I enable CORS?'], 'query');
 * await embedder.close();
 */
export async function openEmbedder(spec: string, config: EmbedConfig = {}): Promise<Embedder> {
  const parsed = parseSpec(spec);
  const expected = config.dimensions ?? parsed.dimensions;
  if (parsed.provider === 'openai') {
    const { openEndpointEmbedder } = await import('./openai-provider.js');
    return checkDimensions(
      await openEndpointEmbedder(parsed.model, { ...config, dimensions: expected }),
      expected,
      spec,
    );
  }
  const model = locate(parsed, config, 'embedder');
  const graph = graphOf(parsed, model);
  const { openLocalEmbedder } = await import('./transformers-provider.js');
  const embedder = await openLocalEmbedder(model, {
    graph,
    id: localEmbedderId(model.name, model.folder, graph),
    batchSize: config.batchSize ?? LOCAL_BATCH,
    queryPrefix: config.queryPrefix ?? model.folder.queryPrefix,
    documentPrefix: config.documentPrefix ?? model.folder.documentPrefix,
    pooling: config.pooling ?? model.folder.pooling,
    threads: config.threads,
  });
  return checkDimensions(embedder, expected, spec);
}

/**
 * Opens a re-ranker (a cross-encoder). `spec` follows `openEmbedder`'s grammar: a model folder whose
 * config.json names a `…ForSequenceClassification` architecture (ms-marco-MiniLM-L-6-v2,
 * bge-reranker-base…), a model name, or `openai:<model>` for a `/rerank` endpoint in the common
 * shape (text-embeddings-inference, Jina, Cohere: `{model, query, documents, top_n}` →
 * `{results: [{index, relevance_score}]}`).
 *
 * @example
 * const reranker = await openReranker('ms-marco-MiniLM-L-6-v2');
 * const scores = await reranker.score('enable CORS', ['Set the cors option…', 'Install with npm…']);
 */
export async function openReranker(spec: string, config: EmbedConfig = {}): Promise<Reranker> {
  const parsed = parseSpec(spec);
  if (parsed.provider === 'openai') {
    const { openEndpointReranker } = await import('./openai-provider.js');
    return openEndpointReranker(parsed.model, config);
  }
  const model = locate(parsed, config, 'reranker');
  const { openLocalReranker } = await import('./transformers-provider.js');
  return openLocalReranker(model, { batchSize: config.batchSize ?? LOCAL_BATCH, threads: config.threads });
}
