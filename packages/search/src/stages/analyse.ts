import type { ResolvedOptions } from '../options.js';
import { type AnalyzedQuery, analyzeQuery } from '../query.js';

/** One phrasing of the question: the topic as asked, or an alternative. */
export interface Phrasing {
  readonly text: string;
  readonly terms: readonly string[];
  /** How much its matches count beside the others' (the topic weighs most). */
  readonly weight: number;
}

/** The question as the later stages read it: the topic, its terms, every phrasing's, and what the caps cut. */
export interface AnalysedQuestion {
  readonly topic: string;
  /** The topic's terms. */
  readonly terms: readonly string[];
  /** The topic first, then each alternative. */
  readonly phrasings: readonly Phrasing[];
  /** What the caps cut from the topic, as the answer says it. */
  readonly warnings: readonly string[];
}

/**
 * Stage 1: each phrasing's words as searched. The topic is cut to the caps
 * (`maxTopicChars`, `maxTerms`) and the answer says what was cut; the
 * alternatives weigh `alternativeWeight` beside it.
 */
export function analyse(
  texts: readonly string[],
  options: ResolvedOptions,
  analysis: { alsoDrop?: readonly string[] },
): AnalysedQuestion {
  const topic = texts[0] ?? '';
  const capped = { ...analysis, maxChars: options.maxTopicChars, maxTerms: options.maxTerms };
  const analyzedTopic = analyzeQuery(topic, capped);
  const phrasings: Phrasing[] = texts.map((text, i) => ({
    text,
    terms: i === 0 ? analyzedTopic.terms : analyzeQuery(text, capped).terms,
    weight: i === 0 ? 1 : options.alternativeWeight,
  }));
  return { topic, terms: analyzedTopic.terms, phrasings, warnings: capWarnings(analyzedTopic.cut, options) };
}

/** What the answer says when the caps cut the query: what was cut, and the cap. */
function capWarnings(cut: AnalyzedQuery['cut'], options: ResolvedOptions): string[] {
  const warnings: string[] = [];
  if (cut?.chars) {
    warnings.push(
      `The topic was cut to its first ${options.maxTopicChars} characters (the cap; ${cut.chars} more were left out).`,
    );
  }
  if (cut?.terms) {
    warnings.push(`Searched the first ${options.maxTerms} words only (the cap; ${cut.terms} more were left out).`);
  }
  return warnings;
}
