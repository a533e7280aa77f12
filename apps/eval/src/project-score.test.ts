import type { DocResult, SearchResponse } from '@docs/search';
import { describe, expect, test } from 'vitest';
import { parseQuestions, rankOf, summarise } from './project-score.js';

/** A result as getDocs and searchAll return it in the full format. */
function result(fields: Partial<DocResult> & Pick<DocResult, 'library' | 'title' | 'breadcrumb'>): DocResult {
  return {
    path: 'README.md',
    heading: fields.breadcrumb.at(-1) ?? fields.title,
    score: 1,
    tokens: 120,
    truncated: false,
    content: '',
    ...fields,
  };
}

// A searchAll answer over a project's libraries, shaped as the search returns it.
const answer: SearchResponse = {
  status: 'ok',
  message: '4 results',
  total: 5,
  totalTokens: 480,
  searched: ['express@5.1.0', 'hono@4.6.20', '@tanstack/query-core@5.62.16'],
  query: { terms: ['set', 'cookie', 'response'], match: 'all' },
  retrieval: { mode: 'lexical' },
  results: [
    result({
      library: 'hono@4.6.20',
      path: 'api.md',
      title: 'hono API',
      breadcrumb: ['hono API', 'hono/cookie', 'setCookie'],
      content: 'setCookie(c, name, value, opt?) sets a cookie on the response.',
    }),
    result({
      library: 'express@5.1.0',
      title: 'express',
      breadcrumb: ['express', 'Features'],
      content: 'Robust routing, focus on high performance.',
      sections: [
        ['express', 'Features'],
        ['express', 'res.cookie()'],
      ],
    }),
    result({
      library: 'express@5.1.0',
      path: 'api.md',
      title: 'express API',
      breadcrumb: ['Response'],
      content: 'Set cookie `name` to `val`: `res.cookie("rememberme", "1", { maxAge: 900000 })`.',
    }),
    result({
      library: '@TanStack/query-core@5.62.16',
      path: 'api.md',
      title: 'QueryClient',
      breadcrumb: [],
      score: 0.4,
      content: 'invalidateQueries(filters) marks the matching queries stale.',
    }),
  ],
};

describe('rankOf', () => {
  test.each([
    ['the content of a result of the library', 'hono', 'setCookie', 1],
    ['the trail of a section joined into a result', 'express', String.raw`res\.cookie\(\)`, 2],
    ['the content of a later result', 'express', 'maxAge: 900000', 3],
    ['the library in any case, without its version, and a scoped name', '@tanstack/Query-Core', 'INVALIDATEQUERIES', 4],
    ['the page title, which heads the trail when the breadcrumb is empty', '@tanstack/query-core', '^QueryClient', 4],
    ['the heading trail, title first', 'hono', 'hono API > hono/cookie > setCookie', 1],
  ])('finds the first right result by %s', (_, library, pattern, rank) => {
    expect(rankOf(answer.results, { library, pattern })).toBe(rank);
  });

  test.each([
    ['a pattern only another library matches', 'express', 'setCookie'],
    ['a library that is not in the answer', 'zod', 'cookie'],
    ['a library whose name only starts the same', 'expres', 'cookie'],
  ])('is null for %s', (_, library, pattern) => {
    expect(rankOf(answer.results, { library, pattern })).toBeNull();
  });

  test('reads the trail alone in the index format, which has no content', () => {
    const index = answer.results.map(({ content: _, ...rest }) => rest);
    expect(rankOf(index, { library: 'express', pattern: 'maxAge' })).toBeNull();
    expect(rankOf(index, { library: 'express', pattern: 'res\\.cookie' })).toBe(2);
  });

  test('is null for an empty answer', () => {
    expect(rankOf([], { library: 'express', pattern: 'cookie' })).toBeNull();
  });
});

describe('summarise', () => {
  test('counts a rank over 5 as a miss for MRR@5, and takes the median of the tokens', () => {
    const s = summarise([
      { rank: 1, tokens: 100 },
      { rank: 2, tokens: 400 },
      { rank: 6, tokens: 300 },
      { rank: null, tokens: 0 },
    ]);
    expect(s).toEqual({
      n: 4,
      mrr5: (1 + 1 / 2) / 4,
      hit1: 1 / 4,
      hit3: 2 / 4,
      found: 3 / 4,
      tokensMedian: 200,
      tokensMean: 200,
    });
  });

  test('takes the middle value for an odd count, and zeros for no questions', () => {
    expect(
      summarise([
        { rank: 3, tokens: 9 },
        { rank: null, tokens: 1 },
        { rank: 4, tokens: 5 },
      ]).tokensMedian,
    ).toBe(5);
    expect(summarise([])).toEqual({ n: 0, mrr5: 0, hit1: 0, hit3: 0, found: 0, tokensMedian: 0, tokensMean: 0 });
  });
});

describe('parseQuestions', () => {
  const line = (q: object) => JSON.stringify(q);
  const good = {
    id: 'a',
    question: 'set a cookie',
    expect: { library: 'express', pattern: 'cookie' },
    kind: 'natural',
  };

  test('reads one question a line, with or without a library, skipping blank lines', () => {
    const text = `${line(good)}\n\n${line({ ...good, id: 'b', library: 'express' })}\n`;
    expect(parseQuestions(text, 'q.jsonl').map((q) => [q.id, q.library])).toEqual([
      ['a', undefined],
      ['b', 'express'],
    ]);
  });

  test.each([
    ['not JSON', '{', /q\.jsonl:1: not JSON/],
    ['no pattern', line({ ...good, expect: { library: 'express' } }), /needs "id", "question" and "expect"/],
    [
      'a pattern that is not a regular expression',
      line({ ...good, expect: { ...good.expect, pattern: '(' } }),
      /not a regular expression/,
    ],
    ['an unknown kind', line({ ...good, kind: 'vague' }), /"kind" must be one of api, keyword, natural/],
    ['an empty library', line({ ...good, library: '' }), /"library" must be a name/],
    ['an id given twice', `${line(good)}\n${line(good)}`, /q\.jsonl:2: the id "a" is used twice/],
  ])('refuses %s, naming the line', (_, text, message) => {
    expect(() => parseQuestions(text, 'q.jsonl')).toThrow(message);
  });
});
