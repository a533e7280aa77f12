import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from './front-matter.js';

describe('splitFrontMatter', () => {
  it('splits a leading YAML block off the body', () => {
    const result = splitFrontMatter('---\ntitle: Intro\ntags: [a, b]\n---\n# Hello\n\nText\n');
    expect(result.data).toEqual({ title: 'Intro', tags: ['a', 'b'] });
    expect(result.body).toBe('# Hello\n\nText\n');
    expect(result.bodyStartLine).toBe(4);
  });

  it('handles CRLF line endings and a BOM', () => {
    const result = splitFrontMatter('\uFEFF---\r\ntitle: Win\r\n---\r\nBody\r\n');
    expect(result.data).toEqual({ title: 'Win' });
    expect(result.body).toBe('Body\r\n');
    expect(result.bodyStartLine).toBe(3);
  });

  it('accepts an empty block and a block at the end of the file', () => {
    expect(splitFrontMatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body', bodyStartLine: 2 });
    expect(splitFrontMatter('---\na: 1\n---')).toEqual({ data: { a: 1 }, body: '', bodyStartLine: 3 });
  });

  it('returns the source unchanged without a block', () => {
    for (const source of ['# Title\n', '\n---\na: 1\n---\n', '----\na: 1\n----\n', '---\na: 1\nno closing line\n']) {
      expect(splitFrontMatter(source)).toEqual({ data: {}, body: source, bodyStartLine: 0 });
    }
  });

  it('never throws on invalid YAML and still removes the block', () => {
    const result = splitFrontMatter('---\ntitle: [unclosed\n  : :\n---\nBody\n');
    expect(result.data).toEqual({});
    expect(result.body).toBe('Body\n');
    expect(result.bodyStartLine).toBe(4);
  });

  it('ignores YAML that is not a mapping', () => {
    expect(splitFrontMatter('---\n- a\n- b\n---\nBody').data).toEqual({});
    expect(splitFrontMatter('---\njust a string\n---\nBody').data).toEqual({});
  });

  it('does not treat a thematic break later in the file as front matter', () => {
    const source = 'Intro\n\n---\n\nMore\n';
    expect(splitFrontMatter(source).body).toBe(source);
  });
});
