import { headingTrail } from './heading-trail.js';
import { heldShare } from './idf.js';
import type { Confidence, DocResult } from './results.js';

interface Asked {
  readonly terms: readonly string[];
}

/** The confidence of a first page of results, and the strength of each phrasing on it. */
export function confidenceOf(
  page: ReadonlyArray<{ readonly held: ReadonlyArray<readonly number[] | undefined> }>,
  phrasings: readonly Asked[],
  information: readonly (readonly number[])[],
  mentioned: (phrasing: number, term: number) => boolean,
  weakBelow: number,
): Confidence & { readonly byPhrasing: readonly number[] } {
  const byPhrasing = phrasings.map((_, i) =>
    page.reduce((best, g) => {
      const held = g.held[i];
      return held === undefined ? best : Math.max(best, heldShare(information[i] ?? [], held));
    }, 0),
  );
  // The question is the topic; an alternative is a guess at the docs' words, and a short guess
  // (two common words) is easily held in full by docs that do not answer the question.
  const strength = byPhrasing[0] ?? 0;
  const topic = phrasings[0]?.terms ?? [];
  const found = new Set(page.flatMap((g) => g.held[0] ?? []));
  return {
    strength,
    weak: strength < weakBelow,
    missing: topic.filter((_, t) => !found.has(t)),
    unmentioned: topic.filter((_, t) => !mentioned(0, t)),
    byPhrasing,
  };
}

/** One plain sentence for a weak answer: which words the docs lack, and what came closest. */
export function weakNote(confidence: Confidence, closest: DocResult): string {
  const where = `closest: ${closest.library} · ${headingTrail(closest).join(' > ')}`;
  // A few words name the gap; a pasted page's every unmatched word would bury the answer's first line.
  const shown = 5;
  const quoted = (words: readonly string[]) =>
    words
      .slice(0, shown)
      .map((w) => `"${w}"`)
      .join(', ') + (words.length > shown ? ` and ${words.length - shown} more words` : '');
  if (confidence.unmentioned.length > 0) return `No section mentions ${quoted(confidence.unmentioned)}; ${where}`;
  const part = `${Math.round(confidence.strength * 100)}%`;
  const missing = confidence.missing.length > 0 ? `; missing ${quoted(confidence.missing)}` : '';
  return `Weak match: the best results hold ${part} of the question${missing}; ${where}`;
}
