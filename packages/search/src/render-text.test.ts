import { describe, expect, test } from 'vitest';
import { headingTrail } from './heading-trail.js';
import { renderText, type TextStyle } from './render-text.js';
import type { DocResult, SearchResponse } from './results.js';

// The one rendering behind `docs get`/`docs search` (plain) and get_docs/search_all (markdown): each surface's
// text, byte for byte, for the same responses.

const plain: TextStyle = { layout: 'plain', nextPage: (offset) => `the same command with --offset ${offset}` };
const markdown: TextStyle = {
  layout: 'markdown',
  nextPage: (offset) => `call get_docs again with offset ${offset}`,
  rest: 'read_doc has the rest',
  afterIndex: 'Read a page with read_doc (library, path), or search again with format "full".',
};

const timers: DocResult = {
  library: 'vitest@3.2.4',
  path: 'guide/mocking.md',
  title: 'Mocking',
  breadcrumb: ['Mocking', 'Timers'],
  heading: 'Timers',
  score: 1,
  tokens: 12,
  truncated: false,
  content: 'Call `vi.useFakeTimers()`.',
};
const spies: DocResult = {
  library: 'vitest@3.2.4',
  path: 'api/vi.md',
  title: 'Vi',
  breadcrumb: ['Spies'],
  heading: 'Spies',
  score: 0.456,
  tokens: 30,
  truncated: true,
  content: 'vi.spyOn wraps a method.',
};
const answer: SearchResponse = {
  status: 'ok',
  message: '2 of 5 results from vitest@3.2.4',
  results: [timers, spies],
  total: 5,
  nextOffset: 2,
  totalTokens: 42,
  searched: ['vitest@3.2.4'],
  query: { terms: ['fake', 'timers'], match: 'all' },
  retrieval: { mode: 'lexical' },
};
const indexed: SearchResponse = {
  ...answer,
  results: answer.results.map(({ content: _content, ...rest }) => rest),
  totalTokens: 0,
};
const { nextOffset: _next, ...lastPage } = answer;
const hybrid = { mode: 'hybrid', embedder: 'transformers:e5:384', reranker: 'transformers:ms-marco' } as const;
const nothing: SearchResponse = {
  ...answer,
  status: 'no-match',
  message: 'Nothing in vitest@3.2.4 matched "cors".',
  results: [],
  total: 0,
  totalTokens: 0,
  warnings: ['Searched the first 32 words only.'],
  retrieval: { mode: 'lexical', notes: ['vitest@3.2.4 answered lexically: it has no vectors'] },
};

describe('renderText', () => {
  test.each([
    [
      'full, plain',
      answer,
      plain,
      [
        '── vitest@3.2.4 · Mocking > Timers · guide/mocking.md · score 1.00 · 12 tokens',
        '',
        'Call `vi.useFakeTimers()`.',
        '',
        '── vitest@3.2.4 · Vi > Spies · api/vi.md · score 0.46 · 30 tokens · truncated',
        '',
        'vi.spyOn wraps a method.',
        '',
        '2 of 5 results from vitest@3.2.4; 42 tokens. More: the same command with --offset 2',
      ],
    ],
    [
      'full, markdown',
      answer,
      markdown,
      [
        '## vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 1.00)',
        '',
        'Call `vi.useFakeTimers()`.',
        '',
        '## vitest@3.2.4 · Vi > Spies · api/vi.md (score 0.46, truncated: read_doc has the rest)',
        '',
        'vi.spyOn wraps a method.',
        '',
        '2 of 5 results from vitest@3.2.4; 42 tokens. More: call get_docs again with offset 2.',
      ],
    ],
    [
      'index, plain',
      indexed,
      plain,
      [
        '── vitest@3.2.4 · Mocking > Timers · guide/mocking.md · score 1.00 · 12 tokens',
        '── vitest@3.2.4 · Vi > Spies · api/vi.md · score 0.46 · 30 tokens · truncated',
        '2 of 5 results from vitest@3.2.4; 0 tokens. More: the same command with --offset 2',
      ],
    ],
    [
      'index, markdown',
      indexed,
      markdown,
      [
        '- vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 1.00, 12 tokens)',
        '- vitest@3.2.4 · Vi > Spies · api/vi.md (score 0.46, 30 tokens)',
        '',
        '2 of 5 results from vitest@3.2.4. More: call get_docs again with offset 2. Read a page with read_doc (library, path), or search again with format "full".',
      ],
    ],
    [
      'weak, with phrasings, warnings and hybrid retrieval, plain: the message first, the warnings left out',
      {
        ...indexed,
        message: 'No section mentions "cors"; closest: vitest@3.2.4 · Mocking > Timers. 2 of 5 results',
        confidence: { strength: 0.2, weak: true, missing: ['cors'], unmentioned: ['cors'] },
        phrasings: [
          { text: 'cors', terms: ['cors'], strength: 0, results: [] },
          { text: 'timers', terms: ['timers'], strength: 1, results: [1, 2] },
        ],
        warnings: ['Searched the first 32 words only.'],
        retrieval: { ...hybrid, notes: ['other@1 answered lexically: no vectors'] },
      },
      plain,
      [
        'No section mentions "cors"; closest: vitest@3.2.4 · Mocking > Timers. 2 of 5 results',
        '',
        '── vitest@3.2.4 · Mocking > Timers · guide/mocking.md · score 1.00 · 12 tokens',
        '── vitest@3.2.4 · Vi > Spies · api/vi.md · score 0.46 · 30 tokens · truncated',
        'phrasings found (result positions): "cors" → none; "timers" → 1, 2',
        '0 tokens. More: the same command with --offset 2',
        'retrieval: hybrid (embedder transformers:e5:384, re-ranked by transformers:ms-marco)',
        '  other@1 answered lexically: no vectors',
      ],
    ],
    [
      'weak, with phrasings, warnings and hybrid retrieval, markdown: the message last, then the notes',
      {
        ...lastPage,
        message: 'Weak match. 2 of 5 results',
        confidence: { strength: 0.2, weak: true, missing: ['cors'], unmentioned: [] },
        phrasings: [
          { text: 'cors', terms: ['cors'], strength: 0, results: [] },
          { text: 'timers', terms: ['timers'], strength: 1, results: [1, 2] },
        ],
        warnings: ['Searched the first 32 words only.'],
        retrieval: { ...hybrid, notes: ['other@1 answered lexically: no vectors'] },
      },
      markdown,
      [
        '## vitest@3.2.4 · Mocking > Timers · guide/mocking.md (score 1.00)',
        '',
        'Call `vi.useFakeTimers()`.',
        '',
        '## vitest@3.2.4 · Vi > Spies · api/vi.md (score 0.46, truncated: read_doc has the rest)',
        '',
        'vi.spyOn wraps a method.',
        '',
        'Phrasings found (result positions): "cors" → none; "timers" → 1, 2',
        'Weak match. 2 of 5 results; 42 tokens.',
        'Note: Searched the first 32 words only.',
        'Retrieval: hybrid (embedder transformers:e5:384, re-ranked by transformers:ms-marco).',
        '- other@1 answered lexically: no vectors',
      ],
    ],
    [
      'empty, plain: the message and why it answered lexically',
      nothing,
      plain,
      [
        'Nothing in vitest@3.2.4 matched "cors".',
        'retrieval: lexical',
        '  vitest@3.2.4 answered lexically: it has no vectors',
      ],
    ],
    [
      'empty, markdown: the message, the notes and why it answered lexically',
      nothing,
      markdown,
      [
        'Nothing in vitest@3.2.4 matched "cors".',
        'Note: Searched the first 32 words only.',
        'Retrieval: lexical.',
        '- vitest@3.2.4 answered lexically: it has no vectors',
      ],
    ],
  ] satisfies [string, SearchResponse, TextStyle, string[]][])('%s', (_name, response, style, lines) => {
    expect(renderText(response, style)).toBe(lines.join('\n'));
  });

  test('a plain lexical answer says nothing of its retrieval; a re-ranked one says by what', () => {
    const { warnings: _warnings, ...quiet } = nothing;
    const empty = { ...quiet, retrieval: { mode: 'lexical' } } satisfies SearchResponse;
    expect(renderText(empty, plain)).toBe('Nothing in vitest@3.2.4 matched "cors".');
    expect(renderText(empty, markdown)).toBe('Nothing in vitest@3.2.4 matched "cors".');
    const reranked = { ...empty, retrieval: { mode: 'lexical', reranker: 'rr' } } satisfies SearchResponse;
    expect(renderText(reranked, plain)).toBe(
      'Nothing in vitest@3.2.4 matched "cors".\nretrieval: lexical (re-ranked by rr)',
    );
  });
});

test.each([
  [
    ['Mocking', 'Timers'],
    ['Mocking', 'Timers'],
  ],
  [['Timers'], ['Mocking', 'Timers']],
  [[], ['Mocking']],
])('headingTrail: breadcrumb %j under the title "Mocking" → %j', (breadcrumb, trail) => {
  expect(headingTrail({ title: 'Mocking', breadcrumb })).toEqual(trail);
});
