import type { CatalogEntry, InstalledPackage, PackageStore, Term } from '@docs/store';
import type { RetrievalMode } from '../options.js';
import { noHits, type PhrasingHits } from './hits.js';

/** What the store's catalog says of one library and one phrasing's terms (see CatalogEntry). */
export interface KnownTerms {
  readonly chunks: number;
  /** For each term: false when no chunk of the library can match it. */
  readonly holds: readonly boolean[];
  /** For each term, how many chunks hold it, where the catalog knows exactly. */
  readonly frequencies: readonly (number | undefined)[];
}

/** What the catalog says of each library, for each phrasing (by file, then phrasing). */
export type CatalogKnowledge = ReadonlyMap<
  string,
  {
    readonly phrasings: KnownTerms[];
    /** It holds none of the terms: searching it finds nothing. */
    readonly skip: boolean;
    /** The catalog knows how many chunks hold each term, and its answer could only be lexical. */
    readonly exact: boolean;
  }
>;

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
  const result = new Map<string, { phrasings: KnownTerms[]; skip: boolean; exact: boolean }>();
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
    result.set(file, { phrasings: known, skip, exact });
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
