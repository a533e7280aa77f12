import { EmbedError } from './errors.js';
import type { ModelFolder, OnnxDtype } from './model-folder.js';
import type { CallOptions, Embedder, InputKind, Reranker } from './types.js';

/** The optional runtime's module. Its types stay internal: the public API never names them. */
type Transformers = typeof import('@huggingface/transformers');

/** The install line printed when the runtime is missing. */
export const INSTALL_RUNTIME = 'npm install @huggingface/transformers';

let runtime: Promise<Transformers> | undefined;

/**
 * Loads `@huggingface/transformers` on first use only, so a user who never opens a local model
 * neither loads nor needs it. Remote downloads are switched off: models come from local folders.
 * `specifier` is for tests of the missing-runtime path.
 */
export function loadRuntime(specifier = '@huggingface/transformers'): Promise<Transformers> {
  if (specifier !== '@huggingface/transformers') return importRuntime(specifier);
  runtime ??= importRuntime(specifier).catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

async function importRuntime(specifier: string): Promise<Transformers> {
  let module: Transformers;
  try {
    module = (await import(specifier)) as Transformers;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new EmbedError(
        'not-installed',
        `local models need the optional runtime @huggingface/transformers (about 300 MB with onnxruntime-node): ${INSTALL_RUNTIME} (next to @docs/embed; for a global docs: npm install -g @huggingface/transformers)`,
        { cause: error },
      );
    }
    throw new EmbedError('model', `@huggingface/transformers failed to load: ${(error as Error).message}`, {
      cause: error,
    });
  }
  module.env.allowRemoteModels = false;
  module.env.allowLocalModels = true;
  // Nothing is downloaded, so there is nothing to cache.
  module.env.useFSCache = false;
  return module;
}

interface LoadOptions {
  readonly threads?: number | undefined;
  /** The ONNX graph to run (default: the folder's default graph). */
  readonly graph?: OnnxDtype | undefined;
}

function sessionOptions(options: LoadOptions): Record<string, unknown> {
  return options.threads ? { session_options: { intraOpNumThreads: options.threads, interOpNumThreads: 1 } } : {};
}

/** Indices of `texts` in batches of `size`, longest first, so each batch pads to a similar length. */
function batchesByLength(texts: readonly string[], size: number): number[][] {
  const order = texts.map((_, i) => i).sort((a, b) => (texts[b]?.length ?? 0) - (texts[a]?.length ?? 0) || a - b);
  const batches: number[][] = [];
  for (let i = 0; i < order.length; i += size) batches.push(order.slice(i, i + size));
  return batches;
}

function modelError(dir: string, error: unknown): EmbedError {
  if (error instanceof EmbedError) return error;
  return new EmbedError('model', `the model in ${dir} failed: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  });
}

/**
 * transformers.js truncates after adding the special tokens, so a text longer than `maxLength` loses its closing
 * separator ([SEP]); the Python tokenizers the models were trained with cut the text and keep it. Puts it back on
 * each row that was cut (a full row not already ending in it), so a long section's vector is the reference's
 * (bge-small-en-v1.5, CLS-pooled: cosine 0.997 to sentence-transformers' without this, 1.000 with it).
 */
export function keepClosingSeparator(
  inputs: { input_ids: { dims: readonly number[]; data: unknown }; attention_mask: { data: unknown } },
  sepId: number | undefined,
  maxLength: number,
): void {
  const [rows, width] = inputs.input_ids.dims as [number, number];
  if (sepId === undefined || sepId === null || width !== maxLength) return;
  const ids = inputs.input_ids.data as BigInt64Array;
  const mask = inputs.attention_mask.data as BigInt64Array;
  const sep = BigInt(sepId);
  for (let row = 0; row < rows; row++) {
    const last = row * width + width - 1;
    if (mask[last] === 1n && ids[last] !== sep) ids[last] = sep;
  }
}

/**
 * The tokenizer and ONNX session of a local model folder, loaded by `loader` (`AutoModel` for an
 * embedder, `AutoModelForSequenceClassification` for a re-ranker), and the input length both allow.
 */
async function loadModel<Net>(
  model: LocalModel,
  options: LoadOptions,
  loader: { from_pretrained(dir: string, options: Record<string, unknown>): Promise<Net> },
) {
  const { dir, folder } = model;
  const t = await loadRuntime();
  try {
    const tokenizer = await t.AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    const net = await loader.from_pretrained(dir, {
      local_files_only: true,
      dtype: options.graph ?? folder.dtype ?? 'fp32',
      ...sessionOptions(options),
    });
    const maxLength = Math.min(tokenizer.model_max_length, folder.maxTokens ?? Number.POSITIVE_INFINITY);
    return { tokenizer, net, maxLength };
  } catch (error) {
    throw modelError(dir, error);
  }
}

/**
 * Runs `run` over `items` in batches of similar length (longest first) and puts each output back
 * at its item's index; stops between batches when the call is aborted.
 */
async function inBatches<T>(
  items: readonly string[],
  size: number,
  dir: string,
  call: CallOptions,
  run: (batch: string[]) => Promise<T[]>,
): Promise<T[]> {
  const outputs: T[] = new Array(items.length);
  for (const batch of batchesByLength(items, size)) {
    call.signal?.throwIfAborted();
    let out: T[];
    try {
      out = await run(batch.map((i) => items[i] ?? ''));
    } catch (error) {
      throw modelError(dir, error);
    }
    batch.forEach((index, j) => {
      outputs[index] = out[j] as T;
    });
  }
  return outputs;
}

export interface LocalModel {
  readonly dir: string;
  /** Name used in the id. */
  readonly name: string;
  readonly folder: ModelFolder;
}

/** A sentence embedder over a local ONNX model: tokenise, run, pool (mean or CLS), L2-normalise. */
export async function openLocalEmbedder(
  model: LocalModel,
  options: LoadOptions & {
    /** The id it records (`localEmbedderId`): names the graph when it is not the folder's default. */
    id: string;
    batchSize: number;
    queryPrefix: string;
    documentPrefix: string;
    pooling: 'mean' | 'cls';
  },
): Promise<Embedder> {
  const t = await loadRuntime();
  const { dir, folder } = model;
  const dimensions = folder.dimensions;
  if (!dimensions) throw new EmbedError('model', `${dir}/config.json does not give the model's hidden size`);
  const { tokenizer, net, maxLength } = await loadModel(model, options, t.AutoModel);

  async function run(texts: string[]): Promise<Float32Array[]> {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
    keepClosingSeparator(inputs as never, tokenizer.sep_token_id, maxLength);
    const outputs = (await net(inputs)) as Record<string, InstanceType<Transformers['Tensor']>>;
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings;
    if (!hidden) throw new EmbedError('model', `the model in ${dir} has no last_hidden_state output`);
    const pooled =
      options.pooling === 'cls' ? hidden.slice(null, 0) : t.mean_pooling(hidden, inputs.attention_mask as never);
    const normalised = pooled.normalize(2, -1);
    const [rows, width] = normalised.dims as [number, number];
    if (width !== dimensions) {
      throw new EmbedError(
        'dimension',
        `the model in ${dir} gave vectors of ${width} dimensions, its config says ${dimensions}`,
      );
    }
    const data = normalised.data as Float32Array;
    return Array.from({ length: rows }, (_, i) => data.slice(i * width, (i + 1) * width));
  }

  return {
    id: options.id,
    dimensions,
    async embed(texts: readonly string[], kind: InputKind, call: CallOptions = {}): Promise<Float32Array[]> {
      const prefix = kind === 'query' ? options.queryPrefix : options.documentPrefix;
      return inBatches(texts, options.batchSize, dir, call, (batch) => run(batch.map((text) => prefix + text)));
    },
    async close() {
      await net.dispose();
    },
  };
}

/** A cross-encoder over a local ONNX model (…ForSequenceClassification): (query, document) → one logit. */
export async function openLocalReranker(
  model: LocalModel,
  options: LoadOptions & { batchSize: number },
): Promise<Reranker> {
  const t = await loadRuntime();
  const { dir } = model;
  const { tokenizer, net, maxLength } = await loadModel(model, options, t.AutoModelForSequenceClassification);

  async function run(query: string, documents: string[]): Promise<number[]> {
    // Truncation cuts the end of each pair, i.e. the document: the query is kept whole.
    const inputs = tokenizer(
      documents.map(() => query),
      { text_pair: documents, padding: true, truncation: true, max_length: maxLength },
    );
    keepClosingSeparator(inputs as never, tokenizer.sep_token_id, maxLength);
    const { logits } = (await net(inputs)) as { logits: InstanceType<Transformers['Tensor']> };
    const [rows, labels] = logits.dims as [number, number];
    const data = logits.data as Float32Array;
    // One label: its logit. Two (not relevant, relevant): the margin of the second.
    return Array.from({ length: rows }, (_, i) =>
      labels === 1 ? (data[i] as number) : (data[i * labels + labels - 1] as number) - (data[i * labels] as number),
    );
  }

  return {
    id: `transformers:${model.name}`,
    async score(query: string, documents: readonly string[], call: CallOptions = {}): Promise<number[]> {
      return inBatches(documents, options.batchSize, dir, call, (batch) => run(query, batch));
    },
    async close() {
      await net.dispose();
    },
  };
}
