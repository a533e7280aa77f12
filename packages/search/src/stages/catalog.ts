import type { CatalogEntry, InstalledPackage, PackageStore, Term } from '@docs/store';
import type { RetrievalMode } from '../options.js';
import { noHits, type PhrasingHits } from './hits.js';
import { isUnreadable, type Target } from './target.js';

/** What the store's catalog says of one library and one phrasing's terms (see CatalogEntry). */
export interface KnownTerms {
  readonly chunks: number;
  /** For each term: false when no chunk of the library can match it. */
  readonly holds: readonly boolean[];
  /** For each term, how many chunks hold it, where the catalog knows exactly. */
  readonly frequencies: readonly (number | undefined)[];
}

/** What the catalog says of one library, for each phrasing. */
interface LibraryKnowledge {
  readonly phrasings: KnownTerms[];
  /** It holds none of the terms: searching it finds nothing. */
  readonly skip: boolean;
  /** Its answer could only be lexical: no vectors take part. */
  readonly lexicalOnly: boolean;
  /** The catalog knows how many chunks hold each term, and its answer could only be lexical. */
  readonly exact: boolean;
}

/** What the catalog says of each library, for each phrasing (by file, then phrasing). */
export type CatalogKnowledge = ReadonlyMap<string, LibraryKnowledge>;

/**
 * What the store's catalog knows of each library and each phrasing's terms,
 * and which libraries a search may answer without opening them: those that
 * hold none of the terms of any phrasing and whose answer could not come from
 * vectors either. A library with vectors is skipped only when vectors take no
 * part (mode `lexical`), and none is skipped in mode `hybrid`, whose answer
 * notes each library that answered lexically.
 */
export async function catalogKnowledge(
  store: PackageStore,
  packages: readonly InstalledPackage[],
  phrasings: readonly (readonly Term[])[],
  mode: RetrievalMode | undefined,
): Promise<CatalogKnowledge> {
  const result = new Map<string, LibraryKnowledge>();
  const entries = await store.catalogEntries(packages, phrasings.flat());
  for (const [file, entry] of entries) {
    let at = 0;
    const known = phrasings.map((terms) => {
      const slice = { chunks: entry.chunks, ...part(entry, at, terms.length) };
      at += terms.length;
      return slice;
    });
    const lexicalOnly = mode !== 'hybrid' && (!entry.vectors || mode === 'lexical');
    const skip = lexicalOnly && !entry.holds.some(Boolean);
    const exact = lexicalOnly && entry.frequencies.every((f) => f !== undefined);
    result.set(file, { phrasings: known, skip, lexicalOnly, exact });
  }
  return result;
}

/**
 * The knowledge made exact, for each library whose answer could only be lexical but some of whose term counts the
 * catalog cannot know: a term with several forms (synonyms, a dotted name's last part) is held by the chunks holding
 * any of them, and a form of several tokens by the chunks holding them in a row, neither of which the catalog's
 * per-token counts tell. Those counts are read from the library's own index (`termStatistics`, the one pass scoring
 * it makes too), which costs a fraction of scoring it: the library can then be deferred like one the catalog knows,
 * since what it stands in with (its counts, which every library's information weights add up) is what scoring it
 * finds. Only the libraries `worthCounting` (bounds.ts) are read. A library that cannot be read is left as it was:
 * scoring it says what is wrong.
 */
export async function countedExactly(
  targets: readonly Target[],
  phrasings: readonly (readonly Term[])[],
  known: CatalogKnowledge,
  worthCounting: ReadonlySet<string>,
): Promise<CatalogKnowledge> {
  const result = new Map(known);
  for (const target of targets) {
    if (!worthCounting.has(target.pkg.file)) continue;
    const knowledge = known.get(target.pkg.file);
    if (!knowledge || knowledge.skip || knowledge.exact || !knowledge.lexicalOnly) continue;
    // The terms, once each, whose count the catalog does not know though the library may hold them.
    const unknown = new Map<string, Term>();
    for (const [p, terms] of phrasings.entries()) {
      const k = knowledge.phrasings[p];
      for (const [t, term] of terms.entries())
        if (k?.holds[t] === true && k.frequencies[t] === undefined) unknown.set(JSON.stringify(term), term);
    }
    let counts: Map<string, number>;
    try {
      const asked = [...unknown.values()];
      const { frequencies } = await target.reader().termStatistics(asked, []);
      counts = new Map([...unknown.keys()].map((key, i) => [key, frequencies[i] ?? 0]));
    } catch (error) {
      // Scored, it is left out with a warning naming what is wrong, as gather leaves out any it cannot read.
      if (isUnreadable(error)) continue;
      throw error;
    }
    const phrasingsKnown = knowledge.phrasings.map((k, p) => ({
      ...k,
      frequencies: k.frequencies.map((f, t) =>
        f !== undefined || !k.holds[t] ? f : counts.get(JSON.stringify(phrasings[p]?.[t])),
      ),
    }));
    result.set(target.pkg.file, { ...knowledge, phrasings: phrasingsKnown, exact: true });
  }
  return result;
}

function part(entry: CatalogEntry, start: number, length: number): Omit<KnownTerms, 'chunks'> {
  return {
    holds: entry.holds.slice(start, start + length),
    frequencies: entry.frequencies.slice(start, start + length),
  };
}

/** What searching a library that holds none of the words finds, for each phrasing: nothing, and its chunk count. */
export function unopened(
  phrasings: readonly { readonly terms: readonly string[] }[],
  known: readonly KnownTerms[],
): PhrasingHits[] {
  return phrasings.map((p, i) =>
    p.terms.length === 0 ? noHits() : noHits({ frequencies: p.terms.map(() => 0), chunks: known[i]?.chunks ?? 0 }),
  );
}

/** A deferred library's counts, from the catalog, and nothing found (it will not be searched unless it might matter). */
export function catalogued(words: readonly string[], known: KnownTerms | undefined): PhrasingHits {
  if (words.length === 0) return noHits();
  return noHits({ frequencies: words.map((_, t) => known?.frequencies[t] ?? 0), chunks: known?.chunks ?? 0 });
}
