import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { familyOf } from './model-families.js';
import type { Pooling } from './types.js';

/** transformers.js `dtype` values and the ONNX file each loads, best first (fp32 is what CPU runs exactly). */
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
  readonly dtype: OnnxDtype | undefined;
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
  const onnx = ONNX_FILES.find((o) => existsSync(path.join(dir, 'onnx', o.file)));
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
