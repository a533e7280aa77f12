import { SEARCH_DEFAULTS } from '@docs/search';

// What an agent gets at each token budget: how often the answer (the full format, what get_docs sends) holds a
// correct section, and how many tokens the answers take. The figures the default budget is chosen from.

/** The budgets `--budgets 1000,2000,4000` names; the default budget alone when the flag is absent. */
export function parseBudgets(flag: string | undefined): number[] {
  if (flag === undefined) return [SEARCH_DEFAULTS.tokens];
  const budgets = flag.split(',').map((part) => Number(part.trim()));
  if (budgets.length === 0 || budgets.some((b) => !Number.isInteger(b) || b < 1)) {
    throw new Error(`--budgets takes whole numbers of tokens separated by commas, e.g. 1000,2000,4000; got "${flag}"`);
  }
  return [...new Set(budgets)].sort((a, b) => a - b);
}

/** Per budget, whether each question's answer held a correct section, and the tokens it took. */
export class AnswerSizes {
  readonly #rows = new Map<number, { held: number; n: number; tokens: number[] }>();

  record(budget: number, held: boolean, tokens: number): void {
    const row = this.#rows.get(budget) ?? { held: 0, n: 0, tokens: [] };
    row.held += held ? 1 : 0;
    row.n += 1;
    row.tokens.push(tokens);
    this.#rows.set(budget, row);
  }

  /**
   * One line per budget: `correct section inside the answer (full format), dev: 2,000 tokens (default) 58/60 = 96.7%;
   * answer tokens median 1,790, p95 1,990`.
   */
  lines(set: string, what = 'correct section'): string[] {
    const lines: string[] = [];
    for (const [budget, row] of [...this.#rows].sort(([a], [b]) => a - b)) {
      const sorted = [...row.tokens].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] ?? 0;
      const label = `${budget.toLocaleString('en')} tokens${budget === SEARCH_DEFAULTS.tokens ? ' (default)' : ''}`;
      lines.push(
        `${what} inside the answer (full format), ${set}, ${label.padEnd(22)} ${row.held}/${row.n} = ${((100 * row.held) / row.n).toFixed(1)}%; answer tokens median ${at(0.5).toLocaleString('en')}, p95 ${at(0.95).toLocaleString('en')}`,
      );
    }
    return lines;
  }
}
