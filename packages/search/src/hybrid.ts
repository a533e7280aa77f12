import path from 'node:path';
import { convexFusion, minMaxNormalize, reciprocalRankFusion } from '@docs/rank';
import { type ChunkHit, readVectorWork, type VectorWork, vectorWorkOf } from '@docs/store';
import { isUnavailable, type QueryEmbedder, type Unavailable } from './models.js';
import type { SearchContext } from './options.js';
import type { RankingConfig } from './ranking.js';
import type { RerankingInfo } from './reranking.js';
import type { RetrievalInfo } from './results.js';
import { type LexicalHits, noHits, type PhrasingHits, phrasingHits, type ScoredHits } from './stages/hits.js';
import type { Target } from './stages/target.js';

/** What retrieval reads of a search's context: whether and how to use the models, and the signal that stops them. */
export type RetrievalContext = Pick<SearchContext, 'mode' | 'models' | 'rerank' | 'signal'>;

/**
 * Decides, library by library, whether vectors take part, and keeps what
 * the response says about it (the re-ranker is reranking.ts's). One per search: the question's phrasings (the
 * topic first, then each alternative) are embedded once per embedder, in one
 * batch, however many libraries share it.
 */
export class Retrieval {
  readonly #texts: readonly string[];
  readonly #context: RetrievalContext;
  readonly #embedders = new Map<string, Promise<QueryEmbedder | Unavailable>>();
  readonly #vectors = new Map<string, Promise<Float32Array[] | Unavailable>>();
  readonly #notes: string[] = [];
  readonly #usedEmbedders = new Set<string>();
  /** Each store folder's background vector worker status, read once per search. */
  readonly #work = new Map<string, Promise<VectorWork | undefined>>();

  /** `texts`: the phrasings as the embedder reads them, the topic first. */
  constructor(texts: readonly string[], context: RetrievalContext) {
    this.#texts = texts.length > 0 ? texts : [''];
    this.#context = context;
  }

  /**
   * Phrasing `phrasing`'s vector (0, the topic, by default) for a library, when
   * its package has vectors and the embedder that made them is here;
   * otherwise undefined, and the response will say why the library answered
   * lexically.
   */
  async queryVector(target: Target, phrasing = 0): Promise<Float32Array | undefined> {
    const { mode, models } = this.#context;
    if (mode === 'lexical') return undefined;
    const stored = await target.reader().embedder();
    if (!stored) {
      const pending = await this.#vectorsPending(target);
      if (pending) this.#note(`${target.label} answered lexically: ${pending}`);
      else if (mode === 'hybrid')
        this.#note(
          `${target.label} answered lexically: it has no vectors (add them with docs embed ${target.pkg.name})`,
        );
      return undefined;
    }
    if (!models) {
      this.#note(`${target.label} answered lexically: it has vectors from ${stored.id}, and no embedder is configured`);
      return undefined;
    }
    let embedder = this.#embedders.get(stored.id);
    if (!embedder) {
      embedder = models.embedderFor(stored.id).catch((error: unknown) => ({ unavailable: (error as Error).message }));
      this.#embedders.set(stored.id, embedder);
    }
    const found = await embedder;
    if (isUnavailable(found)) {
      this.#note(`${target.label} answered lexically: ${found.unavailable}`);
      return undefined;
    }
    let vectors = this.#vectors.get(found.id);
    if (!vectors) {
      vectors = embedQueries(found, this.#texts, this.#context.signal);
      this.#vectors.set(found.id, vectors);
    }
    const made = await vectors;
    if (isUnavailable(made)) {
      this.#note(`${target.label} answered lexically: ${made.unavailable}`);
      return undefined;
    }
    this.#usedEmbedders.add(found.id);
    return made[phrasing];
  }

  /** What answered, for the response, with what the re-ranking (reranking.ts) says of itself. */
  info(reranking: RerankingInfo): RetrievalInfo {
    const embedders = [...this.#usedEmbedders];
    const notes = [...this.#notes, ...reranking.notes];
    return {
      mode: embedders.length > 0 ? 'hybrid' : 'lexical',
      ...(embedders.length > 0 ? { embedder: embedders.join(', ') } : {}),
      ...(reranking.reranker ? { reranker: reranking.reranker } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    };
  }

  /** What the store's background vector worker says of a package without vectors: being made, waiting, failed. */
  async #vectorsPending(target: Target): Promise<string | undefined> {
    const dir = path.dirname(target.pkg.file);
    let work = this.#work.get(dir);
    if (!work) {
      work = readVectorWork(dir);
      this.#work.set(dir, work);
    }
    const state = vectorWorkOf(await work, target.pkg.file);
    if (state?.state === 'embedding') {
      const share = state.total > 0 ? Math.floor((100 * state.done) / state.total) : 0;
      return `vectors being made: ${share}% (${state.embedder})`;
    }
    if (state?.state === 'waiting') return `vectors waiting to be made (${state.embedder})`;
    if (state?.state === 'failed') {
      return `its vectors could not be made with ${state.embedder}: ${state.error} (run docs embed ${target.pkg.name})`;
    }
    return undefined;
  }

  #note(note: string): void {
    if (!this.#notes.includes(note)) this.#notes.push(note);
  }
}

/** Every phrasing's vector, in one call: all of them, or why not (a search with some phrasings embedded and others not would weigh them unlike). */
async function embedQueries(
  embedder: QueryEmbedder,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Float32Array[] | Unavailable> {
  try {
    const vectors = await embedder.embed(texts, 'query', signal ? { signal } : {});
    if (vectors.length !== texts.length || vectors.some((v) => v.length !== embedder.dimensions)) {
      return { unavailable: `${embedder.id} gave no query vector of ${embedder.dimensions} dimensions` };
    }
    return vectors;
  } catch (error) {
    return { unavailable: `${embedder.id} could not embed the query: ${(error as Error).message}` };
  }
}

/**
 * One phrasing's candidates in one library, normalised within it: its lexical
 * hits alone, or, for an alternative when `alternativeVectorWeight` is above 0
 * and the package has vectors whose embedder is here, fused with the sections
 * nearest its own vector. (The question's vector is fused once per library,
 * after its phrasings: {@link questionVector}, and fuse.ts.)
 * `lexical` undefined: the phrasing has no words, and finds nothing.
 */
export async function withinLibrary(
  target: Target,
  lexical: LexicalHits | undefined,
  vectors: { readonly retrieval: Retrieval; readonly phrasing: number },
  limit: number,
  ranking: RankingConfig,
): Promise<PhrasingHits> {
  // The topic's vector is fused once per library, after every phrasing (fuse.ts); an alternative's here, when asked for.
  const weight = vectors.phrasing === 0 ? 0 : ranking.alternativeVectorWeight;
  const query =
    lexical !== undefined && weight > 0 ? await vectors.retrieval.queryVector(target, vectors.phrasing) : undefined;
  const fused =
    lexical === undefined || query === undefined
      ? undefined
      : await fuseWithVectors(target, lexical, query, limit, ranking, weight);
  // Lexical alone: BM25 of a chunk that matches nothing is 0, that (not the weakest candidate) is the bottom of
  // the scale. Fused: ordered by the fused score; `raw`, which breaks ties between libraries (merge), stays the
  // lexical score a lexical answer breaks them by: the fused score is a share of each library's own best, the same 1
  // at the top of every library, so ties between libraries (every library holding all of a short phrasing's words)
  // fell to the scale phrasings happened to be on (issue 42). The sections only the vectors found come after the
  // lexical ones, and hold none of the terms as far as is known.
  const normalised = (values: readonly number[]) => (values.length === 0 ? [] : minMaxNormalize(values, { floor: 0 }));
  const scores = fused ? shareOfBest(fused.raw) : normalised(lexical?.raw ?? []);
  const plain = fused ? scores : normalised(lexical?.plain ?? []);
  const scored = fused ? { ...fused, raw: fused.hits.map((_, i) => lexical?.raw[i] ?? 0) } : lexical;
  const held = fused ? fused.hits.map((_, i) => lexical?.held[i] ?? []) : (lexical?.held ?? []);
  return lexical === undefined || scored === undefined
    ? noHits()
    : phrasingHits(scored, scores, held, lexical.counts, plain);
}

/**
 * A library's candidates from both retrievers: its lexical hits and the
 * `limit` sections nearest the query vector, each scored by both (a
 * section one retriever did not find scores 0 there), fused.
 *
 * - lexical: the within-library score as the lexical stage made it, as a share of the best (BM25's zero is a zero);
 * - vector: the cosine similarity, as a share of the best (below 0 counts as 0: unrelated);
 * - fused: `convexFusion` with the alternative's vector weight, or reciprocal rank fusion of the two orders when `fusion` is `rrf`.
 */
async function fuseWithVectors(
  target: Target,
  lexical: ScoredHits,
  query: Float32Array,
  limit: number,
  ranking: Pick<RankingConfig, 'fusion' | 'rrfK' | 'vectorWeight'>,
  vectorWeight: number = ranking.vectorWeight,
): Promise<ScoredHits> {
  const reader = target.reader();
  const nearest = await reader.nearest(query, { limit });
  const found = new Set(lexical.hits.map((h) => h.id));
  const extra = await reader.chunkHits(nearest.map((n) => n.id).filter((id) => !found.has(id)));
  const hits = [...lexical.hits, ...extra];
  const cosine = await reader.similarities(
    query,
    hits.map((h) => h.id),
  );
  const similarity = hits.map((h) => cosine.get(h.id) ?? 0);
  const lexicalRaw = [...lexical.raw, ...extra.map(() => 0)];
  let fused: number[];
  if (ranking.fusion === 'rrf') {
    const order = (scores: readonly number[]) =>
      hits
        .map((h, i) => ({ id: String(h.id), score: scores[i] ?? 0 }))
        .filter((e) => e.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((e) => e.id);
    const rrf = new Map(
      reciprocalRankFusion([order(lexicalRaw), order(similarity)], { k: ranking.rrfK }).map((f) => [f.id, f.score]),
    );
    fused = hits.map((h) => rrf.get(String(h.id)) ?? 0);
  } else {
    fused = convexFusion(shareOfBest(lexicalRaw), shareOfBest(similarity), { weight: vectorWeight });
  }
  return { hits, raw: fused, covered: [...lexical.covered, ...extra.map(() => 0)] };
}

/** The question's vector in one library (see {@link questionVector}). */
export interface QuestionVector {
  /** The nearest sections none of the phrasings' lexical lists holds. */
  readonly extra: readonly ChunkHit[];
  /** Section id → cosine similarity to the question, as a share of the best (below 0 counts as 0). */
  readonly similarity: ReadonlyMap<number, number>;
}

/**
 * What the question's vector says in a library: the `limit` sections nearest
 * it that no phrasing found (`found`: the ids the phrasings' lexical lists
 * hold), and the similarity of every candidate, those and these.
 */
export async function questionVector(
  target: Target,
  found: readonly number[],
  query: Float32Array,
  limit: number,
): Promise<QuestionVector> {
  const reader = target.reader();
  const nearest = await reader.nearest(query, { limit });
  const seen = new Set(found);
  const extra = await reader.chunkHits(nearest.map((n) => n.id).filter((id) => !seen.has(id)));
  const ids = [...seen, ...extra.map((h) => h.id)];
  const cosine = await reader.similarities(query, ids);
  const shares = shareOfBest(ids.map((id) => cosine.get(id) ?? 0));
  return { extra, similarity: new Map(ids.map((id, i) => [id, shares[i] ?? 0])) };
}

/**
 * Each score as a share of the best, with 0 as the bottom of the scale
 * (negative scores count as 0); all zero when none is above 0, where
 * min-max would call every one of them the best.
 */
export function shareOfBest(scores: readonly number[]): number[] {
  const positive = scores.map((s) => Math.max(0, s));
  if (!positive.some((s) => s > 0)) return positive.map(() => 0);
  return minMaxNormalize(positive, { floor: 0 });
}
