import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { familyOf } from './model-families.js';
import type { Pooling } from './types.js';

/**
 * transformers.js `dtype` values and the ONNX file each loads, in the order that picks the graph an id without a graph
 * names (`transformers:<name>:<dims>`): fp32 first, what ids meant before embedders took the int8 graph by default.
 */
const ONNX_FILES = [
  { dtype: 'fp32', file: 'model.onnx' },
  { dtype: 'q8', file: 'model_quantized.onnx' },
  { dtype: 'int8', file: 'model_int8.onnx' },
  { dtype: 'uint8', file: 'model_uint8.onnx' },
  { dtype: 'fp16', file: 'model_fp16.onnx' },
] as const;

export type OnnxDtype = (typeof ONNX_FILES)[number]['dtype'];

/** What a model folder holds, read from its files without loading the model. */
export interface ModelFolder {
  readonly kind: 'embedder' | 'reranker';
  /** Hidden size: the length of an embedder's vectors. */
  readonly dimensions: number | undefined;
  /** The graph an id without a graph names: the first of `graphs` in ONNX_FILES order (fp32 when there is one). */
  readonly dtype: OnnxDtype | undefined;
  /** Every ONNX graph the folder holds. */
  readonly graphs: readonly OnnxDtype[];
  readonly pooling: Pooling;
  readonly queryPrefix: string;
  readonly documentPrefix: string;
  /** Longest input in tokens (the config's position embeddings, or sentence_bert_config.json's shorter max_seq_length), when known. */
  readonly maxTokens: number | undefined;
  /** Why it cannot be loaded, when it cannot; undefined when it is complete. */
  readonly problem: string | undefined;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function maxTokensOf(
  config: Record<string, unknown> | undefined,
  sentenceBert: Record<string, unknown> | undefined,
): number | undefined {
  const positions = positive(config?.max_position_embeddings);
  const table =
    positions === undefined ? undefined : /roberta/i.test(String(config?.model_type ?? '')) ? positions - 2 : positions;
  // sentence-transformers truncates at max_seq_length (all-MiniLM-L6-v2: 256 of its 512 positions), the length
  // the model was trained for; its reference vectors of a longer text are those of the first 256 tokens.
  const trained = positive(sentenceBert?.max_seq_length);
  return trained === undefined ? table : Math.min(trained, table ?? trained);
}

/** Reads a model folder (transformers.js layout: config.json, tokenizer.json, onnx/model*.onnx) and says whether it is complete. */
export function readModelFolder(dir: string, name: string): ModelFolder {
  const config = readJson(path.join(dir, 'config.json'));
  const architectures = Array.isArray(config?.architectures) ? config.architectures.map(String) : [];
  const kind = architectures.some((a) => /ForSequenceClassification$/.test(a)) ? 'reranker' : 'embedder';
  const graphs = ONNX_FILES.filter((o) => existsSync(path.join(dir, 'onnx', o.file)));
  const onnx = graphs[0];
  const missing = [
    config ? undefined : 'config.json',
    existsSync(path.join(dir, 'tokenizer.json')) ? undefined : 'tokenizer.json',
    onnx ? undefined : 'onnx/model.onnx',
  ].filter(Boolean);

  const poolingConfig = readJson(path.join(dir, '1_Pooling', 'config.json'));
  const family = familyOf(name);
  const pooling: Pooling =
    poolingConfig?.pooling_mode_cls_token === true
      ? 'cls'
      : poolingConfig?.pooling_mode_mean_tokens === true
        ? 'mean'
        : (family.pooling ?? 'mean');
  const prompts = readJson(path.join(dir, 'config_sentence_transformers.json'))?.prompts as
    | Record<string, unknown>
    | undefined;
  const prompt = (...keys: string[]) =>
    keys.map((k) => prompts?.[k]).find((v) => typeof v === 'string') as string | undefined;

  return {
    kind,
    dimensions:
      positive(poolingConfig?.word_embedding_dimension) ??
      positive(config?.hidden_size) ??
      positive(config?.d_model) ??
      positive(config?.dim),
    dtype: onnx?.dtype,
    graphs: graphs.map((g) => g.dtype),
    pooling,
    queryPrefix: prompt('query', 'search_query') ?? family.query,
    documentPrefix: prompt('document', 'passage', 'search_document') ?? family.document,
    // RoBERTa-family position tables hold two extra slots (padding offset), not two more tokens.
    maxTokens: maxTokensOf(config, readJson(path.join(dir, 'sentence_bert_config.json'))),
    problem:
      missing.length > 0
        ? `${dir} lacks ${missing.join(', ')} (a transformers.js model folder has config.json, tokenizer.json and onnx/model.onnx)`
        : undefined,
  };
}

/** The ONNX graphs a spec may name after `@` (`all-minilm-l6-v2@q8`). */
export const GRAPH_NAMES: readonly OnnxDtype[] = ONNX_FILES.map((o) => o.dtype);

/**
 * The graph an embedder runs when its spec names none: the int8 export (`model_quantized.onnx`) when the folder has
 * one, else its only graph. all-MiniLM-L6-v2 embeds 1.1–1.9× faster with it and keeps the unbiased set's figures
 * (docs/ranking.md, "Embedding throughput").
 */
export function preferredGraph(folder: Pick<ModelFolder, 'dtype' | 'graphs'>): OnnxDtype | undefined {
  return folder.graphs.includes('q8') ? 'q8' : folder.dtype;
}

/**
 * The id of an embedder over `name`'s folder running `graph`: `transformers:<name>:<dims>` for the folder's default
 * graph (so every id made before graphs were named still means the vectors it meant), `transformers:<name>@<graph>:<dims>`
 * for another, so vectors of two graphs are never searched with each other's query vectors.
 */
export function localEmbedderId(
  name: string,
  folder: Pick<ModelFolder, 'dtype' | 'dimensions'>,
  graph: OnnxDtype | undefined,
): string {
  const named = graph !== undefined && graph !== folder.dtype ? `@${graph}` : '';
  return `transformers:${name}${named}:${folder.dimensions}`;
}
