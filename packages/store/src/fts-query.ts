import type { FtsColumn } from './schema.js';

// FTS5 query expressions, made from terms a user typed. Every term is quoted, so no text is ever read as FTS5
// syntax: operators, quotes and punctuation are just words, and a query cannot be an FTS5 syntax error.

/**
 * One thing to look for: a word or phrase, or alternatives any of which will
 * do (`['httpx.connecttimeout', 'connecttimeout']`).
 */
export type Term = string | readonly string[];

/**
 * Words to look for. The store quotes every term, so no text a user types is
 * ever read as FTS5 syntax: operators, quotes and punctuation are just words.
 */
export interface TermQuery {
  readonly terms: readonly Term[];
  /** "all": every term must occur; "any": at least one. */
  readonly mode: 'all' | 'any';
}

/** bm25() weight of each indexed column; a larger weight makes matches there count more. */
export interface ColumnWeights {
  /** @default 1 */
  readonly title?: number;
  /** @default 1 */
  readonly headings?: number;
  /** @default 1 */
  readonly heading?: number;
  /** @default 1 */
  readonly body?: number;
}

/** Every column's weight, the defaults filled in. */
export function columnWeights(weights: ColumnWeights = {}): Required<ColumnWeights> {
  return {
    title: weights.title ?? 1,
    headings: weights.headings ?? 1,
    heading: weights.heading ?? 1,
    body: weights.body ?? 1,
  };
}

/** Quotes a phrase as an FTS5 string: inside double quotes only `"` is special, and it is doubled. */
export function ftsString(phrase: string): string {
  return `"${phrase.replaceAll('"', '""')}"`;
}

/** A term's alternatives that hold more than spaces: the phrases its FTS5 expression is made of. */
export function phrasesOf(term: Term): string[] {
  return (typeof term === 'string' ? [term] : term).filter((t) => t.trim() !== '');
}

/** A term's alternatives as one FTS5 expression, or undefined if it has no words. */
export function termExpression(term: Term): string | undefined {
  const alternatives = phrasesOf(term);
  if (alternatives.length === 0) return undefined;
  const quoted = alternatives.map(ftsString);
  return quoted.length === 1 ? quoted[0] : `(${quoted.join(' OR ')})`;
}

/** An expression matched in one indexed column only. Column names come from the FtsColumn type, never from input. */
export function columnExpression(column: FtsColumn, expression: string): string {
  return `${column} : (${expression})`;
}

/**
 * The FTS5 MATCH expression for a query; undefined when there is nothing to look for.
 *
 * @example
 * matchExpression({ terms: ['vi.mock', ['timeout', 'timeouts']], mode: 'all' });
 * // → '"vi.mock" AND ("timeout" OR "timeouts")'
 */
export function matchExpression(query: TermQuery): string | undefined {
  const parts = query.terms.map(termExpression).filter((e): e is string => e !== undefined);
  if (parts.length === 0) return undefined;
  return parts.join(query.mode === 'all' ? ' AND ' : ' OR ');
}
