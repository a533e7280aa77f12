import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageWebAddress } from './web-address.js';

describe('pageWebAddress', () => {
  it('points at the file at the recorded commit, inside the docs folder', () => {
    expect(pageWebAddress('https://github.com/colinhacks/zod#0a1b2c3 path packages/docs', 'api/index.md')).toBe(
      'https://github.com/colinhacks/zod/blob/0a1b2c3/packages/docs/api/index.md',
    );
    expect(pageWebAddress('https://github.com/honojs/website.git#9f8e7d6c5b4a', 'docs/middleware/logger.md')).toBe(
      'https://github.com/honojs/website/blob/9f8e7d6c5b4a/docs/middleware/logger.md',
    );
  });

  it('reads the source a dependency built from its repository records (tag and npm package after the folder)', () => {
    const source =
      'https://github.com/vitest-dev/vitest#1234567890abcdef1234567890abcdef12345678 path docs (tag v2.1.9), npm:vitest@2.1.9';
    expect(pageWebAddress(source, 'guide/mocking.md')).toBe(
      'https://github.com/vitest-dev/vitest/blob/1234567890abcdef1234567890abcdef12345678/docs/guide/mocking.md',
    );
    expect(pageWebAddress('https://github.com/a/b#abcdef1 path  (tag v1.0.0), npm:b@1.0.0', 'README.md')).toBe(
      'https://github.com/a/b/blob/abcdef1/README.md',
    );
  });

  it('knows the other hosts hosted-git-info knows, and ssh addresses of them', () => {
    expect(pageWebAddress('https://gitlab.com/group/project#abcdef1', 'docs/a.md')).toMatch(
      /^https:\/\/gitlab\.com\/group\/project\/.*abcdef1\/docs\/a\.md$/,
    );
    expect(pageWebAddress('git+ssh://git@github.com/o/r.git#abcdef1', 'a.md')).toBe(
      'https://github.com/o/r/blob/abcdef1/a.md',
    );
  });

  it('encodes each segment of the path', () => {
    expect(pageWebAddress('https://github.com/o/r#abcdef1 path my docs', 'a b/c#d?.md')).toBe(
      'https://github.com/o/r/blob/abcdef1/my%20docs/a%20b/c%23d%3F.md',
    );
  });

  it('has no address for a folder, a website, an unknown host, a branch name or a path that climbs out', () => {
    expect(pageWebAddress('/home/ada/project/docs', 'a.md')).toBeUndefined();
    expect(pageWebAddress('/home/ada/repo#abcdef1 path docs', 'a.md')).toBeUndefined();
    expect(pageWebAddress('https://hono.dev/llms-full.txt', 'docs/a.md')).toBeUndefined();
    expect(pageWebAddress('https://git.example.com/o/r#abcdef1', 'a.md')).toBeUndefined();
    expect(pageWebAddress('https://github.com/o/r#main', 'a.md')).toBeUndefined();
    expect(pageWebAddress('https://github.com/o/r#abcdef1', '../../../evil.md')).toBeUndefined();
    expect(pageWebAddress('https://github.com/o/r#abcdef1 path docs/..', 'a.md')).toBeUndefined();
    expect(pageWebAddress('https://github.com/o/r#abcdef1', '')).toBeUndefined();
  });

  it('never throws, and answers only https addresses of the host the source names', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (source, page) => {
        const address = pageWebAddress(source, page);
        if (address === undefined) return;
        expect(address.startsWith('https://')).toBe(true);
        expect(source).toContain(new URL(address).hostname);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{7,40}$/), fc.array(fc.string({ minLength: 1 })), (commit, parts) => {
        const address = pageWebAddress(`https://github.com/o/r#${commit}`, parts.join('/'));
        if (address === undefined) return;
        expect(address.startsWith(`https://github.com/o/r/blob/${commit}/`)).toBe(true);
        expect(new URL(address).pathname.split('/').includes('..')).toBe(false);
      }),
    );
  });
});
