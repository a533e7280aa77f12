import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PackageStore, writePackage } from './index.js';
import { isBeingBuilt, tryBuildLock, withNameLock } from './name-lock.js';

// Two spellings of one library installed at the same moment: by real installs, into one real store directory.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-name-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const documents = [
  {
    path: 'a.md',
    title: 'A',
    content: '# A',
    chunks: [{ breadcrumb: ['A'], level: 1, content: 'alpha', tokens: 1 }],
  },
];

async function build(name: string): Promise<string> {
  const file = path.join(dir, `${name}.db`);
  await writePackage(file, { name, version: '1.0.0' }, documents);
  return file;
}

const installedNames = async (home: string) =>
  (await readdir(home).catch(() => [] as string[])).filter((f) => f.endsWith('.db'));

describe('installing two spellings of one name at once', () => {
  it('installs one of casetest and CaseTest and refuses the other, every time (two stores, one directory)', async () => {
    const files = [await build('casetest'), await build('CaseTest')];
    for (let attempt = 0; attempt < 20; attempt++) {
      const home = path.join(dir, `home-${attempt}`);
      const results = await Promise.allSettled(files.map((file) => new PackageStore(home).install(file)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected');
      expect(refused?.reason).toMatchObject({ code: 'name-taken' });
      expect(await installedNames(home)).toHaveLength(1);
      // No lock is left behind.
      expect((await readdir(home)).filter((f) => f.endsWith('.lock'))).toEqual([]);
    }
  });

  it('does so across processes: two real installs started together never both install', async () => {
    const files = [await build('casetest'), await build('CaseTest')];
    const storeModule = new URL('../dist/index.js', import.meta.url).href;
    const script = `const { PackageStore } = await import(${JSON.stringify(storeModule)});
      await new PackageStore(process.argv[1]).install(process.argv[2]).then(() => process.exit(0), () => process.exit(3));`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const home = path.join(dir, `procs-${attempt}`);
      const codes = await Promise.all(
        files.map(
          (file) =>
            new Promise<number | null>((resolve) => {
              const child = spawn(process.execPath, ['--input-type=module', '-e', script, home, file], {
                stdio: 'ignore',
              });
              child.on('close', resolve);
            }),
        ),
      );
      expect(codes.sort()).toEqual([0, 3]);
      expect(await installedNames(home)).toHaveLength(1);
    }
  });

  it('takes over the lock of a process that was killed holding it', async () => {
    const home = path.join(dir, 'home');
    const file = await build('casetest');
    await new PackageStore(home).install(file);
    // A pid that no process has: the lock of an install killed between its check and its rename.
    await writeFile(path.join(home, '.casetest.lock'), '2147483646');
    const started = Date.now();
    expect(await withNameLock(home, 'CaseTest', async () => 'held')).toBe('held');
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await readdir(home)).filter((f) => f.includes('.lock'))).toEqual([]);
  });

  it("is never seen without its holder's pid, so a kill at any point leaves a lock the next listing can judge", async () => {
    const home = path.join(dir, 'home');
    await mkdir(home, { recursive: true });
    const lock = path.join(home, '.casetest.lock');
    const seen: string[] = [];
    let holding = true;
    // Reads the lock on every turn of the event loop while it is taken and given back, in this process: a read
    // between making the lock and writing into it sees it empty.
    const read = () => {
      try {
        return readFileSync(lock, 'utf8');
      } catch {
        return 'absent';
      }
    };
    const watching = new Promise<void>((resolve) => {
      const turn = () => {
        seen.push(read());
        if (holding) setImmediate(turn);
        else resolve();
      };
      turn();
    });
    for (let i = 0; i < 300; i++) await withNameLock(home, 'casetest', async () => undefined);
    holding = false;
    await watching;
    expect(seen.filter((content) => content !== 'absent').length).toBeGreaterThan(0);
    expect(seen.filter((content) => content !== 'absent' && content !== String(process.pid))).toEqual([]);
    expect(await readdir(home)).toEqual([]);
  });

  it('takes over a lock left without a pid (killed between making it and writing its pid) once it is old', async () => {
    const home = path.join(dir, 'home');
    await mkdir(home, { recursive: true });
    const lock = path.join(home, '.casetest.lock');
    await writeFile(lock, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const started = Date.now();
    expect(await withNameLock(home, 'casetest', async () => 'held')).toBe('held');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await readdir(home)).toEqual([]);
  });

  it('is swept by the next listing when its holder is gone, and kept while its holder runs or it was just made', async () => {
    const home = path.join(dir, 'home');
    await new PackageStore(home).install(await build('kept'));
    await writeFile(path.join(home, '.dead.lock'), '2147483646');
    await writeFile(path.join(home, '.alive.lock'), String(process.pid));
    await writeFile(path.join(home, '.fresh.lock'), '');
    expect((await new PackageStore(home).list()).map((p) => p.name)).toEqual(['kept']);
    expect((await readdir(home)).filter((f) => f.endsWith('.lock')).sort()).toEqual(['.alive.lock', '.fresh.lock']);
  });
});

describe('the build lock of a library', () => {
  it('is held by one builder at a time, whatever the case, never meets the install lock, and is gone once released', async () => {
    const home = path.join(dir, 'home');
    await mkdir(home, { recursive: true });
    expect(await isBeingBuilt(home, 'dayjs')).toBe(false);
    const release = await tryBuildLock(home, 'dayjs');
    expect(release).toBeTypeOf('function');
    expect(await tryBuildLock(home, 'DayJS')).toBeUndefined();
    expect(await isBeingBuilt(home, 'dayjs')).toBe(true);
    // An install of the same name goes on while the library builds: the two locks are different files.
    expect(await withNameLock(home, 'dayjs', async () => 'installed')).toBe('installed');
    await release?.();
    expect(await isBeingBuilt(home, 'dayjs')).toBe(false);
    expect(await readdir(home)).toEqual([]);
  });

  it('is taken over from a process that was killed holding it, and swept by a listing', async () => {
    const home = path.join(dir, 'home');
    await mkdir(home, { recursive: true });
    const lock = path.join(home, '.@scope+pkg@build.lock');
    await writeFile(lock, '2147483646');
    expect(await isBeingBuilt(home, '@scope/pkg')).toBe(false);
    const release = await tryBuildLock(home, '@scope/pkg');
    expect(release).toBeTypeOf('function');
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    await release?.();
    await writeFile(lock, '2147483646');
    await new PackageStore(home).list();
    expect(await readdir(home)).toEqual([]);
  });
});
