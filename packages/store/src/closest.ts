/** Levenshtein distance, for "did you mean" suggestions over a handful of names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
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
