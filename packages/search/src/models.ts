/**
 * What search needs of a sentence-embedding model: the shape of `Embedder`
 * in @docs/embed, written out here so that search neither loads nor depends
 * on a model runtime when no model is used.
 */
export interface QueryEmbedder {
  /** `<provider>:<model>:<dimensions>`: a package's vectors are only compared with vectors of the same id. */
  readonly id: string;
  readonly dimensions: number;
  /** Unit-length vectors, one per text. */
  embed(
    texts: readonly string[],
    kind: 'query' | 'document',
    options?: { signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

/** What search needs of a re-ranker (a cross-encoder): a relevance score for each passage given the query. */
export interface PassageReranker {
  readonly id: string;
  score(query: string, documents: readonly string[], options?: { signal?: AbortSignal }): Promise<number[]>;
}

/** Why a model is not there (not installed here, failed to load, another model configured). */
export interface Unavailable {
  readonly unavailable: string;
}

/**
 * Where search gets its models. Search asks for the embedder of each
 * package's vectors by the id stored with them, so a package embedded with a
 * model the caller does not have answers lexically and says why.
 */
export interface SearchModels {
  /** The query embedder for vectors made by `vectorsBy` (an embedder id), or why there is none. */
  embedderFor(vectorsBy: string): Promise<QueryEmbedder | Unavailable>;
  /** The re-ranker; undefined when none is configured, Unavailable when it could not be loaded. */
  reranker(): Promise<PassageReranker | Unavailable | undefined>;
}

/**
 * Models the caller already holds: the embedder answers for the packages
 * its id made, the re-ranker (if any) reorders every search.
 *
 * @example
 * const models = heldModels({ embedder: await openEmbedder('./models/bge-small') });
 * await getDocs(store, 'vitest', 'mock a module', { models });
 */
export function heldModels(held: { embedder?: QueryEmbedder; reranker?: PassageReranker }): SearchModels {
  return {
    async embedderFor(vectorsBy) {
      if (!held.embedder) return { unavailable: `no embedder is configured for its vectors (${vectorsBy})` };
      if (held.embedder.id === vectorsBy) return held.embedder;
      return { unavailable: `its vectors were made by ${vectorsBy}, and the embedder here is ${held.embedder.id}` };
    },
    async reranker() {
      return held.reranker;
    },
  };
}

export function isUnavailable<T extends object>(value: T | Unavailable): value is Unavailable {
  return 'unavailable' in value;
}
