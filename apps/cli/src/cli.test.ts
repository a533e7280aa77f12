import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// These tests run the built command as a user would: a real process, a real store.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let home: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(...args: string[]) {
  const result = docs(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  home = await mkdtemp(path.join(tmpdir(), 'docs-cli-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('docs', () => {
  it('prints its version and help', () => {
    // package.json's version, which a release sets; from a git checkout, with the commit (release-check covers the tarball).
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const commit = existsSync(fileURLToPath(new URL('../../../.git', import.meta.url)))
      ? /\+git\.[0-9a-f]{7,}(\.dirty)?/
      : '';
    const version = new RegExp(`^${manifest.version.replaceAll('.', '\\.')}${commit ? commit.source : ''}\n$`);
    expect(docs('--version').stdout).toMatch(version);
    expect(docs('-V').stdout).toMatch(version);
    expect(docs('--version').stdout).not.toMatch(/^0\.0\.0\n$/);
    const help = docs('--help');
    expect(help.code).toBe(0);
    for (const command of ['add', 'list', 'remove', 'get', 'search', 'read']) expect(help.stdout).toContain(command);
  });

  it('adds folders, with the name and version given or read from a name@version folder', () => {
    const alpha = docs('add', path.join(fixtures, 'alpha@1.0.0'), '--name', 'alpha', '--version', '1.0.0');
    expect(alpha.code).toBe(0);
    expect(alpha.stdout).toMatch(/^Added alpha@1\.0\.0: 2 documents, \d+ sections/);
    const beta = json('add', path.join(fixtures, 'beta@2.0.0'));
    expect(beta).toMatchObject({ library: 'beta@2.0.0', documents: 2, replaced: false });
  });

  it('lists what is installed', () => {
    const listed = json('list');
    expect(listed.libraries.map((l: { library: string }) => l.library)).toEqual(['alpha@1.0.0', 'beta@2.0.0']);
    expect(docs('list').stdout).toMatch(/alpha@1\.0\.0\s+\d+ sections/);
  });

  it('gets the right section first from one library', () => {
    const answer = json('get', 'alpha', 'fake timers');
    expect(answer.status).toBe('ok');
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
    expect(answer.results[0].breadcrumb[0]).toBe('Fake timers');
    const human = docs('get', 'alpha', 'how do I mock timers in alpha');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/── alpha@1\.0\.0 · Fake timers.* · guide\/timers\.md · score 1\.00/);
  });

  it('never indexes node_modules or hidden folders, and strips MDX', () => {
    expect(json('get', 'alpha', 'zzzskipped').status).toBe('no-match');
    const answer = json('get', 'alpha', 'install the CLI', '--format', 'full');
    const content = answer.results.map((r: { content: string }) => r.content).join('\n');
    expect(content).toContain('npm install alpha');
    expect(content).not.toContain('<Tab');
    expect(content).not.toContain('import {');
  });

  it('searches across libraries with scores in [0, 1] and the total within the budget', () => {
    const answer = json('search', 'enable CORS');
    const libraries = new Set(answer.results.map((r: { library: string }) => r.library));
    expect(libraries.size).toBeGreaterThanOrEqual(2);
    for (const r of answer.results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(answer.totalTokens).toBeLessThanOrEqual(2000);
    const restricted = json('search', 'cors', '--library', 'beta');
    expect(restricted.searched).toEqual(['beta@2.0.0']);
  });

  it('answers query text full of FTS5 syntax without an SQL error', () => {
    const result = docs('get', 'alpha', '"unbalanced ( AND NOT -x:* ^');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(/SQL|syntax error|fts5/i);
  });

  it('reads a whole page', () => {
    const page = docs('read', 'alpha', 'guide/timers.md');
    expect(page.code).toBe(0);
    expect(page.stdout).toContain('## Restoring real timers');
    expect(page.stdout).toContain('# this is a comment, not a heading');
  });

  it('takes a prerelease for a range no release meets, and says so', () => {
    expect(docs('add', path.join(fixtures, 'alpha@1.0.0'), '--name', 'pre', '--version', '5.0.0-rc.2').code).toBe(0);
    const human = docs('get', 'pre@5', 'fake timers');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/── pre@5\.0\.0-rc\.2 · Fake timers/);
    expect(human.stdout).toMatch(/pre has no release matching "5"; using the prerelease 5\.0\.0-rc\.2\. /);
    const answer = json('get', 'pre@5', 'fake timers');
    expect(answer.searched).toEqual(['pre@5.0.0-rc.2']);
    expect(answer.message).toMatch(/^pre has no release matching "5"/);
    expect(docs('get', 'pre@6', 'fake timers').stderr).toMatch(/^docs: pre has no version "6"/);
    expect(docs('remove', 'pre').code).toBe(0);
  });

  it('takes the highest semver version for a bare name, never a commit label; of commit labels the newest build', () => {
    const add = (version: string) =>
      expect(docs('add', path.join(fixtures, 'alpha@1.0.0'), '--name', 'gitlib', '--version', version).code).toBe(0);
    // Built in this order: d9f66ba once read as 9.0.0 and outranked 1.4.0; a1b2c3d is the newer build of the two.
    add('1.4.0');
    add('d9f66ba');
    add('a1b2c3d');
    const listed = () =>
      json('list')
        .libraries.map((l: { library: string }) => l.library)
        .filter((l: string) => l.startsWith('gitlib@'));
    expect(listed()).toEqual(['gitlib@1.4.0', 'gitlib@a1b2c3d', 'gitlib@d9f66ba']);
    expect(json('get', 'gitlib', 'fake timers').searched).toEqual(['gitlib@1.4.0']);
    expect(json('search', 'fake timers', '--library', 'gitlib').searched).toEqual(['gitlib@1.4.0']);
    expect(docs('remove', 'gitlib@1.4.0').code).toBe(0);
    expect(json('get', 'gitlib', 'fake timers').searched).toEqual(['gitlib@a1b2c3d']);
    for (const version of ['a1b2c3d', 'd9f66ba']) expect(docs('remove', `gitlib@${version}`).code).toBe(0);
  });

  it('refuses bad input with one line on stderr and exit code 2, writing nothing', async () => {
    const before = await readdir(home);
    const cases = [
      docs('get', 'nosuchlib', 'x'),
      docs('add', path.join(fixtures, 'missing-folder'), '--name', 'x', '--version', '1'),
      docs('add', fixtures),
      docs('get', 'alpha', 'x', '--limit', 'many'),
      docs('get', 'alpha', 'x', '--format', 'xml'),
      docs('frobnicate'),
      docs('read', 'alpha', 'no/such/page.md'),
      docs('remove', 'nosuchlib'),
    ];
    for (const result of cases) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^docs: /);
      expect(result.stdout).toBe('');
    }
    expect(docs('get', 'alpah', 'x').stderr).toMatch(/Did you mean "alpha"\?.*alpha@1\.0\.0, beta@2\.0\.0/);
    expect(await readdir(home)).toEqual(before);
  });

  it('with --json, prints an error as { error: { code, message } } on stdout too, with the same exit code', () => {
    const cases: [string[], string][] = [
      [['get', 'nosuchlib', 'x'], 'unknown-library'],
      [['get', 'alpha@9', 'x'], 'unknown-version'],
      [['get', 'alpha', 'x', '--limit', 'many'], 'invalid-argument'],
      [['frobnicate'], 'unknown-command'],
      [['get', 'alpha', 'x', '--colour'], 'unknown-option'],
      [['read', 'alpha', 'no/such/page.md'], 'unknown-path'],
      [['add', path.join(fixtures, 'missing-folder'), '--name', 'x', '--version', '1'], 'not-found'],
    ];
    // Without --json the same cases exit 2 with the same line on stderr (the test above).
    for (const [args, code] of cases) {
      const result = docs(...args, '--json');
      expect(result.code, result.stderr).toBe(2);
      const printed = JSON.parse(result.stdout);
      expect(Object.keys(printed)).toEqual(['error']);
      expect(printed.error.code, args.join(' ')).toBe(code);
      expect(result.stderr).toBe(`docs: ${printed.error.message}\n`);
    }
  });

  it('says what is wrong rather than something misleading', async () => {
    const other = path.join(home, '..', `${path.basename(home)}-other.db`);
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(other);
    raw.exec('CREATE TABLE notes (body TEXT)');
    raw.close();
    const notPackage = docs('add', other);
    await rm(other, { force: true });
    expect(notPackage.code).toBe(2);
    expect(notPackage.stderr).toMatch(/is a SQLite database but not a documentation package/);
    expect(notPackage.stderr).not.toMatch(/older docs|format version/);
    const file = docs('add', path.join(fixtures, 'alpha@1.0.0', 'guide', 'timers.md'));
    expect(file.stderr).toMatch(/timers\.md is a file: name a folder of documentation, a git repository/);
    expect(docs('add', 'no-such-readme.md').stderr).toMatch(/^docs: nothing at no-such-readme\.md: name a folder/);
    // --limit 0 and --limit -1 are refused alike, by the flag.
    for (const limit of ['0', '-1'])
      expect(docs('get', 'alpha', 'x', '--limit', limit).stderr).toMatch(
        /--limit <n>' argument '-?\d' is invalid\. expected a whole number ≥ 1/,
      );
  });

  it('says how to get the rest: next page of results, next part of a page', () => {
    const cut = docs('get', 'alpha', 'timers', '--tokens', '60');
    const last = cut.stdout.trim().split('\n').at(-1) ?? '';
    const shown = json('get', 'alpha', 'timers', '--tokens', '60');
    expect(shown.results.length).toBeLessThan(shown.total);
    expect(shown.nextOffset).toBe(shown.results.length);
    expect(last).toMatch(new RegExp(`More: the same command with --offset ${shown.nextOffset}$`));
    const next = json('get', 'alpha', 'timers', '--tokens', '60', '--offset', String(shown.nextOffset));
    expect(next.results[0].path + next.results[0].breadcrumb).not.toBe(
      shown.results[0].path + shown.results[0].breadcrumb,
    );
    expect(json('get', 'alpha', 'timers', '--tokens', '0').nextOffset).toBeUndefined();

    const part = docs('read', 'alpha', 'guide/timers.md', '--tokens', '30');
    const hint = /\(more: docs read alpha guide\/timers\.md --tokens 30 --offset (\d+)\)/.exec(part.stderr);
    expect(hint, part.stderr).not.toBeNull();
    // Following the hint gives the next part of the same size, not the whole rest of the page.
    const following = json('read', 'alpha', 'guide/timers.md', '--tokens', '30', '--offset', hint?.[1] ?? '');
    expect(following.tokens).toBeLessThanOrEqual(30);
    expect(following.nextOffset).toBeGreaterThan(Number(hint?.[1]));
  });

  it('pages under a token budget without repeating or skipping a result', async () => {
    // Pages whose sizes and ranks alternate: the budget leaves a large one out while smaller ones after it fit.
    const folder = await mkdtemp(path.join(tmpdir(), 'docs-pages-'));
    const pages: Array<[string, number, number]> = [
      ['Widget basics', 6, 1],
      ['Widget layout', 60, 20],
      ['Widget keys', 2, 12],
      ['Widget state', 30, 4],
      ['Widget events', 8, 1],
      ['Widget focus', 50, 12],
      ['Widget tests', 5, 1],
      ['Widget styles', 20, 2],
    ];
    await Promise.all(
      pages.map(([heading, words, mentions], i) =>
        writeFile(
          path.join(folder, `page-${i}.md`),
          `# ${heading}\n\n${'The widget. '.repeat(mentions)}${Array.from({ length: words }, (_, k) => `word${i}x${k}`).join(' ')}.\n`,
        ),
      ),
    );
    expect(docs('add', folder, '--name', 'widgets', '--version', '1.0.0').code).toBe(0);
    await rm(folder, { recursive: true, force: true });
    type Shown = { path: string; breadcrumb: string[]; sections?: string[][] };
    const labels = (results: Shown[]) =>
      results.flatMap((r) => (r.sections ?? [r.breadcrumb]).map((b) => `${r.path} ${b.join(' > ')}`));
    const all = labels(json('get', 'widgets', 'widget', '--format', 'index', '--limit', '100').results);
    expect(all).toHaveLength(pages.length);
    const walked: string[] = [];
    for (let offset: number | undefined = 0, turns = 0; offset !== undefined && turns <= all.length; turns++) {
      const page = json('get', 'widgets', 'widget', '--tokens', '100', '--offset', String(offset));
      const sections = labels(page.results);
      // Each page the run of sections that comes next, whatever order its joined results show them in.
      expect([...sections].sort()).toEqual(all.slice(walked.length, walked.length + sections.length).sort());
      walked.push(...sections);
      offset = page.nextOffset;
      if (offset !== undefined) expect(offset).toBe(walked.length);
    }
    expect(walked).toHaveLength(all.length);
    expect(docs('remove', 'widgets').code).toBe(0);
  });

  it('serve --libs names a library that is not installed, and starts anyway', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--libs', 'alpah', 'alpha'], {
      env: { ...process.env, DOCS_HOME: home },
      input: '',
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /--libs alpah: Library "alpah" is not installed\. Did you mean "alpha"\?.*serving it once it is installed/,
    );
    expect(result.stderr).not.toMatch(/--libs alpha:/);
    expect(result.stderr).toMatch(/MCP server ready on stdio/);
  });

  it('leaves nothing behind when a build is interrupted', async () => {
    // Enough documentation that the build is still running when the signal arrives.
    const big = await mkdtemp(path.join(tmpdir(), 'docs-big-'));
    const paragraph = 'Configure the widget pipeline with options for caching, retries and timeouts. '.repeat(40);
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        writeFile(path.join(big, `page-${i}.md`), `# Page ${i}\n\n${paragraph}\n\n## Details ${i}\n\n${paragraph}\n`),
      ),
    );
    const before = await readdir(home);
    const child = spawn(process.execPath, [bin, 'add', big, '--name', 'big', '--version', '1.0.0'], {
      env: { ...process.env, DOCS_HOME: home },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Interrupt mid-build: once the partial package file exists.
    const started = Date.now();
    while (!(await readdir(home)).some((f) => f.endsWith('.partial')) && Date.now() - started < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    await rm(big, { recursive: true, force: true });
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted; nothing was added/);
    expect(await readdir(home)).toEqual(before);
  });

  it('removes a library', () => {
    expect(docs('remove', 'beta').stdout).toBe('Removed beta@2.0.0\n');
    expect(json('list').libraries).toHaveLength(1);
  });

  it('names a package an earlier docs built in another format, instead of failing in SQL', async () => {
    expect(docs('add', path.join(fixtures, 'beta@2.0.0'), '--name', 'stale', '--version', '1.0.0').code).toBe(0);
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(path.join(home, 'stale@1.0.0.db'));
    raw.pragma('user_version = 1');
    raw.close();
    // Searching every library leaves it out and says why; the others still answer.
    const search = docs('search', 'enable CORS');
    expect(search.code).toBe(0);
    expect(search.stderr).toMatch(
      /^docs: note: Left out stale@1\.0\.0: stale@1\.0\.0 has package format version 1, .*older docs; rebuild it\n$/,
    );
    const get = docs('get', 'stale', 'enable CORS');
    expect(get.code).toBe(2);
    expect(get.stderr).toMatch(/^docs: stale@1\.0\.0 has package format version 1, .*older docs; rebuild it\n$/);
    const listed = json('list');
    expect(listed.libraries.map((l: { library: string }) => l.library)).toEqual(['alpha@1.0.0']);
    expect(listed.unreadable).toEqual([{ library: 'stale@1.0.0', problem: expect.stringMatching(/rebuild it/) }]);
    expect(docs('list').stderr).toMatch(/docs remove stale@1\.0\.0/);
    expect(docs('remove', 'stale').code).toBe(0);
    expect(json('search', 'enable CORS').status).toBe('ok');
  });
});
