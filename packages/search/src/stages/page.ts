import { diversify, relevanceDrop, textCost, tokenBudget } from '@docs/rank';
import { type ChunkHit, loadTokenCounter } from '@docs/store';
import { ANSWER_LIMITS, shortBreadcrumb, shortLabel } from '../answer-limits.js';
import { nearRepeats } from '../near-duplicates.js';
import type { Paging } from '../options.js';
import type { RankingConfig } from '../ranking.js';
import type { DocResult } from '../results.js';
import { type SentSections, sectionKey } from '../sent-sections.js';
import type { Candidate } from './fuse.js';
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
  /**
   * Every section kept, in the answer's order: `total` counts them, `offset` and `limit` page over them. The order is
   * final up to the end of the page; past it, sections not yet compared for near-duplicates keep their place.
   */
  readonly ranked: readonly Group[];
  /** What the results show, one group each; in the full format each joined with those after it in its document. */
  readonly page: readonly Group[];
  readonly results: readonly DocResult[];
  readonly totalTokens: number;
  readonly nextOffset: number | undefined;
  /** How many sections of the ranked list the page shows (its joined results count each). */
  readonly shown: number;
  /**
   * The lowest score (spread over pages, as ranked) of the sections the page was drawn from: a section scoring
   * less could not have reached this page, whatever its library. 0 when the list ran out before the page was full.
   */
  readonly bar: number;
  /** The sections sent in full now, by key (sectionKey) with their tokens, in the order sent: the caller records them. */
  readonly sent: readonly SentSection[];
}

/** A section sent in full: its key in what the caller was sent (SentSections) and its tokens. */
export interface SentSection {
  readonly key: string;
  readonly tokens: number;
}

/** What the page stage reads of what the caller was sent before. */
export type SentEarlier = Pick<SentSections, 'has'>;

/**
 * Stage 5: the merged list cut at the relevance drop, spread over pages
 * (diversify), near-duplicates moved down, the page cut at `offset` and
 * `limit`, and in the full format its sections joined and filled with content
 * within the token budget.
 *
 * Every page is cut from one order, whatever its offset, limit, budget or
 * format, and shows a run of it that starts at `offset`: the budget ends a
 * page at the first section that does not fit, and `nextOffset` is the
 * section after the last one shown. So following `nextOffset` shows every
 * section once, in the order of one page holding them all.
 */
export async function pageOf(
  merged: readonly Candidate[],
  ranking: RankingConfig,
  paging: Paging,
  sentEarlier: SentEarlier | undefined,
): Promise<Paged> {
  // The drop measures relevance alone; the spread over pages comes after it.
  const kept = diversify(aboveDrop(merged, ranking.drop), {
    key: (c) => `${c.target.label}\0${c.hit.documentId}`,
    decay: ranking.samePageDecay,
  });
  // Both formats rank the same sections in the same order and page over them (offset, limit and total count
  // sections); the full format then joins, on its page, each section with those after it in its document.
  const sections: Group[] = kept.map((c) => ({ target: c.target, members: [c.hit], score: c.score, held: c.held }));
  const contents = new Contents();
  const { ranked, compared, full } = await answerOrder(
    sections,
    paging.offset + paging.limit,
    contents,
    ranking.duplicateThreshold,
  );
  // The page and everything before it come from the first `compared` sections, the last of them the lowest; when
  // the list ran out before as many were kept, any further section would have come onto it.
  const bar = full ? (sections[compared - 1]?.score ?? 0) : 0;
  const pageSections = ranked.slice(paging.offset, paging.offset + paging.limit);
  // Joining serves reading, so only the full format does it; an index entry points at one section.
  const { page, results, shown, sent } =
    paging.format === 'full'
      ? await withContent(pageSections, contents, paging.tokens, sentEarlier)
      : indexPage(pageSections);
  const totalTokens =
    paging.format === 'index' ? 0 : results.reduce((sum, r) => sum + (r.content === undefined ? 0 : r.tokens), 0);
  const next = paging.offset + shown;
  return {
    ranked,
    page,
    results,
    totalTokens,
    nextOffset: shown > 0 && next < ranked.length ? next : undefined,
    shown,
    bar,
    sent,
  };
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

/** The terms either list holds; undefined when neither phrasing found anything. */
function unite(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [...new Set([...a, ...b])];
}

/**
 * A result of a group; its labels cut to ANSWER_LIMITS, since a package's strings are as long as its maker chose.
 * `content` undefined: the index format, or a section the caller was sent earlier (`sentEarlier`).
 */
function toResult(group: Group, content: string | undefined, tokens?: number, sentEarlier = false): DocResult {
  const first = group.members[0] as ChunkHit;
  const breadcrumb = shortBreadcrumb(first.breadcrumb);
  return {
    library: group.target.label,
    path: shortLabel(first.path),
    title: shortLabel(first.title),
    breadcrumb,
    heading: breadcrumb.at(-1) ?? shortLabel(first.title),
    score: group.score,
    tokens: tokens ?? groupTokens(group),
    truncated: false,
    ...(group.members.length > 1 ? { sections: group.members.map((m) => shortBreadcrumb(m.breadcrumb)) } : {}),
    ...(content === undefined ? {} : { content }),
    ...(sentEarlier ? { sentEarlier } : {}),
  };
}

/** The tokens of a group's chunks together, as counted when the package was built. */
function groupTokens(group: Group): number {
  return group.members.reduce((sum, m) => sum + m.tokens, 0);
}

/** Chunk contents, per library, keyed by chunk id: read once per search, as the stage first needs each. */
class Contents {
  readonly #read = new Map<Target, Map<number, string>>();

  /** Reads the content of every chunk of the groups not read yet, one query batch per library. */
  async load(groups: readonly Group[]): Promise<void> {
    const missing = new Map<Target, number[]>();
    for (const g of groups) {
      const known = this.#read.get(g.target);
      const ids = g.members.map((m) => m.id).filter((id) => !known?.has(id));
      if (ids.length > 0) missing.set(g.target, [...(missing.get(g.target) ?? []), ...ids]);
    }
    for (const [target, ids] of missing) {
      const read = await target.reader().chunkContents(ids);
      const known = this.#read.get(target) ?? new Map<number, string>();
      for (const id of ids) known.set(id, read.get(id) ?? '');
      this.#read.set(target, known);
    }
  }

  /** A chunk's content, as read by {@link load}. */
  of(target: Target, id: number): string {
    return this.#read.get(target)?.get(id) ?? '';
  }
}

/**
 * The answer's order, final for its first `count` sections: each section that
 * nearly repeats one above it (a passage in a guide and a reference would spend
 * the budget twice) goes below every section that does not, as
 * `demoteNearDuplicates` orders the whole list. Sections are compared best
 * first, reading their contents a batch at a time, only until `count` are
 * kept; a section's place depends only on those above it, so a page cut from
 * this order is the same part of the whole list whatever its offset, limit or
 * budget, and pages never overlap. The index format moves near-duplicates too,
 * so that both formats list the same sections in the same order. Also says
 * how many sections were compared, and whether `count` were kept.
 */
async function answerOrder(
  sections: readonly Group[],
  count: number,
  contents: Contents,
  duplicateThreshold: number,
): Promise<{ ranked: Group[]; compared: number; full: boolean }> {
  if (duplicateThreshold >= 1 || sections.length < 2) {
    return { ranked: [...sections], compared: Math.min(count, sections.length), full: sections.length >= count };
  }
  const isRepeat = nearRepeats((g: Group) => g.members.map((m) => contents.of(g.target, m.id)).join('\n\n'), {
    threshold: duplicateThreshold,
    sizeOf: groupTokens,
  });
  const kept: Group[] = [];
  const repeats: Group[] = [];
  let compared = 0;
  while (kept.length < count && compared < sections.length) {
    // As many as are still wanted: with no repeat among them, one batch.
    const batch = sections.slice(compared, compared + count - kept.length);
    await contents.load(batch);
    for (const g of batch) (isRepeat(g) ? repeats : kept).push(g);
    compared += batch.length;
  }
  return { ranked: [...kept, ...sections.slice(compared), ...repeats], compared, full: kept.length >= count };
}

/** What a page shows: its results, the group each shows, and how many of the page's sections they hold. */
interface PageCut {
  readonly page: Group[];
  readonly results: DocResult[];
  readonly shown: number;
  readonly sent: SentSection[];
}

/**
 * The index format's page: every section of it, one result each, with no content and so no budget. It sends no
 * section, so what the caller was sent changes nothing: a result without content in the full format is one sent
 * earlier, in the index format every result.
 */
function indexPage(pageSections: readonly Group[]): PageCut {
  return {
    page: [...pageSections],
    results: pageSections.map((g) => toResult(g, undefined)),
    shown: pageSections.length,
    sent: [],
  };
}

/** The key of a section in what the caller was sent (SentSections). */
function keyOf(target: Target, hit: ChunkHit): string {
  return sectionKey(target.label, hit);
}

/**
 * The full format's page: its sections in order, each joined to the block of
 * its document it follows (a block starts at its best section and is labelled
 * by it, so a section before it in the document stays a result of its own),
 * while the token budget holds. The page ends at the first section that does
 * not fit, so the next page starts with it; the first section with content is
 * never left out for being large, but cut to fit the whole budget.
 *
 * A section the caller was sent in full before (`sentEarlier`) is listed
 * without its content and costs nothing, so the budget goes to the sections
 * after it; it joins no block and ends the one before it, so a joined result
 * stays a run of its document. Each section sent in full is returned in
 * `sent`; one cut to fit is not, as it was not sent in full.
 *
 * A section costs its tokens as the package counted them, or more when its
 * bytes say it is larger (textCost at ANSWER_LIMITS.bytesPerToken): a package
 * built elsewhere may store any count, and the budget must still bound what
 * is sent.
 */
async function withContent(
  pageSections: readonly Group[],
  contents: Contents,
  tokens: number,
  sentEarlier: SentEarlier | undefined,
): Promise<PageCut> {
  const budget = tokens === 0 ? Number.POSITIVE_INFINITY : tokens;
  const blocks: Block[] = [];
  const lastInDocument = new Map<string, Map<number, Block>>();
  let spent = 0;
  let shown = 0;
  let filled = 0;
  // Each section's cost needs its content; the near-duplicate pass has read most of them already.
  await contents.load(pageSections);
  for (const section of pageSections) {
    const hit = section.members[0] as ChunkHit;
    if (sentEarlier?.has(keyOf(section.target, hit))) {
      blocks.push({ ...section, members: [hit], sentEarlier: true });
      shown += 1;
      continue;
    }
    const key = `${section.target.label}\0${hit.documentId}`;
    const ends = lastInDocument.get(key) ?? new Map<number, Block>();
    const block = ends.get(hit.ord - 1);
    const cost =
      sectionCost(section.target, hit, contents) + (block ? headingTokens(block.members.at(-1) as ChunkHit, hit) : 0);
    if (spent + cost > budget && filled > 0) break;
    spent += cost;
    shown += 1;
    filled += 1;
    ends.delete(hit.ord - 1);
    if (block) {
      block.members.push(hit);
      block.held = block.held.map((terms, i) => unite(terms, section.held[i]));
      ends.set(hit.ord, block);
    } else {
      const started: Block = { ...section, members: [hit] };
      blocks.push(started);
      ends.set(hit.ord, started);
      lastInDocument.set(key, ends);
    }
    if (spent > budget) break;
  }
  const results = blocks.map((block) => {
    if (block.sentEarlier) return toResult(block, undefined, undefined, true);
    const text = blockText(block, contents);
    return toResult(block, text.content, text.tokens);
  });
  const first = results.findIndex((r) => r.content !== undefined);
  const top = results[first];
  if (top && top.tokens > budget) {
    // The first section alone is larger than the whole budget: its best part, cut at a paragraph if one fits.
    const [cut] = tokenBudget([{ content: top.content ?? '', tokens: top.tokens }], {
      budget,
      countTokens: await loadTokenCounter(),
      bytesPerToken: ANSWER_LIMITS.bytesPerToken,
    }).items;
    results[first] = { ...top, content: cut?.content ?? '', tokens: cut?.tokens ?? 0, truncated: true };
  }
  const sent: SentSection[] = [];
  blocks.forEach((block, i) => {
    if (block.sentEarlier || results[i]?.truncated) return;
    for (const member of block.members) sent.push({ key: keyOf(block.target, member), tokens: member.tokens });
  });
  return { page: blocks, results, shown, sent };
}

/** A result being made of a run of sections of one document, or a section sent earlier, listed alone. */
type Block = Omit<Group, 'held' | 'members'> & {
  members: ChunkHit[];
  held: ReadonlyArray<readonly number[] | undefined>;
  sentEarlier?: true;
};

/** What a section's content costs against the budget: its stored tokens, or its bytes' worth when more. */
function sectionCost(target: Target, hit: ChunkHit, contents: Contents): number {
  return textCost(contents.of(target, hit.id), hit.tokens, { bytesPerToken: ANSWER_LIMITS.bytesPerToken });
}

/**
 * The heading line a joined section brings when it starts a section of its
 * own (its heading trail differs from the one before it), so the joined text
 * reads as the page does; 0 otherwise. Counted generously (two characters a
 * token, and at least its bytes' worth) so the budget holds without loading
 * the tokenizer.
 */
function headingTokens(previous: ChunkHit, member: ChunkHit): number {
  const line = headingLine(previous, member);
  if (line === undefined) return 0;
  return textCost(line, Math.ceil(line.length / 2) + 1, { bytesPerToken: ANSWER_LIMITS.bytesPerToken });
}

function headingLine(previous: ChunkHit, member: ChunkHit): string | undefined {
  const ownHeading = member.breadcrumb.at(-1);
  if (ownHeading === undefined || member.level === 0) return undefined;
  if (JSON.stringify(previous.breadcrumb) === JSON.stringify(member.breadcrumb)) return undefined;
  return `${'#'.repeat(Math.min(member.level + 1, 6))} ${shortLabel(ownHeading)}`;
}

/** A block's text, its members' contents joined (each new section under its heading), and its tokens. */
function blockText(block: Group, contents: Contents): { content: string; tokens: number } {
  let tokens = 0;
  const parts = block.members.map((m, i) => {
    const text = contents.of(block.target, m.id);
    const previous = block.members[i - 1];
    tokens += sectionCost(block.target, m, contents) + (previous ? headingTokens(previous, m) : 0);
    const line = previous ? headingLine(previous, m) : undefined;
    return line === undefined ? text : `${line}\n\n${text}`;
  });
  return { content: parts.join('\n\n'), tokens };
}
