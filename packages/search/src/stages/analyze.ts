import type { Term } from '@docs/store';
import { analyzeQuery, capWarnings, type QueryCaps } from '../query.js';
import type { RankingConfig } from '../ranking.js';
import { STOP_WORDS } from '../stop-words.js';
import { termAlternatives } from '../terms.js';

/** One phrasing of the question: the topic as asked, or an alternative. */
export interface Phrasing {
  readonly text: string;
  readonly terms: readonly string[];
  /** What each term matches in the index: itself, a dotted name's last part, and its synonyms when they are on. */
  readonly searched: readonly Term[];
  /** The same without synonyms: what a section holds when it holds the word itself. */
  readonly exact: readonly Term[];
  /** How much its matches count beside the others' (the topic weighs most). */
  readonly weight: number;
  /**
   * The terms (indices) that are stop words searched because the library names an API by them (api-words.ts): each
   * counts only in a section whose heading names it, not wherever the word is said.
   */
  readonly apiWords: readonly number[];
}

/** The question as the later stages read it: the topic, its terms, every phrasing's, and what the caps cut. */
export interface AnalyzedQuestion {
  readonly topic: string;
  /** The topic's terms. */
  readonly terms: readonly string[];
  /** The topic first, then each alternative. */
  readonly phrasings: readonly Phrasing[];
  /** What the caps cut from the topic, as the answer says it. */
  readonly warnings: readonly string[];
}

/**
 * Stage 1: each phrasing's words as searched, and what each matches. The topic
 * is cut to the caps (`maxTopicChars`, `maxTerms`) and the answer says what was
 * cut; the alternatives weigh `alternativeWeight` beside it. `alsoKeep` are
 * stop words searched all the same (see api-words.ts).
 */
export function analyzeQuestion(
  texts: readonly string[],
  ranking: RankingConfig,
  analysis: { readonly alsoDrop?: readonly string[] | undefined; readonly alsoKeep?: readonly string[] | undefined },
): AnalyzedQuestion {
  const topic = texts[0] ?? '';
  const caps: QueryCaps = { maxChars: ranking.maxTopicChars, maxTerms: ranking.maxTerms };
  const capped = {
    ...(analysis.alsoDrop ? { alsoDrop: analysis.alsoDrop } : {}),
    ...(analysis.alsoKeep ? { alsoKeep: analysis.alsoKeep } : {}),
    ...caps,
  };
  const analyzedTopic = analyzeQuery(topic, capped);
  const kept = new Set(analysis.alsoKeep);
  const phrasings: Phrasing[] = texts.map((text, i) => {
    const terms = i === 0 ? analyzedTopic.terms : analyzeQuery(text, capped).terms;
    const apiWords = terms.flatMap((w, t) => (kept.has(w) && STOP_WORDS.has(w) ? [t] : []));
    return {
      // A question of nothing but such words searches them as words (as one of nothing but stop words does).
      apiWords: apiWords.length < terms.length ? apiWords : [],
      text,
      terms,
      searched: terms.map((w) => termAlternatives(w, { synonyms: ranking.synonyms })),
      exact: terms.map((w) => termAlternatives(w, { synonyms: false })),
      weight: i === 0 ? 1 : ranking.alternativeWeight,
    };
  });
  return { topic, terms: analyzedTopic.terms, phrasings, warnings: capWarnings(analyzedTopic.cut, caps) };
}

/** The stop words the phrasings' analysis drops (not the library's name), each once: what api-words.ts may keep. */
export function droppedStopWords(texts: readonly string[], ranking: RankingConfig): string[] {
  const caps: QueryCaps = { maxChars: ranking.maxTopicChars, maxTerms: ranking.maxTerms };
  return [...new Set(texts.flatMap((text) => analyzeQuery(text, caps).dropped.filter((w) => STOP_WORDS.has(w))))];
}
