import { describe, expect, it, test } from 'vitest';
import { answeredNothing, fillTemplate, PEER_ADAPTERS, peerAdapterSchema } from './peer-adapters.js';
import { parsePeerFlag, peerSpecs, splitCommand } from './peer-args.js';
import { docsVersusBest, formatMs, formatPeerTable, type PeerRow } from './peer-table.js';

// The pieces of `pnpm bench --peer` that need no peer installed: the flag, the adapters, the table. Nothing here is
// timed; the measuring itself runs only in the bench.

const known = [...PEER_ADAPTERS.keys()];

describe('--peer NAME=COMMAND', () => {
  test.each([
    ['node qmd.js', ['node', 'qmd.js']],
    ['  node24   /tmp/peers/qmd.js  ', ['node24', '/tmp/peers/qmd.js']],
    ['node "/tmp/my peers/cli.js" --x', ['node', '/tmp/my peers/cli.js', '--x']],
    ["node '/a b/c' d\\ e", ['node', '/a b/c', 'd e']],
    ['node ""', ['node', '']],
    ['', []],
  ])('splitCommand(%j)', (text, words) => {
    expect(splitCommand(text)).toEqual(words);
  });

  it('refuses an unclosed quote', () => {
    expect(splitCommand('node "/tmp/x')).toBeUndefined();
    expect(parsePeerFlag('qmd=node "/tmp/x', known)).toMatchObject({ ok: false, error: /unclosed quote/ });
  });

  it('splits NAME at the first =, so the command may hold more', () => {
    expect(parsePeerFlag('qmd=env A=1 node24 /p/qmd.js', known)).toEqual({
      ok: true,
      value: { name: 'qmd', command: ['env', 'A=1', 'node24', '/p/qmd.js'] },
    });
  });

  test.each([
    ['qmd', /expected NAME=COMMAND/],
    ['=node x', /expected NAME=COMMAND/],
    ['nope=node x', /no adapter named "nope"/],
    ['qmd=   ', /the command is empty/],
  ])('refuses %j', (flag, error) => {
    expect(parsePeerFlag(flag, known)).toMatchObject({ ok: false, error });
  });

  it('puts docs first with its own command, the peers after in the order given', () => {
    const specs = peerSpecs(['qmd=q', 'context=c'], known, ['node', 'bin.cjs']);
    expect(specs).toEqual({
      ok: true,
      value: [
        { name: 'docs', command: ['node', 'bin.cjs'] },
        { name: 'qmd', command: ['q'] },
        { name: 'context', command: ['c'] },
      ],
    });
    expect(peerSpecs(['qmd=q', 'docs=node other.cjs'], known, ['node', 'bin.cjs'])).toMatchObject({
      ok: true,
      value: [{ name: 'docs', command: ['node', 'other.cjs'] }, { name: 'qmd' }],
    });
    expect(peerSpecs(['qmd=a', 'qmd=b'], known, ['x'])).toMatchObject({ ok: false, error: /given twice/ });
  });
});

describe('the adapters', () => {
  it('ships docs and the three peers, each valid against the schema', () => {
    expect(known).toEqual(['docs', 'context', 'qmd', 'docs-mcp-server']);
    for (const adapter of PEER_ADAPTERS.values()) expect(peerAdapterSchema.parse(adapter)).toEqual(adapter);
  });

  it('uses only the placeholders the bench fills', () => {
    const values = {
      home: 'H',
      folder: 'F',
      name: 'N',
      version: 'V',
      library: 'L',
      libraryVersion: 'LV',
      query: 'Q',
    };
    for (const adapter of PEER_ADAPTERS.values()) {
      expect(() => fillTemplate(adapter, values)).not.toThrow();
      expect(JSON.stringify(fillTemplate(adapter, values))).not.toMatch(/\{[A-Za-z]+\}/);
    }
  });

  it('refuses an adapter with a missing field, an unknown field or a bad name', () => {
    const docs = PEER_ADAPTERS.get('docs');
    expect(peerAdapterSchema.safeParse({ ...docs, build: undefined }).success).toBe(false);
    expect(peerAdapterSchema.safeParse({ ...docs, extra: 1 }).success).toBe(false);
    expect(peerAdapterSchema.safeParse({ ...docs, name: 'Has Space' }).success).toBe(false);
  });

  it('fills placeholders at any depth and refuses an unknown one', () => {
    expect(
      fillTemplate(
        { searches: [{ type: 'lex', query: '{query}' }], collections: ['{library}'], rerank: false },
        {
          query: 'cors',
          library: 'hono',
        },
      ),
    ).toEqual({ searches: [{ type: 'lex', query: 'cors' }], collections: ['hono'], rerank: false });
    expect(fillTemplate('{library}@{libraryVersion}', { library: 'hono', libraryVersion: '4' })).toBe('hono@4');
    expect(() => fillTemplate(['{qeury}'], { query: 'x' })).toThrow(/unknown placeholder \{qeury\}/);
  });

  test.each([
    ['docs', 'Nothing in kysely@0.29.5 matched "zzz". Try fewer or other words', true],
    ['docs', '── kysely@0.29.5 · Single row · score 1.00\n\nInsert a single row', false],
    ['qmd', '[]\n', true],
    ['qmd', '[{"file":"qmd://kysely/a.md","score":0.8}]', false],
    ['context', '{"library":"hono@4","results":[]}', true],
    ['context', '{"library":"hono@4","results":[{"title":"CORS"}]}', false],
    ['docs-mcp-server', '   \n', true],
  ])('%s reads %j as nothing: %s', (name, stdout, nothing) => {
    const adapter = PEER_ADAPTERS.get(name);
    if (!adapter) throw new Error(name);
    expect(answeredNothing(adapter, stdout)).toBe(nothing);
  });
});

describe('the table', () => {
  const v = (value: number) => ({ value, text: String(value) });

  test.each<[string, PeerRow, string]>([
    ['slower', { label: 'x', worse: 'slower', cells: [v(38), v(10), v(20)] }, '3.80× slower'],
    ['more', { label: 'x', worse: 'more', cells: [v(5), v(1)] }, '5.00× more'],
    ['ahead', { label: 'x', worse: 'slower', cells: [v(1), v(2), { note: 'no such tool' }] }, 'ahead'],
    [
      'ahead of a floor',
      { label: 'x', worse: 'slower', cells: [v(86), v(144)], floor: { value: 48, name: 'the bare node floor' } },
      'ahead (1.79× the bare node floor)',
    ],
    ['even', { label: 'x', worse: 'slower', cells: [v(2), v(2)] }, 'even'],
    ['no peer value', { label: 'x', worse: 'slower', cells: [v(2), { note: 'no such tool' }] }, '—'],
    ['docs failed', { label: 'x', worse: 'slower', cells: [{ note: 'failed' }, v(2)] }, '—'],
    ['no ratio', { label: 'x', worse: 'none', cells: [v(0), v(33)] }, '—'],
    ['a best of 0', { label: 'x', worse: 'more', cells: [v(10), v(0)] }, 'more'],
    ['NaN is no value', { label: 'x', worse: 'slower', cells: [v(1), v(Number.NaN)] }, '—'],
  ])('docs vs best: %s', (_, row, expected) => {
    expect(docsVersusBest(row)).toBe(expected);
  });

  it('prints markdown with the best of each row in bold, ties included, notes as they are', () => {
    const table = formatPeerTable(
      ['docs', 'context', 'qmd'],
      [
        {
          label: 'MCP single',
          worse: 'slower',
          cells: [
            { value: 2.15, text: '2.15 / 6.25 ms' },
            { value: 1.39, text: '1.39 / 5.78 ms' },
            { value: 5.84, text: '5.84 / 26.4 ms' },
          ],
        },
        { label: 'cross', worse: 'slower', cells: [v(4), { note: 'no such tool' }, v(35)] },
        { label: 'tie', worse: 'more', cells: [v(3), v(3), v(9)] },
        { label: 'nothing', worse: 'none', cells: [v(0), v(33), v(16)] },
      ],
    );
    expect(table).toBe(
      [
        '| measure | docs | context | qmd | docs vs best |',
        '|---|---|---|---|---|',
        '| MCP single | 2.15 / 6.25 ms | **1.39 / 5.78 ms** | 5.84 / 26.4 ms | 1.55× slower |',
        '| cross | **4** | no such tool | 35 | ahead |',
        '| tie | **3** | **3** | 9 | even |',
        '| nothing | 0 | 33 | 16 | — |',
        '',
      ].join('\n'),
    );
  });

  test.each([
    [0.1234, '0.123 ms'],
    [2.15, '2.15 ms'],
    [86.4, '86.4 ms'],
    [454.4, '454 ms'],
    [1623, '1.62 s'],
    [11_900, '11.9 s'],
    [Number.NaN, '—'],
  ])('formatMs(%d) is %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });
});
