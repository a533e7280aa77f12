import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import semver from 'semver';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import {
  compareVersions,
  type DocumentInput,
  type InstalledPackage,
  inspectPackageFile,
  PACKAGE_FORMAT_VERSION,
  PackageStore,
  packageFileName,
  parsePackageFileName,
  StoreError,
  writePackage,
} from './index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const docs: DocumentInput[] = [
  {
    path: 'guide/timers.md',
    title: 'Timers',
    content: '# Timers\n\nUse fake timers.',
    chunks: [
      { breadcrumb: ['Timers'], level: 1, content: 'Use vi.useFakeTimers to mock timers.', tokens: 8 },
      { breadcrumb: ['Timers', 'Advance'], level: 2, content: 'Advance time with vi.advanceTimersByTime.', tokens: 9 },
    ],
  },
  {
    path: 'guide/cors.md',
    title: 'CORS',
    content: '# CORS',
    chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 7 }],
  },
];

async function build(name: string, version: string, documents: DocumentInput[] = docs): Promise<string> {
  const file = path.join(dir, `build-${name.replace('/', '_')}-${version}.db`);
  await writePackage(file, { name, version, description: `${name} docs` }, documents);
  return file;
}

describe('writePackage and inspectPackageFile', () => {
  it('writes a package whose metadata, counts and format version read back', async () => {
    const file = path.join(dir, 'out.db');
    const summary = await writePackage(file, { name: 'demo', version: '1.0.0', source: '/docs' }, docs);
    expect(summary).toMatchObject({ documents: 2, chunks: 3, tokens: 24 });
    expect(summary.bytes).toBeGreaterThan(0);
    const info = await inspectPackageFile(file);
    expect(info).toMatchObject({
      name: 'demo',
      version: '1.0.0',
      source: '/docs',
      formatVersion: PACKAGE_FORMAT_VERSION,
    });
    expect(await readdir(dir)).toEqual(['out.db']);
  });

  it('leaves nothing behind when the document stream fails midway', async () => {
    const file = path.join(dir, 'broken.db');
    async function* failing() {
      yield docs[0] as DocumentInput;
      throw new Error('parser exploded');
    }
    await expect(writePackage(file, { name: 'demo', version: '1.0.0' }, failing())).rejects.toThrow(/parser exploded/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("counts each document's inbound links: once per linking page, never from itself or to a path not held", async () => {
    const page = (p: string, links: string[]): DocumentInput => ({
      path: p,
      title: p,
      content: p,
      chunks: [{ breadcrumb: [p], level: 1, content: `about ${p}`, tokens: 3 }],
      links,
    });
    const file = path.join(dir, 'linked.db');
    await writePackage(file, { name: 'demo', version: '1.0.0' }, [
      page('a.md', ['b.md', 'b.md', 'a.md', 'gone.md']),
      page('b.md', ['a.md']),
      page('c.md', ['b.md']),
    ]);
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(file);
    const found = await store.resolve('demo');
    if (!found.ok) throw new Error('expected demo');
    const hits = await store.reader(found.value).search({ terms: ['about'], mode: 'all' }, { limit: 10 });
    expect(Object.fromEntries(hits.map((h) => [h.path, h.inboundLinks]))).toEqual({ 'a.md': 1, 'b.md': 2, 'c.md': 0 });
    await store.close();
  });

  it('rejects invalid names before writing anything', async () => {
    await expect(writePackage(path.join(dir, 'x.db'), { name: '../evil', version: '1' }, [])).rejects.toThrow(
      StoreError,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('refusing package files', () => {
  it('refuses a file that is not SQLite', async () => {
    const file = path.join(dir, 'junk.db');
    await writeFile(file, 'this is not a database at all, just text');
    await expect(inspectPackageFile(file)).rejects.toThrow(/not a SQLite file/);
  });

  it('refuses a SQLite file that is not a package as such, not as an old package', async () => {
    const file = path.join(dir, 'other.db');
    const raw = new Database(file);
    raw.exec('CREATE TABLE notes (body TEXT)');
    raw.close();
    const refused = inspectPackageFile(file);
    await expect(refused).rejects.toMatchObject({ code: 'invalid-package' });
    await expect(refused).rejects.toThrow(/other\.db is a SQLite database but not a documentation package/);
  });

  it('refuses a package of another format version, saying so', async () => {
    const file = await build('demo', '1.0.0');
    const raw = new Database(file);
    raw.pragma(`user_version = ${PACKAGE_FORMAT_VERSION + 1}`);
    raw.close();
    await expect(inspectPackageFile(file)).rejects.toThrow(
      new RegExp(`format version ${PACKAGE_FORMAT_VERSION + 1}.*newer docs`),
    );
  });

  it('refuses a package of an older format version, saying to rebuild it', async () => {
    const file = await build('demo', '1.0.0');
    const raw = new Database(file);
    raw.pragma(`user_version = ${PACKAGE_FORMAT_VERSION - 1}`);
    raw.close();
    await expect(inspectPackageFile(file)).rejects.toThrow(/older docs; rebuild it/);
  });

  it('refuses a package with an extra trigger and leaves the store unchanged', async () => {
    const file = await build('demo', '1.0.0');
    const raw = new Database(file);
    raw.exec('CREATE TRIGGER sneaky AFTER INSERT ON documents BEGIN DELETE FROM chunks; END');
    raw.close();
    const store = new PackageStore(path.join(dir, 'home'));
    await expect(store.install(file)).rejects.toThrow(/unexpected trigger sneaky/);
    expect(await store.list()).toEqual([]);
  });
});

describe('PackageStore', () => {
  it('installs, lists, resolves, searches and removes', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    expect(await store.list()).toEqual([]);
    await store.install(await build('vitest', '4.0.0'));
    await store.install(await build('vitest', '5.0.0-rc.2'));
    await store.install(await build('vitest', '5.0.0'));
    await store.install(await build('@tanstack/query', '5.1.0'));
    const listed = (await store.list()).map((p) => `${p.name}@${p.version}`);
    expect(listed).toEqual(['@tanstack/query@5.1.0', 'vitest@5.0.0', 'vitest@5.0.0-rc.2', 'vitest@4.0.0']);

    const latest = await store.resolve('VITEST');
    expect(latest.ok && latest.value.version).toBe('5.0.0');
    const pinned = await store.resolve('vitest@5.0.0-rc.2');
    expect(pinned.ok && pinned.value.version).toBe('5.0.0-rc.2');
    const ranged = await store.resolve('vitest@4');
    expect(ranged.ok && ranged.value.version).toBe('4.0.0');
    const scoped = await store.resolve('@tanstack/query');
    expect(scoped.ok && scoped.value.version).toBe('5.1.0');

    const missing = await store.resolve('vitset');
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error).toMatchObject({ code: 'unknown-library', name: 'vitset', suggestion: 'vitest' });
      expect(missing.error.installed.map((p) => p.version)).toContain('5.0.0');
    }
    const badVersion = await store.resolve('vitest', '9.9.9');
    expect(!badVersion.ok && badVersion.error.code).toBe('unknown-version');

    const found = await store.resolve('vitest');
    if (!found.ok) throw new Error('expected vitest');
    const reader = store.reader(found.value);
    expect(store.reader(found.value)).toBe(reader);
    const hits = await reader.search({ terms: ['mock', 'timers'], mode: 'all' }, { limit: 10 });
    expect(hits.map((h) => h.breadcrumb)).toEqual([['Timers']]);
    expect(hits[0]?.score).toBeGreaterThan(0);

    await expect(store.remove('vitest')).rejects.toMatchObject({
      code: 'ambiguous',
      message: 'vitest has 3 versions installed; say which to remove: vitest@5.0.0, vitest@5.0.0-rc.2, vitest@4.0.0',
    });
    await expect(store.remove('nope')).rejects.toMatchObject({ code: 'not-installed' });
    await store.remove('vitest@4.0.0');
    await store.remove('@tanstack/query');
    expect((await store.list()).map((p) => p.version)).toEqual(['5.0.0', '5.0.0-rc.2']);
    await store.close();
  });

  it('resolves a range to a prerelease of a version in it when no release is, and marks it', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(await build('vitest', '4.2.0'));
    await store.install(await build('vitest', '5.0.0-rc.2'));
    const five = await store.resolve('vitest@5');
    expect(five.ok && [five.value.version, five.prerelease]).toEqual(['5.0.0-rc.2', { asked: '5' }]);
    const four = await store.resolve('vitest@4');
    expect(four.ok && [four.value.version, four.prerelease]).toEqual(['4.2.0', undefined]);
    await store.close();
  });

  it('takes a semver version over any commit label for a bare name, and of commit labels the newest build', async () => {
    /** A package whose build time is `builtAt`, as the writer records it. */
    const builtAt = async (version: string, time: string) => {
      const file = await build('gitlib', version);
      const raw = new Database(file);
      raw.prepare('update package set built_at = ?').run(time);
      raw.close();
      return file;
    };
    const store = new PackageStore(path.join(dir, 'home'));
    // Built in this order; the commit labels hold digits that once read as 9.0.0 and 1.0.0.
    await store.install(await builtAt('1.4.0', '2026-07-01T10:00:00.000Z'));
    await store.install(await builtAt('d9f66ba', '2026-07-02T10:00:00.000Z'));
    await store.install(await builtAt('a1b2c3d', '2026-07-03T10:00:00.000Z'));
    await store.install(await builtAt('0.9.0', '2026-07-04T10:00:00.000Z'));
    const versions = async () => (await store.list()).map((p) => p.version);
    expect(await versions()).toEqual(['1.4.0', '0.9.0', 'a1b2c3d', 'd9f66ba']);
    const bare = await store.resolve('gitlib');
    expect(bare.ok && bare.value.version).toBe('1.4.0');
    expect(((await store.resolve('gitlib@1')) as { value: InstalledPackage }).value.version).toBe('1.4.0');
    await store.remove('gitlib@1.4.0');
    await store.remove('gitlib@0.9.0');
    const commit = await store.resolve('gitlib');
    expect(commit.ok && commit.value.version).toBe('a1b2c3d');
    // Built again, the older commit is the newest build: the listing reads its new time.
    await store.install(await builtAt('d9f66ba', '2026-07-05T10:00:00.000Z'));
    expect(await versions()).toEqual(['d9f66ba', 'a1b2c3d']);
    await store.close();
  });

  it('refuses to read an installed package of an older format, saying so instead of failing in SQL', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    const { installed } = await store.install(await build('vitest', '4.0.0'));
    // A package installed by an earlier docs: its file is in the store, its format is not this one.
    const raw = new Database(installed.file);
    raw.pragma(`user_version = ${PACKAGE_FORMAT_VERSION - 1}`);
    raw.close();
    const [stale] = await store.list();
    if (!stale) throw new Error('expected the package');
    expect(() => store.reader(stale)).toThrow(
      expect.objectContaining({
        code: 'unknown-format',
        message: expect.stringMatching(/vitest@4\.0\.0 .*older docs; rebuild it/),
      }),
    );
    await store.close();
  });

  it('reports an empty store as no-packages', async () => {
    const store = new PackageStore(path.join(dir, 'never-created'));
    const result = await store.resolve('anything');
    expect(!result.ok && result.error.code).toBe('no-packages');
  });

  it('sees a package replaced under a cached reader', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(await build('lib', '1.0.0'));
    const first = await store.resolve('lib');
    if (!first.ok) throw new Error('expected lib');
    expect(await store.reader(first.value).search({ terms: ['cors'], mode: 'all' }, { limit: 5 })).toHaveLength(1);
    const replacement: DocumentInput[] = [
      {
        path: 'a.md',
        title: 'A',
        content: 'x',
        chunks: [{ breadcrumb: [], level: 0, content: 'nothing relevant', tokens: 2 }],
      },
    ];
    await store.install(await build('lib', '1.0.0', replacement));
    const second = await store.resolve('lib');
    if (!second.ok) throw new Error('expected lib');
    expect(await store.reader(second.value).search({ terms: ['cors'], mode: 'all' }, { limit: 5 })).toHaveLength(0);
    await store.close();
  });
});

describe('term statistics', () => {
  it('counts the chunks holding each term and says which of the asked chunks hold which', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(await build('lib', '1.0.0'));
    const found = await store.resolve('lib');
    if (!found.ok) throw new Error('expected lib');
    const reader = store.reader(found.value);
    const [timers] = await reader.search({ terms: ['timers'], mode: 'all' }, { limit: 1 });
    if (!timers) throw new Error('expected a chunk about timers');
    const stats = await reader.termStatistics(['timers', ['cors', 'middleware'], 'absent', ''], [timers.id]);
    expect(stats.chunks).toBe(3);
    expect(stats.frequencies).toEqual([2, 1, 0, 0]);
    expect(stats.matches).toEqual(new Map([[timers.id, [0]]]));
    await store.close();
  });
});

describe('queries are never FTS5 syntax', () => {
  test.each([
    ['"unbalanced'],
    ['AND'],
    ['NOT'],
    ['NEAR(a b)'],
    ['-x:*'],
    ['^start'],
    ['(paren'],
    ['title:cors'],
    ['*'],
    ['""'],
    ['日本語'],
    ['emoji 🚀'],
    ['a"b'],
  ])('term %j is searched as words without error', async (term) => {
    const store = new PackageStore(path.join(dir, 'home'));
    await store.install(await build('lib', '1.0.0'));
    const found = await store.resolve('lib');
    if (!found.ok) throw new Error('expected lib');
    const reader = store.reader(found.value);
    await expect(reader.search({ terms: [term, 'cors'], mode: 'any' }, { limit: 5 })).resolves.toBeInstanceOf(Array);
    await expect(reader.search({ terms: [term], mode: 'all' }, { limit: 5 })).resolves.toBeInstanceOf(Array);
    await expect(reader.termMatches([term], [1, 2, 3])).resolves.toBeInstanceOf(Map);
    await store.close();
  });
});

describe('names and versions', () => {
  test.each([
    ['1.0.0', '2.0.0', -1],
    ['5.0.0-rc.2', '5.0.0', -1],
    ['5.0.0-rc.2', '4.9.9', 1],
    ['1.9.0', '1.10.0', -1],
    ['v1.2.3', '1.2.4', -1],
    ['v2.0.0', '1.9.9', 1],
    // A label that is not semver sits below every semver version, whatever digits it holds.
    ['d9f66ba', '1.4.0', -1],
    ['d9f66ba', '0.0.1-alpha', -1],
    ['11.x', '11.0.0', -1],
    ['11.x', '10.5.0', -1],
    ['v2', '1.0.0', -1],
    ['2026-07-15', '0.1.0', -1],
    // Between such labels, with no build time known: their text, numbers as numbers and above words.
    ['2026-07-15', '2026-08-08', -1],
    ['release-9', 'release-10', -1],
    ['latest', '0.0.1', -1],
    ['main', '2026-07-15', -1],
    ['alpha', 'beta', -1],
    ['1.2.3', '1.2.3', 0],
  ])('compareVersions(%s, %s) = %i', (a, b, expected) => {
    expect(Math.sign(compareVersions(a, b))).toBe(expected);
    expect(Math.sign(compareVersions(b, a))).toBe(-expected || 0);
  });

  it('orders labels that are not semver by build time, the newest highest, and semver versions without it', () => {
    const older = { version: 'd9f66ba', builtAt: '2026-07-01T10:00:00.000Z' };
    const newer = { version: 'a1b2c3d', builtAt: '2026-07-02T10:00:00.000Z' };
    const unknown = { version: 'f0f0f0f' };
    expect(compareVersions(newer, older)).toBeGreaterThan(0);
    expect(compareVersions(older, unknown)).toBeGreaterThan(0);
    expect(
      compareVersions(
        { version: '2026-08-08', builtAt: older.builtAt },
        { version: '2026-07-15', builtAt: newer.builtAt },
      ),
    ).toBe(-1);
    expect(
      compareVersions({ version: '1.0.0', builtAt: older.builtAt }, { version: '2.0.0', builtAt: newer.builtAt }),
    ).toBe(-1);
    expect(compareVersions({ version: '0.0.1', builtAt: '1970-01-01T00:00:00Z' }, newer)).toBe(1);
  });

  test('no label that is not semver ever sorts above a semver version (property)', () => {
    const identifier = fc.stringMatching(/^(?:0|[1-9][0-9]{0,3}|[a-z][a-z0-9-]{0,5})$/);
    const semverLabel = fc
      .tuple(
        fc.constantFrom('', 'v'),
        fc.nat(99),
        fc.nat(99),
        fc.nat(99),
        fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 }), { nil: undefined }),
      )
      .map(([v, major, minor, patch, pre]) => `${v}${major}.${minor}.${patch}${pre ? `-${pre.join('.')}` : ''}`);
    const otherLabel = fc
      .oneof(
        fc.stringMatching(/^[0-9a-f]{7,12}$/),
        fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9._+-]{0,20}$/),
        fc.tuple(fc.nat(3000), fc.nat(12), fc.nat(31)).map(([y, m, d]) => `${y}-${m}-${d}`),
        fc.tuple(fc.nat(99), fc.nat(99)).map(([a, b]) => `${a}.${b}`),
        fc.nat(99).map((n) => `${n}.x`),
      )
      .filter((label) => semver.valid(label) === null);
    const builtAt = fc.option(
      fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
      { nil: undefined },
    );
    const versioned = (label: fc.Arbitrary<string>) =>
      fc.record({ version: label, builtAt }, { requiredKeys: ['version'] });
    fc.assert(
      fc.property(
        fc.array(versioned(semverLabel), { minLength: 1, maxLength: 8 }),
        fc.array(versioned(otherLabel), { minLength: 1, maxLength: 8 }),
        (versions, others) => {
          for (const v of versions) {
            for (const o of others) {
              expect(compareVersions(o, v)).toBeLessThan(0);
              expect(compareVersions(v, o)).toBeGreaterThan(0);
            }
          }
          // Sorted highest first, as the store lists them: every semver version before every other label.
          const sorted = [...others, ...versions].sort((a, b) => compareVersions(b, a));
          expect(sorted.slice(0, versions.length).every((l) => semver.valid(l.version) !== null)).toBe(true);
        },
      ),
    );
  });

  test('is a total order: antisymmetric and transitive over any labels (property)', () => {
    const label = fc.record(
      {
        version: fc.oneof(
          fc.stringMatching(/^v?[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}(?:-[a-z0-9]{1,4})?$/),
          fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9._+-]{0,8}$/),
        ),
        builtAt: fc.option(fc.constantFrom('2026-07-01T00:00:00Z', '2026-07-02T00:00:00Z', 'not a time'), {
          nil: undefined,
        }),
      },
      { requiredKeys: ['version'] },
    );
    fc.assert(
      fc.property(label, label, label, (a, b, c) => {
        expect(Math.sign(compareVersions(a, b))).toBe(-Math.sign(compareVersions(b, a)) || 0);
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0)
          expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    [{ name: 'vitest', version: '5.0.0-rc.2' }, 'vitest@5.0.0-rc.2.db'],
    [{ name: '@tanstack/query', version: '5.1.0' }, '@tanstack+query@5.1.0.db'],
    [{ name: 'pnpm', version: '11.x' }, 'pnpm@11.x.db'],
  ])('package file name of %j is %s and parses back', (id, file) => {
    expect(packageFileName(id)).toBe(file);
    expect(parsePackageFileName(file)).toEqual(id);
  });

  test.each([['.hidden@1.db'], ['noversion.db'], ['x@1.db.partial'], ['readme.txt']])(
    '%s is not a package file',
    (file) => {
      expect(parsePackageFileName(file)).toBeUndefined();
    },
  );
});

describe('long names', () => {
  const longest = 'a'.repeat(214);

  it('installs a library of the longest name npm allows (214 characters) with a short version', async () => {
    const store = new PackageStore(path.join(dir, 'home'));
    await mkdir(store.dir);
    // The partial file of a build is named after the package: it must fit too.
    const file = store.partialPath({ name: longest, version: '1.0.0' });
    await writePackage(file, { name: longest, version: '1.0.0' }, docs);
    const { installed } = await store.install(file, { move: true });
    expect(installed.name).toBe(longest);
    expect((await store.resolve(longest)).ok).toBe(true);
    await store.close();
  });

  test.each([
    [`${longest}b`, '1.0.0', /is 215 characters long; at most 214/],
    [longest, '1.0.0-beta.10', /too long: its file name would be 231 characters, and at most 225 fit/],
  ])('refuses %# with a clear error, not ENAMETOOLONG', async (name, version, message) => {
    const store = new PackageStore(path.join(dir, 'home'));
    const attempt = () => store.partialPath({ name, version });
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(expect.objectContaining({ code: 'invalid-name' }));
    await expect(writePackage(path.join(dir, 'x.db'), { name, version }, docs)).rejects.toThrow(message);
  });
});
