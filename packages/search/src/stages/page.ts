import { diversify, relevanceDrop, tokenBudget } from '@docs/rank';
import { type ChunkHit, loadTokenCounter } from '@docs/store';
import { demoteNearDuplicates } from '../near-duplicates.js';
import type { ResolvedOptions } from '../options.js';
import type { DocResult } from '../results.js';
import type { Candidate } from './merge.js';
import type { Target } from './target.js';

/** A run of adjacent chunks of one document, shown as one result. */
export interface Group {
  readonly target: Target;
  readonly members: ChunkHit[];
  readonly score: number;
  /** Per phrasing, the terms any member holds (undefined: the phrasing found none of them). */
  readonly held: ReadonlyArray<readonly number[] | undefined>;
}

/** One page of the answer, and the ranked list it was cut from. */
export interface Paged {
  /** Every section kept, in the answer's order: `total` counts them, `offset` and `limit` page over them. */
  readonly ranked: readonly Group[];
  /** The page's sections; in the full format each joined with those after it in its document. */
  readonly page: readonly Group[];
  readonly results: readonly DocResult[];
  readonly totalTokens: number;
  readonly nextOffset: number | undefined;
}

/**
 * Stage 5: the merged list cut at the relevance drop, spread over pages
 * (diversify), near-duplicates moved down, the page cut at `offset` and
 * `limit`, and in the full format its sections joined and filled with content
 * within the token budget.
 */
export async function pageOf(merged: readonly Candidate[], options: ResolvedOptions): Promise<Paged> {
  // The drop measures relevance alone; the spread over pages comes after it.
  const kept = diversify(aboveDrop(merged, options.drop), {
    key: (c) => `${c.target.label}\0${c.hit.documentId}`,
    decay: options.samePageDecay,
  });
  // Both formats rank the same sections in the same order and page over them (offset, limit and total count
  // sections); the full format then joins, on its page, each section with those after it in its document.
  const sections: Group[] = kept.map((c) => ({ target: c.target, members: [c.hit], score: c.score, held: c.held }));
  // The full format reads each shown chunk once, for the duplicate check and the answer alike; the index
  // format reads what the check needs, so that both list the same sections in the same order.
  const window = repeatsWindow(sections, options);
  const full = options.format === 'full';
  const read = full ? Math.max(options.offset + options.limit, window) : window;
  const contents = read > 0 ? await loadContents(sections.slice(0, read)) : new Map<Target, Map<number, string>>();
  const ranked = withoutRepeats(sections, window, contents, options);
  const pageSections = ranked.slice(options.offset, options.offset + options.limit);
  // Joining serves reading, so only the full format does it; an index entry points at one section.
  const page = full ? mergeAdjacent(pageSections) : pageSections;
  const { results, shown } = full
    ? await withContent(page, contents, options)
    : { results: page.map((g) => toResult(g, undefined)), shown: page };
  const totalTokens = options.format === 'index' ? 0 : results.reduce((sum, r) => sum + r.tokens, 0);
  const next = nextOffset(pageSections, shown, options.offset, ranked.length);
  return { ranked, page, results, totalTokens, nextOffset: next };
}

/**
 * The relevance drop: a candidate is kept when it scores at least `drop` of
 * the best, or when its words alone (the score without the heading boost) are
 * worth at least `drop` of the best such score. The heading boost orders what
 * is relevant; it does not decide what is: for a one-word question every
 * section holds all of it, and one whose heading names the word would
 * otherwise be worth three times the rest and leave nothing else above the drop
 * (`httpx retries`: the httpx-retries plugin only, not the transports page's
 * `HTTPTransport(retries=1)`). The ones kept only by their words rank below
 * every other (their scores are under the drop), so the rest keep their places.
 */
function aboveDrop(merged: readonly Candidate[], drop: number): Candidate[] {
  const byScore = relevanceDrop(merged, { drop });
  const bestPlain = Math.max(0, ...merged.map((c) => c.plain));
  const kept = new Set(byScore);
  return merged.filter((c) => kept.has(c) || c.plain >= drop * bestPlain);
}

/**
 * Joins, on a page of sections ranked best first, each section with the ones
 * that follow it in its document and rank below it, into one result at its
 * rank, so an answer split across chunks reads whole. A block starts at its
 * best section and is labelled by it: a section before it in the document
 * stays a result of its own, so a token budget never cuts the best part of a
 * block to show what comes before it.
 */
function mergeAdjacent(page: readonly Group[]): Group[] {
  type Joined = Omit<Group, 'held' | 'members'> & {
    members: ChunkHit[];
    held: ReadonlyArray<readonly number[] | undefined>;
  };
  const groups: Joined[] = [];
  const lastInDocument = new Map<string, Map<number, Joined>>();
  for (const section of page) {
    const hit = section.members[0] as ChunkHit;
    const key = `${section.target.label}\0${hit.documentId}`;
    const ends = lastInDocument.get(key) ?? new Map<number, Joined>();
    const block = ends.get(hit.ord - 1);
    if (block) {
      block.members.push(hit);
      block.held = block.held.map((terms, i) => unite(terms, section.held[i]));
      ends.delete(hit.ord - 1);
      ends.set(hit.ord, block);
      continue;
    }
    const joined: Joined = { ...section, members: [hit] };
    groups.push(joined);
    ends.set(hit.ord, joined);
    lastInDocument.set(key, ends);
  }
  return groups;
}

/**
 * Where the next page starts: the first section of this page that no result
 * shows (the token budget skips what does not fit), else the section after the
 * page; undefined when nothing is left or nothing was shown.
 */
function nextOffset(
  page: readonly Group[],
  shown: readonly Group[],
  offset: number,
  total: number,
): number | undefined {
  if (shown.length === 0) return undefined;
  const key = (target: Target, hit: ChunkHit) => `${target.label}\0${hit.id}`;
  const ids = new Set(shown.flatMap((g) => g.members.map((m) => key(g.target, m))));
  const missing = page.findIndex((g) => !ids.has(key(g.target, g.members[0] as ChunkHit)));
  const next = offset + (missing === -1 ? page.length : missing);
  return next < total ? next : undefined;
}

/** The terms either list holds; undefined when neither phrasing found anything. */
function unite(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [...new Set([...a, ...b])];
}

function toResult(group: Group, content: string | undefined, tokens?: number): DocResult {
  const first = group.members[0] as ChunkHit;
  const heading = first.breadcrumb.at(-1) ?? first.title;
  return {
    library: group.target.label,
    path: first.path,
    title: first.title,
    breadcrumb: first.breadcrumb,
    heading,
    score: group.score,
    tokens: tokens ?? groupTokens(group),
    truncated: false,
    ...(group.members.length > 1 ? { sections: group.members.map((m) => m.breadcrumb) } : {}),
    ...(content === undefined ? {} : { content }),
  };
}

/** The tokens of a group's chunks together, as counted when the package was built. */
function groupTokens(group: Group): number {
  return group.members.reduce((sum, m) => sum + m.tokens, 0);
}

/** Chunk contents, per library, keyed by chunk id. */
type Contents = ReadonlyMap<Target, ReadonlyMap<number, string>>;

/** Reads the content of every chunk of the groups, one query batch per library. */
async function loadContents(groups: readonly Group[]): Promise<Contents> {
  const idsByTarget = new Map<Target, number[]>();
  for (const g of groups)
    idsByTarget.set(g.target, [...(idsByTarget.get(g.target) ?? []), ...g.members.map((m) => m.id)]);
  const contents = new Map<Target, ReadonlyMap<number, string>>();
  for (const [target, ids] of idsByTarget) contents.set(target, await target.reader().chunkContents(ids));
  return contents;
}

function repeatsChecked(groups: readonly Group[], options: ResolvedOptions): boolean {
  return options.duplicateThreshold < 1 && groups.length > 1;
}

/**
 * How many of the first groups the near-duplicate check looks at: the page
 * plus as many again, and on the first page no further than twice what the
 * token budget can show, since only that part of the list can reach the reader.
 */
function repeatsWindow(groups: readonly Group[], options: ResolvedOptions): number {
  if (!repeatsChecked(groups, options)) return 0;
  const most = Math.min(groups.length, 2 * (options.offset + options.limit));
  if (options.offset > 0 || options.tokens === 0) return most;
  let tokens = 0;
  for (let i = 0; i < most; i++) {
    tokens += groupTokens(groups[i] as Group);
    if (tokens > 2 * options.tokens) return i + 1;
  }
  return most;
}

/**
 * Near-duplicates go below their first occurrence in the part of the list a
 * caller can see (see repeatsWindow): a passage repeated in a guide and a
 * reference would spend the token budget twice. The index format moves them
 * too, so that both formats list the same sections in the same order.
 */
function withoutRepeats(
  groups: readonly Group[],
  windowSize: number,
  contents: Contents,
  options: ResolvedOptions,
): Group[] {
  if (windowSize === 0) return [...groups];
  const window = groups.slice(0, windowSize);
  const textOf = (g: Group) => g.members.map((m) => contents.get(g.target)?.get(m.id) ?? '').join('\n\n');
  const reordered = demoteNearDuplicates(window, textOf, {
    threshold: options.duplicateThreshold,
    sizeOf: groupTokens,
  });
  return [...reordered, ...groups.slice(window.length)];
}

/** The page's results with their content, within the token budget, and the groups they show. */
async function withContent(
  page: readonly Group[],
  contents: Contents,
  options: ResolvedOptions,
): Promise<{ results: DocResult[]; shown: Group[] }> {
  const items = page.map((g) => {
    const texts = contents.get(g.target) ?? new Map<number, string>();
    let tokens = 0;
    const parts = g.members.map((m, i) => {
      tokens += m.tokens;
      const text = texts.get(m.id) ?? '';
      const previous = g.members[i - 1];
      const ownHeading = m.breadcrumb.at(-1);
      // A later member that starts a new section keeps its heading, so the merged text reads as the page does.
      if (
        previous &&
        ownHeading !== undefined &&
        m.level > 0 &&
        JSON.stringify(previous.breadcrumb) !== JSON.stringify(m.breadcrumb)
      ) {
        const line = `${'#'.repeat(Math.min(m.level + 1, 6))} ${ownHeading}`;
        // Counted generously (two characters a token) so the budget holds without loading the tokenizer.
        tokens += Math.ceil(line.length / 2) + 1;
        return `${line}\n\n${text}`;
      }
      return text;
    });
    return { group: g, content: parts.join('\n\n'), tokens };
  });
  const budget = options.tokens === 0 ? Number.POSITIVE_INFINITY : options.tokens;
  // The tokenizer is needed only to cut a top result larger than the whole budget.
  const countTokens = (items[0]?.tokens ?? 0) > budget ? await loadTokenCounter() : undefined;
  const fitted = tokenBudget(items, { budget, ...(countTokens ? { countTokens } : {}) });
  return {
    results: fitted.items.map((item) => ({
      ...toResult(item.group, item.content, item.tokens),
      truncated: item.truncated,
    })),
    shown: fitted.items.map((item) => item.group),
  };
}
