import path from 'node:path';
import { convexFusion, minMaxNormalize, reciprocalRankFusion, rerank } from '@docs/rank';
import {
  type ChunkHit,
  type InstalledPackage,
  type PackageReader,
  readVectorWork,
  sectionPassage,
  type VectorWork,
  vectorWorkOf,
} from '@docs/store';
import { isUnavailable, type PassageReranker, type QueryEmbedder, type Unavailable } from './models.js';
import type { ResolvedOptions } from './options.js';
import type { RetrievalInfo } from './results.js';

/** A library being searched, as the hybrid stage sees it. */
export interface HybridTarget {
  readonly pkg: InstalledPackage;
  readonly label: string;
  readonly reader: () => PackageReader;
}

/** A library's lexical candidates: hits, their within-library scores, and how many query terms each holds. */
export interface ScoredHits {
  readonly hits: readonly ChunkHit[];
  readonly raw: readonly number[];
  readonly covered: readonly number[];
}

/**
 * Decides, library by library, whether vectors take part, and keeps what
 * the response says about it. One per search: the question's phrasings (the
 * topic first, then each alternative) are embedded once per embedder, in one
 * batch, however many libraries share it.
 */
export class Retrieval {
  readonly #texts: readonly string[];
  /** The topic: what a re-ranker reads beside each passage. */
  readonly #topic: string;
  readonly #options: ResolvedOptions;
  readonly #embedders = new Map<string, Promise<QueryEmbedder | Unavailable>>();
  readonly #vectors = new Map<string, Promise<Float32Array[] | Unavailable>>();
  readonly #notes: string[] = [];
  readonly #usedEmbedders = new Set<string>();
  /** Each store folder's background vector worker status, read once per search. */
  readonly #work = new Map<string, Promise<VectorWork | undefined>>();
  #reranker: string | undefined;

  /** `texts`: the phrasings as the embedder reads them, the topic first. */
  constructor(texts: readonly string[], options: ResolvedOptions) {
    this.#texts = texts.length > 0 ? texts : [''];
    this.#topic = this.#texts[0] as string;
    this.#options = options;
  }

  /**
   * Phrasing `phrasing`'s vector (0, the topic, by default) for a library, when
   * its package has vectors and the embedder that made them is here;
   * otherwise undefined, and the response will say why the library answered
   * lexically.
   */
  async queryVector(target: HybridTarget, phrasing = 0): Promise<Float32Array | undefined> {
    const { mode, models } = this.#options;
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
      vectors = embedQueries(found, this.#texts, this.#options.signal);
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

  /**
   * Whether {@link rerank} may reorder a list: a re-ranker is wanted,
   * configured, and opens (a configured one is opened here, as rerank would).
   */
  async mayRerank(): Promise<boolean> {
    const { models, rerank: wanted, rerankCandidates } = this.#options;
    if (!models || !wanted || rerankCandidates < 2) return false;
    try {
      const reranker = await models.reranker();
      return reranker !== undefined && !isUnavailable(reranker);
    } catch {
      // rerank asks again, and notes why there was no re-ranking.
      return false;
    }
  }

  /**
   * Reorders the head of the merged list by the re-ranker's scores, when one
   * is configured: each position keeps its score, so the drop and the budget
   * work as before, on the re-ranker's order.
   */
  async rerank<T extends { readonly score: number; readonly target: HybridTarget; readonly hit: ChunkHit }>(
    ranked: readonly T[],
  ): Promise<T[]> {
    const { models, rerank: wanted, rerankCandidates } = this.#options;
    if (!models || !wanted || ranked.length < 2 || rerankCandidates < 2) return [...ranked];
    let reranker: PassageReranker | Unavailable | undefined;
    try {
      reranker = await models.reranker();
    } catch (error) {
      reranker = { unavailable: (error as Error).message };
    }
    if (reranker === undefined) return [...ranked];
    if (isUnavailable(reranker)) {
      this.#note(`no re-ranking: ${reranker.unavailable}`);
      return [...ranked];
    }
    const head = ranked.slice(0, rerankCandidates);
    const passages = await passagesOf(head);
    let scores: number[];
    try {
      scores = await reranker.score(this.#topic, passages, this.#signalOption());
    } catch (error) {
      this.#note(`no re-ranking: ${reranker.id} failed: ${(error as Error).message}`);
      return [...ranked];
    }
    if (scores.length !== head.length) {
      this.#note(`no re-ranking: ${reranker.id} gave ${scores.length} scores for ${head.length} passages`);
      return [...ranked];
    }
    this.#reranker = reranker.id;
    const reordered = rerank(head, scores);
    return [...reordered.map((c, i) => ({ ...c, score: (head[i] as T).score })), ...ranked.slice(head.length)];
  }

  /** What answered, for the response. */
  info(): RetrievalInfo {
    const embedders = [...this.#usedEmbedders];
    return {
      mode: embedders.length > 0 ? 'hybrid' : 'lexical',
      ...(embedders.length > 0 ? { embedder: embedders.join(', ') } : {}),
      ...(this.#reranker ? { reranker: this.#reranker } : {}),
      ...(this.#notes.length > 0 ? { notes: [...this.#notes] } : {}),
    };
  }

  /** What the store's background vector worker says of a package without vectors: being made, waiting, failed. */
  async #vectorsPending(target: HybridTarget): Promise<string | undefined> {
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

  #signalOption(): { signal?: AbortSignal } {
    return this.#options.signal ? { signal: this.#options.signal } : {};
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
 * A library's candidates from both retrievers: its lexical hits and the
 * `limit` sections nearest the query vector, each scored by both (a
 * section one retriever did not find scores 0 there), fused.
 *
 * - lexical: the within-library score as the lexical stage made it, as a share of the best (BM25's zero is a zero);
 * - vector: the cosine similarity, as a share of the best (below 0 counts as 0: unrelated);
 * - fused: `convexFusion` with `vectorWeight` (the question's, or an alternative's), or reciprocal rank fusion of the two orders when `fusion` is `rrf`.
 */
export async function fuseWithVectors(
  target: HybridTarget,
  lexical: ScoredHits,
  query: Float32Array,
  limit: number,
  options: ResolvedOptions,
  vectorWeight: number = options.vectorWeight,
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
  if (options.fusion === 'rrf') {
    const order = (scores: readonly number[]) =>
      hits
        .map((h, i) => ({ id: String(h.id), score: scores[i] ?? 0 }))
        .filter((e) => e.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((e) => e.id);
    const rrf = new Map(
      reciprocalRankFusion([order(lexicalRaw), order(similarity)], { k: options.rrfK }).map((f) => [f.id, f.score]),
    );
    fused = hits.map((h) => rrf.get(String(h.id)) ?? 0);
  } else {
    fused = convexFusion(shareOfBest(lexicalRaw), shareOfBest(similarity), { weight: vectorWeight });
  }
  return { hits, raw: fused, covered: [...lexical.covered, ...extra.map(() => 0)] };
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

/** The passage a re-ranker reads for each candidate: its place in the docs, then its text. */
async function passagesOf(
  candidates: readonly { readonly target: HybridTarget; readonly hit: ChunkHit }[],
): Promise<string[]> {
  const idsByTarget = new Map<HybridTarget, number[]>();
  for (const c of candidates) idsByTarget.set(c.target, [...(idsByTarget.get(c.target) ?? []), c.hit.id]);
  const contents = new Map<HybridTarget, Map<number, string>>();
  for (const [target, ids] of idsByTarget) contents.set(target, await target.reader().chunkContents(ids));
  return candidates.map((c) =>
    sectionPassage({
      title: c.hit.title,
      breadcrumb: c.hit.breadcrumb,
      content: contents.get(c.target)?.get(c.hit.id) ?? '',
    }),
  );
}
