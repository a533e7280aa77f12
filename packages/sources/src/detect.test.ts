import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { detectSource } from './detect.js';

test.each([
  ['https://github.com/honojs/website', { kind: 'git', url: 'https://github.com/honojs/website', name: 'website' }],
  [
    'https://github.com/vitest-dev/vitest/tree/v3.2.0/docs/guide',
    { kind: 'git', url: 'https://github.com/vitest-dev/vitest', name: 'vitest', ref: 'v3.2.0', path: 'docs/guide' },
  ],
  ['https://www.github.com/org/repo.git', { kind: 'git', url: 'https://www.github.com/org/repo.git', name: 'repo' }],
  [
    'https://gitlab.com/group/sub/project/-/tree/main/doc',
    { kind: 'git', url: 'https://gitlab.com/group/sub/project', name: 'project', ref: 'main', path: 'doc' },
  ],
  [
    'https://codeberg.org/forgejo/docs/src/branch/next/user',
    { kind: 'git', url: 'https://codeberg.org/forgejo/docs', name: 'docs', ref: 'next', path: 'user' },
  ],
  [
    'https://bitbucket.org/team/lib/src/v2/docs',
    { kind: 'git', url: 'https://bitbucket.org/team/lib', name: 'lib', ref: 'v2', path: 'docs' },
  ],
  ['https://git.example.com/team/lib.git', { kind: 'git', url: 'https://git.example.com/team/lib.git', name: 'lib' }],
  ['git@github.com:org/repo.git', { kind: 'git', url: 'git@github.com:org/repo.git', name: 'repo' }],
  ['ssh://git@host.example/org/repo', { kind: 'git', url: 'ssh://git@host.example/org/repo', name: 'repo' }],
  ['https://hono.dev', { kind: 'website', url: 'https://hono.dev/', name: 'hono' }],
  [
    'https://docs.example.com/guide/llms.txt',
    { kind: 'website', url: 'https://docs.example.com/guide/llms.txt', name: 'example' },
  ],
  ['http://127.0.0.1:8080/', { kind: 'website', url: 'http://127.0.0.1:8080/' }],
  ['./react@19.2.0.db', { kind: 'package-file', file: path.resolve('react@19.2.0.db') }],
])('%s is detected as %j', async (input, expected) => {
  const detected = await detectSource(input);
  expect(detected).toEqual({ ...expected, ...(expected.kind === 'git' ? { local: false } : {}) });
});

test.each([
  ['', 'invalid-source'],
  ['https://github.com/only-owner', 'invalid-source'],
  ['ftp://example.com/docs', 'invalid-source'],
  ['https://exa mple.com', 'invalid-source'],
  ['./no/such/folder', 'not-found'],
])('%j is refused with %s', async (input, code) => {
  await expect(detectSource(input)).rejects.toMatchObject({ name: 'SourceError', code });
});

it('says what is missing without calling every path a folder', async () => {
  await expect(detectSource('./no/such/README.md')).rejects.toThrow(
    /^nothing at \.\/no\/such\/README\.md: name a folder of documentation, a git repository, a URL or a \.db package file$/,
  );
});

describe('local paths', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docs-detect-'));
    await mkdir(path.join(dir, 'repo', '.git'), { recursive: true });
    await mkdir(path.join(dir, 'plain'));
    await writeFile(path.join(dir, 'file.md'), '# x\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('tells a repository from a folder and refuses a single file', async () => {
    expect(await detectSource(path.join(dir, 'repo'))).toEqual({
      kind: 'git',
      url: path.join(dir, 'repo'),
      name: 'repo',
      local: true,
    });
    expect(await detectSource(path.join(dir, 'plain'))).toEqual({ kind: 'folder', folder: path.join(dir, 'plain') });
    await expect(detectSource(path.join(dir, 'file.md'))).rejects.toMatchObject({ code: 'invalid-source' });
  });
});
