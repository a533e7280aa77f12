// Page-level metrics of the external benchmark (docs-mcp-server's search-eval):
// a result counts by its page (library + path); repeats of a page use up ranks,
// as in the original harness.

/** A labelled page: path relative to the library's folder, grade 1–3. */
export interface GradedPage {
  readonly path: string;
  readonly grade: number;
}

export interface PageScore {
  readonly mrr5: number;
  readonly mrr10: number;
  readonly ndcg5: number;
  readonly hit5: number;
  readonly recall5: number;
}

/** A page's key: no leading ./ or /, fragment, markdown/html extension, or trailing /index. */
export function pageKey(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/#.*$/, '')
    .replace(/^(\.\/|\/)+/, '')
    .replace(/\.(md|mdx|rst|txt|html)$/i, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\/+$/, '');
}

/** MRR@5/10, nDCG@5 (gain 2^grade − 1, a page counted at its first position), Hit@5 and Recall@5 over distinct pages. */
export function scorePages(gold: readonly GradedPage[], rankedPaths: readonly string[]): PageScore {
  const relevant = new Map<string, number>();
  for (const g of gold) {
    if (g.grade < 1) continue;
    const key = pageKey(g.path);
    relevant.set(key, Math.max(relevant.get(key) ?? 0, g.grade));
  }
  const ranked = rankedPaths.map(pageKey);
  const firstHit = ranked.findIndex((k) => relevant.has(k));
  const mrrAt = (k: number) => (firstHit !== -1 && firstHit < k ? 1 / (firstHit + 1) : 0);
  const top5 = ranked.slice(0, 5);
  const counted = new Set<string>();
  let dcg = 0;
  top5.forEach((key, i) => {
    if (counted.has(key)) return;
    counted.add(key);
    dcg += (2 ** (relevant.get(key) ?? 0) - 1) / Math.log2(i + 2);
  });
  const idcg = [...relevant.values()]
    .sort((a, b) => b - a)
    .slice(0, 5)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const found = new Set(top5.filter((k) => relevant.has(k)));
  return {
    mrr5: mrrAt(5),
    mrr10: mrrAt(10),
    ndcg5: idcg > 0 ? dcg / idcg : 0,
    hit5: found.size > 0 ? 1 : 0,
    recall5: relevant.size > 0 ? found.size / relevant.size : 0,
  };
}
