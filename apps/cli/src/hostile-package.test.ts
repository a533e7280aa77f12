import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocumentInput, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A package file is built elsewhere and installed with `docs add`: its text is data, never an instruction. These
// tests install one whose maker lied (a 3 MB section stored as 5 tokens, a 3 MB title, path and breadcrumb) and
// planted terminal escapes, and run the built command as a user would.

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const MB = 3_000_000;

/** The answer's bound: 8 bytes of content a token, and at most this much of labels per result and in all. */
const BYTES_PER_TOKEN = 8;
const LABEL_BYTES_PER_RESULT = 10 * 1024;
const FIXED_BYTES = 8 * 1024;

const OSC_TITLE = '\u001b]0;PWNED\u0007';
const OSC_CLIPBOARD = '\u001b]52;c;ZXZpbA==\u0007';
const CLEAR = '\u001b[2J';
const C1 = '\u009b2J\u009d0;osc\u009c';

const hostile: DocumentInput[] = [
  {
    path: 'guide/padded.md',
    title: 'Padded',
    content: 'padded',
    chunks: [
      {
        breadcrumb: ['Padded budget'],
        level: 1,
        content: `budget padded\n\n${'word '.repeat(MB / 5)}`,
        tokens: 5,
        indexText: 'budget padded',
      },
    ],
  },
  {
    // Labels of escapes, the most bytes a character can take in JSON (6), and letters.
    path: `guide/${'\u001b'.repeat(495)}${'p'.repeat(495)}.md`,
    title: `Budget TTT ${'\u001b'.repeat(MB)}`,
    content: 'long labels',
    chunks: [
      {
        breadcrumb: ['Budget', ...Array.from({ length: 1000 }, (_, i) => `h${i} ${'\u001b'.repeat(3000)}`)],
        level: 6,
        content: 'budget with long labels',
        tokens: 5,
      },
    ],
  },
  {
    path: `guide/escape${OSC_TITLE}.md`,
    title: `Escape ${OSC_CLIPBOARD} title`,
    content: `budget escape ${OSC_TITLE} page ${CLEAR} ${C1}\n\tindented`,
    chunks: [
      {
        breadcrumb: ['Escape', `Clear ${CLEAR} here`, `C1 ${C1}`],
        level: 3,
        content: `budget escape ${OSC_TITLE} then ${OSC_CLIPBOARD} then ${CLEAR} and ${C1}\n\tindented line`,
        tokens: 20,
      },
    ],
  },
  // Many small sections whose contents understate their size, to page through under a small budget.
  ...Array.from(
    { length: 12 },
    (_, i): DocumentInput => ({
      path: `guide/item-${i}.md`,
      title: `Item ${i}`,
      content: `item ${i}`,
      chunks: [
        { breadcrumb: [`Item ${i}`], level: 1, content: `budget item ${i} ${'z'.repeat(1500 + i * 100)}`, tokens: 1 },
        { breadcrumb: [`Item ${i}`, 'More'], level: 2, content: `budget more ${i} ${'y'.repeat(900)}`, tokens: 1 },
      ],
    }),
  ),
];

let dir: string;
let home: string;

function docs(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  dir = await mkdtemp(path.join(tmpdir(), 'docs-hostile-cli-'));
  home = path.join(dir, 'home');
  const file = path.join(dir, 'hostile@1.0.0.db');
  await writePackage(
    file,
    { name: 'hostile', version: '1.0.0', description: `Hostile ${OSC_TITLE}${CLEAR}${C1} ${'d'.repeat(MB)}` },
    hostile,
  );
  const added = docs('add', file);
  expect(added.stderr).toBe('');
  expect(added.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What an answer to `--tokens n --limit limit` may take at most, in bytes. */
function bound(tokens: number, limit: number): number {
  return BYTES_PER_TOKEN * tokens + LABEL_BYTES_PER_RESULT * limit + FIXED_BYTES;
}

describe('a hostile package, through the docs command', () => {
  it.each([
    ['get', ['get', 'hostile', 'budget']],
    ['search', ['search', 'budget']],
  ])('docs %s --tokens N answers in at most 8·N bytes of content plus bounded labels, text and --json', (_, args) => {
    for (const tokens of [500, 2000]) {
      const text = docs(...args, '--tokens', String(tokens), '--limit', '5');
      expect(text.code).toBe(0);
      expect(Buffer.byteLength(text.stdout)).toBeLessThanOrEqual(bound(tokens, 5));
      const json = docs(...args, '--tokens', String(tokens), '--limit', '5', '--json');
      expect(json.code).toBe(0);
      expect(Buffer.byteLength(json.stdout)).toBeLessThanOrEqual(bound(tokens, 5));
      const answer = JSON.parse(json.stdout);
      expect(answer.results.length).toBeGreaterThan(0);
      // Each content's bytes as JSON sends it, quotes left out.
      const content = answer.results.reduce(
        (sum: number, r: { content: string }) => sum + Buffer.byteLength(JSON.stringify(r.content)) - 2,
        0,
      );
      expect(content).toBeLessThanOrEqual(BYTES_PER_TOKEN * tokens);
      expect(answer.totalTokens).toBeLessThanOrEqual(tokens);
      for (const r of answer.results) {
        // Each label at most 300 bytes as JSON sends it (quotes left out), and at most 8 headings.
        const bytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
        expect(bytes(r.title)).toBeLessThanOrEqual(300);
        expect(bytes(r.path)).toBeLessThanOrEqual(300);
        expect(r.breadcrumb.length).toBeLessThanOrEqual(8);
        for (const h of r.breadcrumb) expect(bytes(h)).toBeLessThanOrEqual(300);
      }
    }
  });

  it('docs get --format index carries bounded labels only', () => {
    for (const format of [[], ['--json']]) {
      const index = docs('get', 'hostile', 'long labels', '--format', 'index', '--limit', '5', ...format);
      expect(index.code).toBe(0);
      expect(index.stdout).toContain('Budget TTT');
      expect(Buffer.byteLength(index.stdout)).toBeLessThanOrEqual(bound(0, 5));
    }
  });

  it('pages under a budget never repeat or skip a result, following nextOffset', () => {
    const all = JSON.parse(
      docs('get', 'hostile', 'budget', '--format', 'index', '--limit', '100', '--json').stdout,
    ).results.map((r: { path: string; breadcrumb: string[] }) => `${r.path} ${r.breadcrumb.join('>')}`);
    expect(all.length).toBeGreaterThan(20);
    const seen: string[] = [];
    let offset: number | undefined = 0;
    for (let page = 0; offset !== undefined && page < 100; page++) {
      const answer = JSON.parse(
        docs('get', 'hostile', 'budget', '--tokens', '300', '--limit', '4', '--offset', String(offset), '--json')
          .stdout,
      );
      expect(answer.totalTokens).toBeLessThanOrEqual(300);
      for (const r of answer.results) {
        for (const trail of r.sections ?? [r.breadcrumb]) seen.push(`${r.path} ${trail.join('>')}`);
      }
      offset = answer.nextOffset;
    }
    expect(seen).toEqual(all);
  });

  it('shows escape sequences as text in docs get, search, read and list, and keeps newlines and tabs', () => {
    const outputs = [
      docs('get', 'hostile', 'escape', '--limit', '1'),
      docs('search', 'escape', '--limit', '1'),
      docs('read', 'hostile', `guide/escape${OSC_TITLE}.md`),
      docs('list'),
    ];
    for (const { code, stdout, stderr } of outputs) {
      expect(code).toBe(0);
      // No ESC, BEL, or C1 control reaches the terminal, on stdout or stderr.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(stdout + stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    const [get, search, read, list] = outputs.map((o) => o.stdout);
    expect(get).toContain('\\x1b]0;PWNED\\x07');
    expect(get).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    expect(get).toContain('Clear \\x1b[2J here');
    expect(get).toContain('\\x9b2J\\x9d0;osc\\x9c');
    expect(get).toContain('\n\tindented line');
    expect(search).toContain('\\x1b[2J');
    expect(read).toContain('page \\x1b[2J');
    expect(read).toContain('\n\tindented');
    expect(list).toContain('Hostile \\x1b]0;PWNED\\x07\\x1b[2J\\x9b2J');
  });

  it('escapes C1 controls in --json output, which JSON.stringify leaves raw, and keeps the text the same', () => {
    const { stdout } = docs('get', 'hostile', 'escape', '--limit', '1', '--json');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(stdout).toContain('\\u009b2J');
    const answer = JSON.parse(stdout);
    expect(answer.results[0].content).toContain(`then ${CLEAR} and ${C1}\n\tindented line`);
  });

  it('lists the package with its description cut to 500 bytes', () => {
    const { code, stdout } = docs('list', '--json');
    expect(code).toBe(0);
    const [library] = JSON.parse(stdout).libraries;
    expect(Buffer.byteLength(JSON.stringify(library.description))).toBeLessThanOrEqual(502);
    expect(library.description.endsWith('…')).toBe(true);
  });
});
