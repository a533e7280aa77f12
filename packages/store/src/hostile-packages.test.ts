import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { type DocumentInput, inspectPackageFile, PackageStore, StoreError, writePackage } from './index.js';

/** What a store directory holds besides its catalog (derived data, in a folder of its own). */
async function storeEntries(storeDir: string): Promise<string[]> {
  return (await readdir(storeDir)).filter((f) => f !== '.catalog');
}

// One test per way a package file can be hostile or broken: each is refused at
// install with its reason, and the store is left as it was.

let dir: string;
let storeDir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-hostile-'));
  storeDir = path.join(dir, 'store');
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
    links: ['guide/cors.md'],
  },
  {
    path: 'guide/cors.md',
    title: 'CORS',
    content: '# CORS',
    chunks: [{ breadcrumb: ['CORS'], level: 1, content: 'Enable CORS with the cors middleware.', tokens: 7 }],
  },
];

async function build(name = 'httpx', version = '0.28.1'): Promise<string> {
  const file = path.join(dir, `${name}-${version}-${Math.random().toString(36).slice(2)}.db`);
  await writePackage(file, { name, version }, docs);
  return file;
}

/** Runs SQL on a package file, as someone editing it by hand would. */
function tamper(file: string, ...statements: string[]): void {
  const db = new Database(file);
  // Off SQLite's defensive mode, as the sqlite3 shell is: shadow tables and the schema can be written.
  db.unsafeMode(true);
  try {
    db.pragma('foreign_keys = OFF');
    for (const statement of statements) db.exec(statement);
  } finally {
    db.close();
  }
}

/** Sets a NOT NULL column to NULL, which only an edited schema lets through. */
function nullOut(file: string, table: string, column: string): void {
  const db = new Database(file);
  db.unsafeMode(true);
  const original = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table) as string;
  const loose = original.replace(new RegExp(`("${column}" \\w+) not null`), '$1');
  expect(loose).not.toBe(original);
  db.pragma('writable_schema = ON');
  db.prepare('UPDATE sqlite_master SET sql = ? WHERE name = ?').run(loose, table);
  db.close();
  const edited = new Database(file);
  edited.unsafeMode(true);
  edited.exec(`UPDATE ${table} SET ${column} = NULL WHERE rowid = (SELECT min(rowid) FROM ${table})`);
  edited.pragma('writable_schema = ON');
  edited.prepare('UPDATE sqlite_master SET sql = ? WHERE name = ?').run(original, table);
  edited.close();
}

async function expectRefused(file: string, reason: RegExp): Promise<void> {
  const store = new PackageStore(storeDir);
  const error = await store.install(file).catch((e: unknown) => e);
  if (!(error instanceof StoreError)) throw error;
  expect(error).toMatchObject({ code: 'invalid-package' });
  expect((error as Error).message).toMatch(reason);
  expect(await store.list()).toEqual([]);
  // Nothing staged is left in the store, nothing beside the source.
  expect(await readdir(storeDir).catch(() => 'no store directory')).toEqual('no store directory');
  expect((await readdir(path.dirname(file))).filter((f) => f.startsWith(path.basename(file)))).toEqual([
    path.basename(file),
  ]);
  await store.close();
}

describe('a package with the right schema but bad rows is refused with the reason', () => {
  test.each([
    [
      'breadcrumb not JSON',
      "UPDATE chunks SET breadcrumb = 'not json {' WHERE id = 2",
      /chunks row 2: breadcrumb is not a JSON/,
    ],
    ['breadcrumb an object', 'UPDATE chunks SET breadcrumb = \'{"a":1}\' WHERE id = 1', /chunks row 1: breadcrumb/],
    ['breadcrumb of numbers', "UPDATE chunks SET breadcrumb = '[1,2]' WHERE id = 3", /chunks row 3: breadcrumb/],
    [
      'negative inbound links',
      'UPDATE documents SET inbound_links = -2 WHERE id = 2',
      /documents row 2: inbound_links/,
    ],
    ['negative tokens', 'UPDATE chunks SET tokens = -5 WHERE id = 1', /chunks row 1: tokens is not a whole number ≥ 0/],
    ['fractional tokens', 'UPDATE chunks SET tokens = 2.5 WHERE id = 1', /chunks row 1: tokens/],
    [
      'heading level 9',
      'UPDATE chunks SET level = 9 WHERE id = 2',
      /chunks row 2: level is not a whole number from 0 to 6/,
    ],
    ['negative ord', 'UPDATE chunks SET ord = -1 WHERE id = 3', /chunks row 3: ord/],
    ['content a blob', "UPDATE chunks SET content = X'00ff' WHERE id = 1", /chunks row 1: content is not text/],
    ['title a blob', "UPDATE documents SET title = X'07' WHERE id = 1", /documents row 1: title is not text/],
    [
      'chunk of no document',
      'UPDATE chunks SET document_id = 99 WHERE id = 1',
      /chunks row 1: document_id names no document/,
    ],
    [
      'a title of a megabyte',
      "UPDATE documents SET title = printf('%.*c', 1000001, 'x') WHERE id = 1",
      /documents row 1: title is longer than 1000 characters/,
    ],
    [
      'a heading of 1001 characters',
      "UPDATE chunks SET breadcrumb = json_array('Timers', printf('%.*c', 1001, 'x')) WHERE id = 2",
      /chunks row 2: a heading of breadcrumb is longer than 1000/,
    ],
    [
      'an embedder id of terminal escapes',
      "INSERT INTO embedder VALUES (char(27) || ']0;owned' || char(7), 4); INSERT INTO chunk_vectors SELECT id, zeroblob(16) FROM chunks",
      /invalid vectors: the embedder's id is not at most 200 printable ASCII/,
    ],
    ['chunk id beyond 2^31', 'UPDATE chunks SET id = 1099511627776 WHERE id = 3', /chunks row 1099511627776: id is/],
    ['ord beyond 2^31', 'UPDATE chunks SET ord = 4294967296 WHERE id = 2', /chunks row 2: ord is not a whole number/],
  ])('%s', async (_case, statement, reason) => {
    const file = await build();
    tamper(file, statement);
    await expectRefused(file, reason);
  });

  it('even when this process wrote the file into the store and it was changed before the install', async () => {
    const store = new PackageStore(storeDir);
    await mkdir(storeDir, { recursive: true });
    // A build's own output skips the row checks at install only while it is the file the writer left.
    const fresh = store.partialPath({ name: 'httpx', version: '0.28.1' });
    await writePackage(fresh, { name: 'httpx', version: '0.28.1' }, docs);
    await store.install(fresh, { move: true });
    const changed = store.partialPath({ name: 'zod', version: '4.0.0' });
    await writePackage(changed, { name: 'zod', version: '4.0.0' }, docs);
    tamper(changed, 'UPDATE chunks SET tokens = -5 WHERE id = 1');
    const error = await store.install(changed, { move: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-package', message: expect.stringMatching(/chunks row 1: tokens/) });
    expect((await store.list()).map((p) => p.name)).toEqual(['httpx']);
    await store.close();
  });

  test.each([
    ['chunks', 'content'],
    ['documents', 'content'],
    ['package', 'description'],
  ])('NULL %s.%s', async (table, column) => {
    const file = await build();
    nullOut(file, table, column);
    // SQLite's quick check names a NULL in a NOT NULL column; the row rules would too.
    await expectRefused(
      file,
      new RegExp(`NULL value in ${table}\\.${column}|${table} row \\d+: ${column} is not text`),
    );
  });

  it('inspectPackageFile gives the same reason, and leaves nothing beside the file', async () => {
    const file = await build();
    tamper(file, "UPDATE chunks SET breadcrumb = 'not json {' WHERE id = 2");
    await expect(inspectPackageFile(file)).rejects.toThrow(/bad data: chunks row 2/);
    expect((await readdir(dir)).filter((f) => f.startsWith(path.basename(file)))).toEqual([path.basename(file)]);
  });
});

describe('WAL-mode package files', () => {
  it('are installed normalised: no -wal or -shm beside the source or in the store', async () => {
    const file = await build();
    tamper(file, 'PRAGMA journal_mode = WAL');
    expect((await readdir(dir)).filter((f) => f.includes('-wal') || f.includes('-shm'))).toEqual([]);
    const store = new PackageStore(storeDir);
    const { installed } = await store.install(file);
    const found = await store.resolve('httpx');
    if (!found.ok) throw new Error('expected httpx');
    expect((await store.reader(found.value).stats()).chunks).toBe(3);
    // The catalog is the store's derived data, in a folder of its own.
    expect(await storeEntries(storeDir)).toEqual([path.basename(installed.file)]);
    expect((await readdir(dir)).filter((f) => /-(wal|shm|journal)$/.test(f))).toEqual([]);
    const check = new Database(installed.file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
    await store.close();
    expect(await storeEntries(storeDir)).toEqual([path.basename(installed.file)]);
  });

  it('are refused while their -wal holds changes not yet in the file', async () => {
    const file = await build();
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("UPDATE package SET description = 'edited'");
    const store = new PackageStore(storeDir);
    await expect(store.install(file)).rejects.toThrow(/changes not yet written into it.*wal_checkpoint/s);
    writer.close();
    expect(await store.list()).toEqual([]);
  });

  it('remove takes the side files too', async () => {
    const store = new PackageStore(storeDir);
    const { installed } = await store.install(await build());
    await writeFile(`${installed.file}-wal`, '');
    await writeFile(`${installed.file}-shm`, '');
    await store.remove('httpx@0.28.1');
    expect(await storeEntries(storeDir)).toEqual([]);
  });
});

describe('library names are one library whatever their case', () => {
  it('refuses a case variant of an installed name, saying so', async () => {
    const store = new PackageStore(storeDir);
    await store.install(await build('httpx', '0.28.1'));
    const error = await store.install(await build('Httpx', '0.28.1')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'name-taken' });
    expect((error as Error).message).toMatch(/Httpx@0\.28\.1 differs only in case from the installed httpx/);
    await expect(store.install(await build('HTTPX', '1.0.0'))).rejects.toMatchObject({ code: 'name-taken' });
    expect((await store.list()).map((p) => `${p.name}@${p.version}`)).toEqual(['httpx@0.28.1']);
    expect((await storeEntries(storeDir)).length).toBe(1);
  });

  it('remove removes each spelling an older docs installed, as list shows it', async () => {
    await mkdir(storeDir, { recursive: true });
    const lower = await build('httpx', '0.28.1');
    const upper = await build('Httpx', '0.28.1');
    await copyFile(lower, path.join(storeDir, 'httpx@0.28.1.db'));
    await copyFile(upper, path.join(storeDir, 'Httpx@0.28.1.db'));
    const store = new PackageStore(storeDir);
    const shown = (await store.list()).map((p) => `${p.name}@${p.version}`);
    expect(shown.sort()).toEqual(['Httpx@0.28.1', 'httpx@0.28.1']);
    const exact = await store.resolve('Httpx@0.28.1');
    expect(exact.ok && exact.value.name).toBe('Httpx');
    expect((await store.remove('Httpx@0.28.1')).name).toBe('Httpx');
    expect((await store.remove('httpx@0.28.1')).name).toBe('httpx');
    expect(await store.list()).toEqual([]);
  });
});

describe('files of a build whose process is gone', () => {
  const deadPid = (): number => {
    const child = spawnSync(process.execPath, ['-e', '0']);
    return child.pid as number;
  };

  it('are removed by the next store operation; a running build keeps its files', async () => {
    await mkdir(storeDir, { recursive: true });
    const dead = deadPid();
    const leftovers = [
      `.httpx@0.28.1.db.${dead}-0123456789ab.partial`,
      `..httpx@0.28.1.db.${dead}-0123456789ab.partial.${dead}-ba9876543210.partial`,
      `..httpx@0.28.1.db.${dead}-0123456789ab.partial.${dead}-ba9876543210.partial-journal`,
      `.install.${dead}-00aa11bb22cc.partial`,
    ];
    const running = `.vitest@1.0.0.db.${process.pid}-0123456789ab.partial`;
    for (const f of [...leftovers, running]) await writeFile(path.join(storeDir, f), 'x');
    const store = new PackageStore(storeDir);
    await store.list();
    expect(await storeEntries(storeDir)).toEqual([running]);
  });

  it('are removed before a build starts and at install', async () => {
    await mkdir(storeDir, { recursive: true });
    const leftover = `.httpx@0.28.1.db.${deadPid()}-0123456789ab.partial`;
    const store = new PackageStore(storeDir);
    await store.list();
    await writeFile(path.join(storeDir, leftover), 'x');
    const partial = store.partialPath({ name: 'httpx', version: '0.28.1' });
    expect(path.basename(partial)).toMatch(new RegExp(`\\.${process.pid}-[0-9a-f]{12}\\.partial$`));
    expect(await storeEntries(storeDir)).toEqual([]);
    await writeFile(path.join(storeDir, leftover), 'x');
    await store.install(await build());
    expect(await storeEntries(storeDir)).toEqual(['httpx@0.28.1.db']);
  });
});

describe('a package built here from a page with huge headings', () => {
  it('holds them cut to a line, so it installs wherever it is shared (which refuses longer ones)', async () => {
    const huge = 'a very long heading '.repeat(10_500); // 210 KB
    const built = path.join(dir, 'built.db');
    await writePackage(built, { name: 'huge', version: '1.0.0' }, [
      {
        path: 'guide/huge.md',
        title: huge,
        content: `# ${huge}`,
        chunks: [{ breadcrumb: [huge, huge, huge, huge, huge], level: 1, content: 'Text.', tokens: 2 }],
      },
    ]);
    // A copy is a file from elsewhere: every row is checked, as on a teammate's machine.
    const shared = path.join(dir, 'shared.db');
    await copyFile(built, shared);
    const store = new PackageStore(storeDir);
    await store.install(shared);
    const [pkg] = await store.list();
    expect(pkg?.name).toBe('huge');
    if (!pkg) return;
    const [hit] = await store.reader(pkg).search({ terms: ['heading'], mode: 'any' }, { limit: 1 });
    expect(hit?.title.length).toBeLessThanOrEqual(1000);
    expect(hit?.title.endsWith('…')).toBe(true);
    expect(hit?.breadcrumb).toHaveLength(5);
    expect(JSON.stringify(hit?.breadcrumb).length).toBeLessThanOrEqual(4000);
    await store.close();
  });
});
