// Scoring by content, for a project's questions: no labelled section, only what a right answer must say.
import { type DocResult, headingTrail } from '@docs/search';
import { parsePackageSpec } from '@docs/store';

/** What a right answer is: a result of this library whose heading trail and content match the pattern. */
export interface Expectation {
  /** The library's name, without a version (`@tanstack/query-core`). */
  readonly library: string;
  /** A regular expression, matched case-insensitively against the result's heading trail and content. */
  readonly pattern: string;
}

/** How a question is worded: names an API, gives a few keywords, or says a task in plain words. */
export type QuestionKind = 'api' | 'keyword' | 'natural';

/** One line of a project's questions file. */
export interface ProjectQuestion {
  readonly id: string;
  readonly question: string;
  /** The library it is asked of (`getDocs`); absent for a question asked of every library (`searchAll`). */
  readonly library?: string;
  readonly expect: Expectation;
  readonly kind: QuestionKind;
}

/** A question's score: where its first right result is, and what the answer cost. */
export interface Scored {
  /** 1-based rank of the first right result, or null when none of the answer's results is right. */
  readonly rank: number | null;
  /** Tokens of the answer's content. */
  readonly tokens: number;
}

/** The figures of a group of questions. */
export interface ProjectSummary {
  readonly n: number;
  /** Mean of 1/rank over the questions, counting a rank over 5 (or none) as 0. */
  readonly mrr5: number;
  readonly hit1: number;
  readonly hit3: number;
  /** Share of questions with a right result anywhere in the answer. */
  readonly found: number;
  readonly tokensMedian: number;
  readonly tokensMean: number;
}

/** A result's heading trail, from the page title down, as one line (`Mocking > Timers`). */
export function trailOf(result: Pick<DocResult, 'title' | 'breadcrumb'>): string {
  return headingTrail(result).join(' > ');
}

/**
 * The rank (1-based) of the first result that is right: its library is the expected one (any version, any case) and
 * the pattern matches its heading trail, the trails of the sections joined into it, or its content. Null when none is.
 *
 * @example
 * rankOf(response.results, { library: 'express', pattern: String.raw`res\.cookie` }); // 2, or null
 */
export function rankOf(results: readonly DocResult[], expect: Expectation): number | null {
  const pattern = new RegExp(expect.pattern, 'i');
  const library = expect.library.toLowerCase();
  const index = results.findIndex((r) => {
    if (parsePackageSpec(r.library).name.toLowerCase() !== library) return false;
    const trails = [headingTrail(r), ...(r.sections ?? [])].map((t) => t.join(' > '));
    return pattern.test(`${trails.join('\n')}\n${r.content ?? ''}`);
  });
  return index < 0 ? null : index + 1;
}

/** MRR@5, hit@1, hit@3, the share found at all, and the median and mean tokens of the answers. */
export function summarise(scores: readonly Scored[]): ProjectSummary {
  const n = scores.length;
  const share = (hit: (s: Scored) => boolean) => (n === 0 ? 0 : scores.filter(hit).length / n);
  const within = (k: number) => (s: Scored) => s.rank !== null && s.rank <= k;
  const tokens = scores.map((s) => s.tokens).sort((a, b) => a - b);
  const middle = Math.floor(n / 2);
  return {
    n,
    mrr5: n === 0 ? 0 : scores.reduce((sum, s) => sum + (within(5)(s) ? 1 / (s.rank as number) : 0), 0) / n,
    hit1: share(within(1)),
    hit3: share(within(3)),
    found: share((s) => s.rank !== null),
    tokensMedian:
      n === 0
        ? 0
        : n % 2 === 1
          ? (tokens[middle] as number)
          : ((tokens[middle - 1] as number) + (tokens[middle] as number)) / 2,
    tokensMean: n === 0 ? 0 : tokens.reduce((sum, t) => sum + t, 0) / n,
  };
}

const KINDS: readonly QuestionKind[] = ['api', 'keyword', 'natural'];

/**
 * A project's questions file, one JSON object a line, each checked: a line that is not a question (a missing field,
 * a pattern that is not a regular expression, an unknown kind, an id given twice) is refused with its line number.
 */
export function parseQuestions(text: string, file: string): ProjectQuestion[] {
  const seen = new Set<string>();
  const questions: ProjectQuestion[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const where = `${file}:${index + 1}`;
    let q: Partial<ProjectQuestion>;
    try {
      q = JSON.parse(line) as Partial<ProjectQuestion>;
    } catch (error) {
      throw new Error(`${where}: not JSON (${(error as Error).message})`);
    }
    const given = (value: unknown) => typeof value === 'string' && value.trim() !== '';
    if (!given(q.id) || !given(q.question) || !given(q.expect?.library) || !given(q.expect?.pattern)) {
      throw new Error(`${where}: a question needs "id", "question" and "expect": {"library", "pattern"}`);
    }
    if (q.library !== undefined && !given(q.library)) throw new Error(`${where}: "library" must be a name when given`);
    if (!KINDS.includes(q.kind as QuestionKind)) throw new Error(`${where}: "kind" must be one of ${KINDS.join(', ')}`);
    try {
      new RegExp(q.expect?.pattern as string, 'i');
    } catch (error) {
      throw new Error(`${where}: "expect.pattern" is not a regular expression (${(error as Error).message})`);
    }
    if (seen.has(q.id as string)) throw new Error(`${where}: the id "${q.id}" is used twice`);
    seen.add(q.id as string);
    questions.push(q as ProjectQuestion);
  }
  return questions;
}
