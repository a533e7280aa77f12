import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs get` in both formats, as a user runs it: a real process over a package built from markdown by `docs add`.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let home: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Result {
  readonly heading: string;
  readonly path: string;
  readonly breadcrumb: string[];
  readonly sections?: string[][];
  readonly content?: string;
}

function json(...args: string[]) {
  const result = docs(...args, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { total: number; nextOffset?: number; message: string; results: Result[] };
}

const words = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const sectionsOf = (results: readonly Result[]) =>
  results.flatMap((r) => (r.sections ?? [r.breadcrumb]).map((b) => `${r.path} ${b.join(' > ')}`)).sort();

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  home = await mkdtemp(path.join(tmpdir(), 'docs-formats-'));
  const folder = path.join(home, 'timers@1.0.0');
  await mkdir(folder);
  await writeFile(
    path.join(folder, 'vi.md'),
    [
      `# Vi\n\nThe vi helper controls timers and modules. ${words('intro', 40)}`,
      `## runAllTimers\n\nrunAllTimers runs every pending timer until none are left. ${words('run', 150)}`,
      `## advanceTimersByTime\n\nadvanceTimersByTime moves the timers forward. ${words('advance', 150)}`,
      `## useFakeTimers\n\nuseFakeTimers: to mock timers, call vi.useFakeTimers before the code that sets timers. ${words('fake', 30)}`,
      `## useRealTimers\n\nuseRealTimers puts the real timers back after mocked timers. ${words('real', 60)}`,
      `## isFakeTimers\n\nisFakeTimers says whether fake timers are on. ${words('is', 40)}`,
    ].join('\n\n'),
  );
  await writeFile(
    path.join(folder, 'spies.md'),
    `# Spies\n\nSpies record their calls. ${words('spy', 40)}\n\n## Clocks\n\nSpies on timers see each call. ${words('clock', 40)}`,
  );
  expect(docs('add', folder).code).toBe(0);
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('docs get --format full | index', () => {
  it('lists the same sections and counts them the same way; a joined block starts at its best section', () => {
    const index = json('get', 'timers', 'timers', '--format', 'index');
    const full = json('get', 'timers', 'timers', '--tokens', '0');
    expect(full.total).toBe(index.total);
    expect(sectionsOf(full.results)).toEqual(sectionsOf(index.results));
    expect(index.results[0]?.heading).toBe('useFakeTimers');
    expect(full.results[0]?.heading).toBe('useFakeTimers');
    expect(full.results[0]?.content).toMatch(/^useFakeTimers: to mock timers/);
    // The sections after it in the page that ranked are joined to it, and the message says so.
    expect(full.results[0]?.sections?.map((s) => s.at(-1))).toEqual(['useFakeTimers', 'useRealTimers', 'isFakeTimers']);
    expect(full.message).toMatch(
      new RegExp(`^${index.results.length} of ${index.total} results, shown as ${full.results.length}`),
    );
  });

  it('keeps the best section when the budget cuts its block', () => {
    const cut = json('get', 'timers', 'timers', '--tokens', '40');
    expect(cut.results[0]?.heading).toBe('useFakeTimers');
    expect(cut.results[0]?.content).toContain('call vi.useFakeTimers before the code that sets timers.');
  });

  it('says where the next page starts, the same in text and JSON', () => {
    const page = json('get', 'timers', 'timers', '--limit', '2', '--tokens', '300');
    expect(page.nextOffset).toBeGreaterThan(0);
    const text = docs('get', 'timers', 'timers', '--limit', '2', '--tokens', '300');
    expect(text.stdout).toContain(`More: the same command with --offset ${page.nextOffset}`);
    expect(text.stdout).toContain(`of ${page.total} results`);
  });
});
