/**
 * Edit distance counting an insertion, deletion, substitution or swap of two
 * neighbouring letters as one edit (optimal string alignment): "alpah" is
 * one typo away from "alpha", not two.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] ?? 0;
}

/**
 * The candidate closest to `wanted`: one that contains it or is contained in
 * it, else the smallest edit distance within a third of the longer name.
 */
export function closestName(wanted: string, candidates: readonly string[]): string | undefined {
  const w = wanted.toLowerCase();
  const containing = candidates.find((c) => c.toLowerCase().includes(w) || w.includes(c.toLowerCase()));
  if (containing && w.length >= 2) return containing;
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    const distance = editDistance(w, c.toLowerCase());
    if (distance <= Math.max(1, Math.floor(Math.max(w.length, c.length) / 3)) && (!best || distance < best.distance)) {
      best = { name: c, distance };
    }
  }
  return best?.name;
}
