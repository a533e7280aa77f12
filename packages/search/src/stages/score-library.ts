import { type ChunkHit, identifierWords, indexTokens, type PackageReader, type Term, tokensContain } from '@docs/store';
import semver from 'semver';
import { headingName, sectionsNamed } from '../api-words.js';
import { type HeadingName, headingNames, wholeTrail } from '../heading-names.js';
import { isHistoryPage, isOtherEntryPointPage, isOtherVersionPage } from '../history.js';
import { questionVector, type Retrieval, withinLibrary } from '../hybrid.js';
import type { RankingConfig } from '../ranking.js';
import { type SignalContext, signalScore, withSamePage } from '../signals.js';
import { isIdentifier } from '../terms.js';
import { formsInNames, wordsByStem } from '../word-forms.js';
import type { Phrasing } from './analyze.js';
import type { KnownTerms } from './catalog.js';
import type { LexicalHits, PhrasingHits } from './hits.js';
import type { Target } from './target.js';

/**
 * Stage 3: what each phrasing finds in one library, scored by the ranking
 * signals (lexicalCandidates) and normalised within it (withinLibrary). One phrasing after another on the
 * library's one connection: SQLite work is synchronous, so running them
 * "concurrently" would only interleave. In a hybrid answer the topic's list
 * also holds the sections nearest the question's vector, and carries every
 * candidate's similarity to it: the vector is fused once per library, after
 * the phrasings (fusePhrasings), not into the topic's list, where it counted
 * fully for a section the topic led and again, on top, for one an alternative
 * led (docs/ranking.md, issue 42). An alternative is fused with its own vector
 * when `alternativeVectorWeight` is above 0 (alternatives are mostly the docs'
 * own words; embedding them measured worse on the unbiased and external sets).
 * `known` is what the store's catalog knows of the library, per phrasing.
 */
export async function scoreLibrary(
  target: Target,
  phrasings: readonly Phrasing[],
  limit: number,
  ranking: RankingConfig,
  retrieval: Retrieval,
  known: readonly KnownTerms[] | undefined,
): Promise<PhrasingHits[]> {
  const lists: PhrasingHits[] = [];
  for (const [i, phrasing] of phrasings.entries()) {
    const lexical =
      phrasing.terms.length === 0 ? undefined : await lexicalCandidates(target, phrasing, limit, ranking, known?.[i]);
    // Normalised within the library (hybrid.ts): alone, or fused with the sections nearest the phrasing's vector.
    lists.push(await withinLibrary(target, lexical, { retrieval, phrasing: i }, limit, ranking));
  }
  const topic = lists[0];
  if (topic === undefined || (phrasings[0]?.terms.length ?? 0) === 0) return lists;
  const query = await retrieval.queryVector(target, 0);
  if (query === undefined) return lists;
  const found = lists.flatMap((l) => l.list.map((c) => c.hit.id));
  const { extra, similarity } = await questionVector(target, found, query, limit);
  // The topic's words-alone score is its score, as in the one fused list a hybrid topic had: the vector part has no
  // heading boost to leave out.
  const list = [
    ...topic.list.map((c) => ({ ...c, plain: c.score })),
    ...extra.map((hit) => ({ hit, raw: 0, score: 0, plain: 0, coverage: 0, held: [] })),
  ];
  lists[0] = { ...topic, list, similarity };
  return lists;
}

/** What a library's index answers for a phrasing (matchingChunks). */
interface Matching {
  readonly hits: ChunkHit[];
  /** Per hit, the terms (indices) it holds. */
  readonly matches: Map<number, number[]>;
  /** Per term, how many chunks hold it. */
  readonly frequencies: readonly number[];
  readonly chunks: number;
}

/**
 * The chunks matching any of the terms, best BM25 first; which terms each
 * holds; and how many chunks hold each term. Asked only about the terms the
 * catalog says the library may hold: a term no chunk holds adds nothing to a
 * chunk's BM25 (its share is its count in the chunk, 0, times its weight) nor
 * to the matches, so leaving it out changes no score. When one term is left,
 * every hit holds it; its count comes from the catalog where that knows it.
 */
async function matchingChunks(
  reader: PackageReader,
  terms: readonly Term[],
  limit: number,
  ranking: RankingConfig,
  known: KnownTerms | undefined,
): Promise<Matching> {
  if (!known) {
    const hits = await reader.search({ terms, mode: 'any' }, { limit, weights: ranking.weights });
    // Which terms each hit holds, and how common each term is: one pass over each term's chunks.
    return {
      hits,
      ...(await reader.termStatistics(
        terms,
        hits.map((h) => h.id),
      )),
    };
  }
  const asked = terms.flatMap((_, t) => (known.holds[t] ? [t] : []));
  const frequencies = terms.map(() => 0);
  const chunks = known.chunks;
  if (asked.length === 0) return { hits: [], matches: new Map(), frequencies, chunks };
  const askedTerms = asked.map((t) => terms[t] as Term);
  const hits = await reader.search({ terms: askedTerms, mode: 'any' }, { limit, weights: ranking.weights });
  const only = asked.length === 1 ? (asked[0] as number) : undefined;
  const knownFrequency = only === undefined ? undefined : known.frequencies[only];
  if (only !== undefined && knownFrequency !== undefined) {
    frequencies[only] = knownFrequency;
    return { hits, matches: new Map(hits.map((h) => [h.id, [only]])), frequencies, chunks };
  }
  const statistics = await reader.termStatistics(askedTerms, only === undefined ? hits.map((h) => h.id) : []);
  for (const [i, t] of asked.entries()) frequencies[t] = statistics.frequencies[i] ?? 0;
  const matches =
    only === undefined
      ? new Map([...statistics.matches].map(([id, held]) => [id, held.map((i) => asked[i] as number)]))
      : new Map(hits.map((h) => [h.id, [only]]));
  return { hits, matches, frequencies, chunks };
}

/**
 * A library's lexical candidates: any chunk holding at least one term,
 * scored by BM25 times the ranking signals (RANKING_SIGNALS, signals.ts:
 * the share of the terms it holds, links, entry point, history, heading)
 * and the page signal, before normalisation.
 */
async function lexicalCandidates(
  target: Target,
  phrasing: Phrasing,
  limit: number,
  ranking: RankingConfig,
  known: KnownTerms | undefined,
): Promise<LexicalHits> {
  const reader = target.reader();
  const { terms: words, searched: terms, exact: alone, apiWords } = phrasing;
  // A stop word searched as an API's name is not looked for in the index (see `namesApi` below): its phrase is empty.
  const indexed = apiWords.length === 0 ? terms : terms.map((term, t) => (apiWords.includes(t) ? '' : term));
  const found = await matchingChunks(reader, indexed, limit, ranking, known);
  const { hits, matches, frequencies, chunks } =
    apiWords.length === 0 ? found : await withNamed(reader, found, phrasing, indexed, ranking);
  const major = semver.parse(target.pkg.version)?.major;
  const counts = { frequencies, chunks };
  if (hits.length === 0) return { hits: [], raw: [], plain: [], covered: [], held: [], counts };
  // A pasted identifier or error code is the most deliberate part of a query: it counts more.
  const weights = words.map((w) => (isIdentifier(w) ? ranking.identifierWeight : 1));
  const context: SignalContext = { ranking, totalWeight: weights.reduce((sum, w) => sum + w, 0) };
  // Two words the question asks one after the other ("bind JSON") are named by an identifier that joins them
  // (`ShouldBindJSON`): the heading trail names both, though the index holds the identifier as one token.
  // (A stop word searched as an API's name, below, is left out of them: it joins no other word, `to date` is no `toDate`.)
  const paired = words.flatMap((word, t) => (apiWords.includes(t) ? [] : [[t, word] as const]));
  const pairs = paired.flatMap(([t, word], p) => {
    const [n, next] = paired[p + 1] ?? [];
    return n !== undefined && next !== undefined && !isIdentifier(word) && !isIdentifier(next)
      ? [[t, n, `${word} ${next}`] as const]
      : [];
  });
  const joinedIn = (facts: SectionFacts) => {
    const joined = new Set<number>();
    for (const [t, n, pair] of pairs) if (facts.names.some((name) => tokensContain(name, pair))) joined.add(t).add(n);
    return joined;
  };
  // A stop word searched as an API's name is a word of the question only in a section whose own heading names it
  // (`Select.where`, not `whereRef` nor `toDate`), which holds it there: it adds to that section's share of the words
  // and its heading's. Elsewhere it is the function word it is in prose, and a section is scored as if the question
  // had not asked it; BM25, which ranks the candidates, reads the other words only (the word is in most sections).
  const facts = hits.map((h) => factsOf(h, major));
  const namesApi = (i: number, t: number) => (facts[i] as SectionFacts).named === words[t];
  // Every hit holds at least one term.
  const held = hits.map((h, i) => {
    const found = matches.get(h.id) ?? [0];
    if (apiWords.length === 0) return found;
    const named = apiWords.filter((t) => namesApi(i, t));
    return [...found.filter((t) => !apiWords.includes(t)), ...named].sort((a, b) => a - b);
  });
  const covered = held.map((found) => found.length);
  // A section holding only a synonym of a word (`validation` for `validate`, `res` for `response`) is about something
  // related to it, not necessarily it: the word counts `synonymWeight` of its weight there, in the share and the
  // heading boost, so of two sections alike but for that the one holding the word comes first.
  // A plain word synonyms widened: its term is their list, the word alone a string (a dotted word is a list either way).
  const widened =
    ranking.synonymWeight < 1
      ? terms.flatMap((term, t) => (typeof alone[t] === 'string' && typeof term !== 'string' ? [t] : []))
      : [];
  const wordHeld =
    widened.length === 0
      ? new Map<number, number[]>()
      : (
          await reader.termStatistics(
            widened.map((t) => alone[t] as Term),
            hits.map((h) => h.id),
          )
        ).matches;
  // What word t counts where it is held as itself, or only through a synonym.
  const counted = (t: number, exactly: boolean) => (weights[t] ?? 0) * (exactly ? 1 : ranking.synonymWeight);
  const heldExactly = (id: number, t: number) => {
    const w = widened.indexOf(t);
    return w < 0 || (wordHeld.get(id)?.includes(w) ?? false);
  };
  // A heading names a word wholly where the word is a name of its own (`option`), or a part of a joined name
  // (`help_option`) whose other parts the question asks too (`add_constructor` for "add a constructor"); a word that
  // is only a part of a longer name the question does not otherwise name counts `partWeight` of itself there.
  const asked = new Set(terms.flatMap((term) => (typeof term === 'string' ? [term] : term).flatMap(indexTokens)));
  // A word the trail does not hold, but a part of a joined name in it holds in another form (`safe` in `safe_load`
  // for "safely"), counts `formWeight` of itself there; the name is then asked wholly if its other parts are.
  // (Not for a stop word searched as the library's API name: its sections are the ones naming it.)
  const byStem =
    ranking.formWeight > 0
      ? wordsByStem(words.map((w, t) => (apiWords.includes(t) ? '' : w)))
      : new Map<string, number>();
  const trailWeight = (i: number) => {
    const section = facts[i] as SectionFacts;
    const joined = joinedIn(section);
    const forms = formsInNames(section.parts, words, byStem);
    const named = forms.size === 0 ? asked : new Set([...asked, ...[...forms.values()].flat()]);
    const whole = ranking.partWeight < 1 ? wholeTrail(section.trail, section.parts, named) : section.trail;
    let weight = 0;
    for (const [t, term] of terms.entries()) {
      const exact = alone[t] as Term;
      const form = forms.get(t);
      if (apiWords.includes(t)) {
        if (namesApi(i, t)) weight += counted(t, true);
      } else if (joined.has(t) || tokensContain(whole, exact)) weight += counted(t, true);
      else if (tokensContain(whole, term)) weight += counted(t, false);
      else if (tokensContain(section.trail, exact)) weight += counted(t, true) * ranking.partWeight;
      else if (tokensContain(section.trail, term)) weight += counted(t, false) * ranking.partWeight;
      else if (form !== undefined) {
        const share = form.some((token) => whole.includes(token)) ? 1 : ranking.partWeight;
        weight += (weights[t] ?? 0) * ranking.formWeight * share;
      }
    }
    return weight;
  };
  const plainOwn: number[] = [];
  const own = hits.map((h, i) => {
    // The heading trail and the page's kind are read from the hit (and kept per section), not queried.
    const section = facts[i] as SectionFacts;
    const unasked = apiWords.reduce((sum, t) => (namesApi(i, t) ? sum : sum + (weights[t] ?? 0)), 0);
    const { score, words: wordsAlone } = signalScore(
      h.score,
      {
        inboundLinks: h.inboundLinks,
        history: section.history,
        otherVersion: section.otherVersion,
        otherEntry: section.otherEntry,
        heldWeight: (held[i] ?? []).reduce((sum, t) => sum + counted(t, heldExactly(h.id, t)), 0),
        trailWeight: () => trailWeight(i),
      },
      unasked === 0 ? context : { ...context, totalWeight: context.totalWeight - unasked },
    );
    plainOwn.push(wordsAlone);
    return score;
  });
  return {
    hits,
    raw: withSamePage(hits, own, ranking.pageWeight),
    plain: withSamePage(hits, plainOwn, ranking.pageWeight),
    covered,
    held,
    counts,
  };
}

/**
 * The candidates with the sections named by the question's API words (sectionsNamed: `Select.where` for "where"),
 * those the best `limit` by BM25 left out too, each scored by BM25 over every word of the question, its API words
 * with the others: in such a section the word is the question's, in the others BM25 reads the other words only. A
 * named section holding none of the other words is left out, as one not named would be. Best first.
 */
async function withNamed(
  reader: PackageReader,
  found: Matching,
  phrasing: Phrasing,
  indexed: readonly Term[],
  ranking: RankingConfig,
): Promise<Matching> {
  const named = new Set<number>();
  // How many sections hold each API word as the question's: those it names (the index was not asked about it).
  const frequencies = [...found.frequencies];
  for (const t of phrasing.apiWords) {
    const sections = await sectionsNamed(reader, phrasing.terms[t] as string);
    frequencies[t] = sections.length;
    for (const id of sections) named.add(id);
  }
  const matches = new Map(found.matches);
  if (named.size === 0) return { ...found, hits: [...found.hits], matches, frequencies };
  const holding = await reader.termStatistics(indexed, [...named]);
  const ids = [...named].filter((id) => holding.matches.has(id));
  const rescored = await reader.searchAmong({ terms: phrasing.searched, mode: 'any' }, ids, {
    weights: ranking.weights,
  });
  for (const h of rescored) matches.set(h.id, holding.matches.get(h.id) ?? []);
  const hits = [...found.hits.filter((h) => !named.has(h.id)), ...rescored].sort(
    (a, b) => b.score - a.score || a.id - b.id,
  );
  return { hits, matches, frequencies, chunks: found.chunks };
}

/**
 * What lexicalCandidates reads of a section besides its score: its heading trail's tokens, whether its page is
 * history, and whether it documents another major version than its package's own.
 */
interface SectionFacts {
  readonly trail: readonly string[];
  /** Its heading trail's tokens name by name (`Command`; `get_help_option` → get, help, option). */
  readonly parts: readonly HeadingName[];
  /** The words of each camelCase identifier in its heading trail, one list each (`ShouldBindJSON` → should, bind, json). */
  readonly names: readonly (readonly string[])[];
  /** The name its own heading is, as code writes it (`Select.where` → where; api-words.ts), if it is one. */
  readonly named: string | undefined;
  readonly history: boolean;
  readonly otherVersion: boolean;
  /** An API page of an entry point the package's docs never show imported. */
  readonly otherEntry: boolean;
}

/**
 * Sections' facts, by the breadcrumb array of their hit: a reader makes one such array per chunk and keeps it
 * with the chunk's fields in a cache of bounded size (PackageReader), so the facts of the sections that answer
 * question after question are worked out once and let go with the fields.
 */
const sectionFacts = new WeakMap<readonly string[], SectionFacts>();

/**
 * Breadcrumb arrays seen once: a chunk's facts are kept from the second time its array is seen, which only the
 * reader's cache makes happen (a chunk read again without it comes with a new array). Kept at first sight, the facts of
 * every chunk a search over many libraries reads (most of them never kept by the reader) outlived the young generation
 * of the JavaScript heap, a WeakMap's values being let go of only by a full collection: ~170 MB a run of 20 questions
 * over 1,000 libraries, docs/benchmarks.md.
 */
const seenOnce = new WeakSet<readonly string[]>();

function factsOf(hit: ChunkHit, major: number | undefined): SectionFacts {
  let found = sectionFacts.get(hit.breadcrumb);
  if (!found) {
    found = {
      trail: indexTokens(hit.breadcrumb.join(' ')),
      parts: headingNames(hit.breadcrumb),
      names: identifierWords(hit.breadcrumb.join(' '))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => indexTokens(line)),
      named: headingName(hit.breadcrumb.at(-1) ?? ''),
      history: isHistoryPage(hit.path, hit.title),
      otherVersion: isOtherVersionPage(hit.path, major),
      otherEntry: isOtherEntryPointPage(hit.path),
    };
    if (seenOnce.has(hit.breadcrumb)) sectionFacts.set(hit.breadcrumb, found);
    else seenOnce.add(hit.breadcrumb);
  }
  return found;
}
