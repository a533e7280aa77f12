import { rerank } from '@docs/rank';
import { type ChunkHit, sectionPassage } from '@docs/store';
import type { RetrievalContext } from './hybrid.js';
import { isUnavailable, type PassageReranker, type Unavailable } from './models.js';
import type { Target } from './stages/target.js';

/** What the response says of the re-ranking: the re-ranker that reordered the first results, or why none did. */
export interface RerankingInfo {
  readonly reranker: string | undefined;
  readonly notes: readonly string[];
}

/**
 * The re-ranker's part of a search, when `models` has one: whether it may
 * reorder the merged list (the bounds on what a library could change do not
 * foresee it), reordering the list's head, and what the response says of it.
 * One per search.
 */
export class Reranking {
  /** The topic: what a re-ranker reads beside each passage. */
  readonly #topic: string;
  readonly #context: RetrievalContext;
  readonly #notes: string[] = [];
  #reranker: string | undefined;

  /** `topic` as the embedder reads it (cut to the caps). */
  constructor(topic: string, context: RetrievalContext) {
    this.#topic = topic;
    this.#context = context;
  }

  /**
   * Whether {@link rerank} may reorder a list: a re-ranker is wanted,
   * configured, and opens (a configured one is opened here, as rerank would).
   * `rerankCandidates`: how many of the first results it would reorder.
   */
  async mayRerank(rerankCandidates: number): Promise<boolean> {
    const { models, rerank: wanted } = this.#context;
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
   * work as before, on the re-ranker's order. `rerankCandidates`: how many of the first it reorders.
   */
  async rerank<T extends { readonly score: number; readonly target: Target; readonly hit: ChunkHit }>(
    ranked: readonly T[],
    rerankCandidates: number,
  ): Promise<T[]> {
    const { models, rerank: wanted } = this.#context;
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

  /** What the response says of it. */
  info(): RerankingInfo {
    return { reranker: this.#reranker, notes: [...this.#notes] };
  }

  #note(note: string): void {
    if (!this.#notes.includes(note)) this.#notes.push(note);
  }

  #signalOption(): { signal?: AbortSignal } {
    return this.#context.signal ? { signal: this.#context.signal } : {};
  }
}

/** The passage a re-ranker reads for each candidate: its place in the docs, then its text. */
async function passagesOf(
  candidates: readonly { readonly target: Target; readonly hit: ChunkHit }[],
): Promise<string[]> {
  const idsByTarget = new Map<Target, number[]>();
  for (const c of candidates) idsByTarget.set(c.target, [...(idsByTarget.get(c.target) ?? []), c.hit.id]);
  const contents = new Map<Target, Map<number, string>>();
  for (const [target, ids] of idsByTarget) contents.set(target, await target.reader().chunkContents(ids));
  return candidates.map((c) =>
    sectionPassage({
      title: c.hit.title,
      breadcrumb: c.hit.breadcrumb,
      content: contents.get(c.target)?.get(c.hit.id) ?? '',
    }),
  );
}
