/** Queries and documents can take different instruction prefixes (bge, e5, nomic...). */
export type InputKind = 'query' | 'document';

/** Options of a call that can be cancelled. */
export interface CallOptions {
  readonly signal?: AbortSignal | undefined;
}

/** Text → vectors. Open one with `openEmbedder`. */
export interface Embedder {
  /**
   * Stable id `<provider>:<model>:<dimensions>`, recorded in packages, e.g.
   * `transformers:bge-small-en-v1.5:384`, `openai:nomic-embed-text:768`. `openEmbedder(id)` opens
   * the same model again.
   */
  readonly id: string;
  /** Length of every vector. */
  readonly dimensions: number;
  /**
   * One L2-normalised vector per text, in the same order. Batches internally and applies the
   * model's query/document instruction prefix.
   */
  embed(texts: readonly string[], kind: InputKind, options?: CallOptions): Promise<Float32Array[]>;
  /** Frees the model (an ONNX session) or nothing (an endpoint). */
  close(): Promise<void>;
}

/** (query, document) pairs → relevance. Open one with `openReranker`. */
export interface Reranker {
  /** Stable id `<provider>:<model>`, e.g. `transformers:ms-marco-MiniLM-L-6-v2`, `openai:bge-reranker-base`. */
  readonly id: string;
  /** One relevance score per document (higher = more relevant), in the same order. Scores are raw (logits): compare them within one call. */
  score(query: string, documents: readonly string[], options?: CallOptions): Promise<number[]>;
  close(): Promise<void>;
}

/** How to pool a transformer's token vectors into one sentence vector. */
export type Pooling = 'mean' | 'cls';

/** Settings for opening an embedder or re-ranker; every field is optional. */
export interface EmbedConfig {
  /** Endpoint base URL, e.g. `http://localhost:11434/v1` (default: $DOCS_EMBED_URL, $OPENAI_BASE_URL, else https://api.openai.com/v1). */
  readonly url?: string | undefined;
  /** Endpoint API key (default: $DOCS_EMBED_KEY, else $OPENAI_API_KEY; none for a local server). */
  readonly key?: string | undefined;
  /** Texts per model run or request (default 8 local, 64 endpoint). */
  readonly batchSize?: number | undefined;
  /** Per request to an endpoint, in ms (default 60 000). */
  readonly timeoutMs?: number | undefined;
  /** Retries of a request answered 429 or 5xx, with exponential backoff (default 3). */
  readonly retries?: number | undefined;
  /** First backoff delay in ms, doubled on each retry unless the server sends Retry-After (default 500). */
  readonly retryDelayMs?: number | undefined;
  /** Where named local models are looked up (default: $DOCS_MODELS, else `<user data dir>/docs/models`). */
  readonly modelsDir?: string | undefined;
  /** Environment to read the defaults from (default: process.env). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** The vector length the caller expects; a model giving another fails with code `dimension`. */
  readonly dimensions?: number | undefined;
  /** Override the model's query instruction prefix. */
  readonly queryPrefix?: string | undefined;
  /** Override the model's document instruction prefix. */
  readonly documentPrefix?: string | undefined;
  /** Override the local model's pooling (default: its 1_Pooling/config.json, else by model family, else mean). */
  readonly pooling?: Pooling | undefined;
  /** ONNX runtime threads for a local model (default: the runtime's choice). */
  readonly threads?: number | undefined;
}
