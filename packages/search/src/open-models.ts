import type { EmbedConfig, Embedder, Reranker } from '@docs/embed';
import type { PassageReranker, QueryEmbedder, SearchModels, Unavailable } from './models.js';

/** Which models to open, as a user names them. */
export interface ModelSpecs {
  /**
   * The query embedder: a model folder, a model name, `openai:<model>`, or a
   * stored id. Unset: each package's vectors are searched with the local model
   * (models folder or Hugging Face cache) whose id is exactly the one they
   * carry, if there is one; a package's id never names a path or an endpoint
   * to open. @default none
   */
  readonly embed?: string | undefined;
  /** The re-ranker, named the same ways. @default none: no re-ranking */
  readonly rerank?: string | undefined;
  /** Endpoint URL and key, models folder, batch size… (see @docs/embed). */
  readonly config?: EmbedConfig | undefined;
}

/** Models opened on first use, kept for the next searches, and closed together. */
export interface OpenModels extends SearchModels {
  /** What was asked for. */
  readonly specs: ModelSpecs;
  close(): Promise<void>;
}

/**
 * Models for search, from what a user named (flags, environment, config).
 * Nothing is loaded until a search needs it: a search over packages without
 * vectors and with no re-ranker named never loads @docs/embed or a model
 * runtime. A model that cannot be opened makes the libraries it serves answer
 * lexically, and the response says why; it is not tried again by this instance.
 *
 * @example
 * const models = openModels({ embed: process.env.DOCS_EMBED, rerank: process.env.DOCS_RERANK });
 * try { await getDocs(store, 'vitest', 'mock a module', { models }); } finally { await models.close(); }
 */
export function openModels(specs: ModelSpecs): OpenModels {
  const embedders = new Map<string, Promise<Embedder | Unavailable>>();
  let reranker: Promise<Reranker | Unavailable> | undefined;
  const config = specs.config ?? {};
  const failure = (what: string, error: unknown): Unavailable => ({
    unavailable: `${what} could not be opened: ${(error as Error)?.message ?? String(error)}`,
  });
  const openEmbedder = (spec: string) => {
    let opened = embedders.get(spec);
    if (!opened) {
      opened = import('@docs/embed')
        .then((embed) => embed.openEmbedder(spec, config))
        .catch((error: unknown) => failure(`the embedder ${spec}`, error));
      embedders.set(spec, opened);
    }
    return opened;
  };
  const localEmbedderFor = async (id: string): Promise<string | undefined> =>
    (await import('@docs/embed')).localEmbedderWithId(id, config);
  return {
    specs,
    async embedderFor(vectorsBy: string): Promise<QueryEmbedder | Unavailable> {
      // Which model runs is the user's choice alone: a package's id is compared with it, never opened. Without one,
      // the id may name a local model the user already has, by exact id; never a path, a name looked up, or an endpoint.
      const spec = specs.embed ?? (await localEmbedderFor(vectorsBy));
      if (spec === undefined) {
        return {
          unavailable: `its vectors were made by ${vectorsBy}, and no embedder is configured (--embed, $DOCS_EMBED or the config's embedder) nor is a local model of that id in the models folder`,
        };
      }
      const opened = await openEmbedder(spec);
      // Said with the package's id, as every other reason is: the user sees which model to get, not only what failed.
      if ('unavailable' in opened) {
        return { unavailable: `its vectors were made by ${vectorsBy}, and ${opened.unavailable}` };
      }
      if (opened.id !== vectorsBy) {
        // The same model with another ONNX graph (vectors made before embedders took the int8 graph): the user's
        // folder, run with the graph the vectors were made with.
        const other = (await import('@docs/embed')).specForGraphOf(spec, opened.id, vectorsBy);
        const reopened = other === undefined ? undefined : await openEmbedder(other);
        if (reopened && !('unavailable' in reopened) && reopened.id === vectorsBy) return reopened;
        return { unavailable: `its vectors were made by ${vectorsBy}, and the embedder here is ${opened.id}` };
      }
      return opened;
    },
    async reranker(): Promise<PassageReranker | Unavailable | undefined> {
      if (specs.rerank === undefined) return undefined;
      const spec = specs.rerank;
      reranker ??= import('@docs/embed')
        .then((embed) => embed.openReranker(spec, config))
        .catch((error: unknown) => failure(`the re-ranker ${spec}`, error));
      return reranker;
    },
    async close() {
      const opened = [...embedders.values(), ...(reranker ? [reranker] : [])];
      embedders.clear();
      reranker = undefined;
      for (const model of await Promise.all(opened)) if (!('unavailable' in model)) await model.close();
    },
  };
}
