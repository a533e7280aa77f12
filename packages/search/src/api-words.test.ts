import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiWords, headingName } from './api-words.js';
import { getDocs } from './index.js';

let dir: string;
let store: PackageStore;

const page = (file: string, title: string, sections: Array<[string[], string]>): DocumentInput => ({
  path: file,
  title,
  links: [],
  content: sections.map(([, text]) => text).join('\n\n'),
  chunks: sections.map(([breadcrumb, content]) => ({
    breadcrumb,
    level: breadcrumb.length,
    content,
    tokens: content.split(/\s+/).length,
  })),
});

// A guide section full of the question's other words, which wins when `where` is dropped.
const CLAUSES = 'Add a clause to a query to narrow the rows it returns; add another clause to narrow them more.';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-words-'));
  store = new PackageStore(path.join(dir, 'home'));
  const packages: Array<[string, DocumentInput[]]> = [
    [
      // Its API is named `where`: the word is searched there.
      'querylib',
      [
        page('guide.md', 'Guide', [
          [['Clauses'], CLAUSES],
          // Says "where" in prose: scored without it all the same.
          [['Limits'], 'Add a limit to a clause where a query returns many rows, and an offset to page through them.'],
          [['Joins'], 'Join two tables on a column of each.'],
          [['Ordering'], 'Order the rows by a column, ascending or descending.'],
          [['Transactions'], 'Run several queries in one transaction, committed or rolled back together.'],
        ]),
        page('api/SelectQueryBuilder.md', 'querylib API', [
          [['querylib API', 'SelectQueryBuilder'], 'Class `SelectQueryBuilder`: builds a select query.'],
          [
            ['querylib API', 'SelectQueryBuilder', 'SelectQueryBuilder.where'],
            'Add a where clause to the query: `qb.where("age", ">", 18)`.',
          ],
          [['querylib API', 'SelectQueryBuilder', 'SelectQueryBuilder.clearWhere'], 'Removes every where clause.'],
        ]),
      ],
    ],
    [
      // Its headings say "where" in prose only: the word stays a function word.
      'proselib',
      [
        page('guide.md', 'Guide', [
          [['Clauses'], CLAUSES],
          [['Where to go next'], 'Read where each clause is added, and where the query runs.'],
          [['Where'], 'Where a clause is added to the query decides what it filters.'],
        ]),
      ],
    ],
  ];
  for (const [name, docs] of packages) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(file, { name, version: '1.0.0' }, docs);
    await store.install(file, { move: true });
  }
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('headingName', () => {
  it.each([
    ['SelectQueryBuilder.where', 'where'],
    ['ExpressionBuilder.or', 'or'],
    ['`where()`', 'where'],
    ['.or', 'or'],
    ['or_', 'or'],
    ['Select::where', 'where'],
    ['Model#where', 'where'],
    ['in_(*values)', 'in'],
    ['__init__', '__init__'],
    ['Where to go next', undefined],
    ['Where', 'Where'],
    ['`where` clause', undefined],
    ['', undefined],
  ])('%j names %j', (heading, name) => {
    expect(headingName(heading)).toBe(name);
  });
});

describe('stop words a library names an API by', () => {
  const reader = async (name: string) => {
    const pkg = (await store.list()).find((p) => p.name === name);
    if (!pkg) throw new Error(`${name} is not installed`);
    return store.reader(pkg);
  };

  it('are the words a heading is the name of, in lower case, not prose nor a part of a longer name', async () => {
    expect(await apiWords(await reader('querylib'), ['where', 'a', 'clear'])).toEqual(['where']);
    // `Where` and "Where to go next" say it in prose; `clearWhere` holds it as a part.
    expect(await apiWords(await reader('proselib'), ['where', 'a'])).toEqual([]);
  });

  it('are searched in that library: its section named by the word comes first', async () => {
    const asked = await getDocs(store, 'querylib', 'add a where clause', { format: 'index' });
    expect(asked.query?.terms).toEqual(['add', 'where', 'clause']);
    expect(asked.results[0]?.heading).toBe('SelectQueryBuilder.where');
    // Held by the sections it names, though the index is not asked about it.
    expect(asked.confidence?.unmentioned).toEqual([]);
    // Without the word, the guide holding the other words more often comes first.
    const dropped = await getDocs(store, 'querylib', 'add a clause', { format: 'index' });
    expect(dropped.results[0]?.heading).toBe('Clauses');
  });

  it('are looked for beyond the best sections by the other words', async () => {
    // One candidate by BM25 over the other words (`Clauses`); the section named by the word is scored too.
    const options = { format: 'index', limit: 1, ranking: { candidates: 1 } } as const;
    expect((await getDocs(store, 'querylib', 'add a clause', options)).results[0]?.heading).toBe('Clauses');
    const asked = await getDocs(store, 'querylib', 'add a where clause', options);
    expect(asked.results[0]?.heading).toBe('SelectQueryBuilder.where');
  });

  it('count nowhere else: sections not named by the word score as if it had not been asked', async () => {
    const scores = async (topic: string) =>
      new Map(
        (await getDocs(store, 'querylib', topic, { format: 'index' })).results
          .filter((r) => r.heading !== 'SelectQueryBuilder.where')
          .map((r) => [r.heading, r.score]),
      );
    const asked = await scores('add a where clause');
    const dropped = await scores('add a clause');
    const ratio = (m: Map<string, number>, a: string, b: string) => (m.get(a) ?? 0) / (m.get(b) ?? 1);
    expect(asked.has('Clauses') && asked.has('Limits')).toBe(true);
    expect(ratio(asked, 'Limits', 'Clauses')).toBeCloseTo(ratio(dropped, 'Limits', 'Clauses'), 10);
  });

  it('are looked up again in a package installed anew (what a reader found is kept with that reader)', async () => {
    const home = path.join(dir, 'anew');
    const local = new PackageStore(home);
    try {
      const install = async (heading: string) => {
        const file = path.join(dir, `anew-${heading}.db`);
        const docs = [page('api.md', 'lib API', [[['lib API', heading], 'Adds a clause.']])];
        await writePackage(file, { name: 'lib', version: '1.0.0' }, docs);
        await local.install(file, { move: true });
        const pkg = (await local.list()).find((p) => p.name === 'lib');
        if (!pkg) throw new Error('lib is not installed');
        return apiWords(local.reader(pkg), ['where']);
      };
      expect(await install('Builder.where')).toEqual(['where']);
      expect(await install('Builder.filter')).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('are dropped in a library whose headings only say them in prose', async () => {
    const asked = await getDocs(store, 'proselib', 'add a where clause', { format: 'index' });
    const without = await getDocs(store, 'proselib', 'add a clause', { format: 'index' });
    expect(asked.query?.terms).toEqual(['add', 'clause']);
    expect(asked.results.map((r) => [r.heading, r.score])).toEqual(without.results.map((r) => [r.heading, r.score]));
  });
});
