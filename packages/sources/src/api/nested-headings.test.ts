import { describe, expect, it } from 'vitest';
import { nestHeadings } from './nested-headings.js';

describe('nestHeadings', () => {
  it.each([
    ['an h2 under a ## section becomes an h4', 'Emits.\n\n## Example\n\nText', 2, 'Emits.\n\n#### Example\n\nText'],
    ['an h3 under a ### member becomes an h6', 'Does.\n\n### Examples\n\nText', 3, 'Does.\n\n###### Examples\n\nText'],
    ['an h1 is at least an h4', '# Title\n\nText', 2, '#### Title\n\nText'],
    ['nothing is deeper than h6', '#### Deep\n\nText', 3, '###### Deep\n\nText'],
    ['a setext heading becomes an ATX one', 'Intro\n\nUsage\n-----\n\nText', 2, 'Intro\n\n#### Usage\n\nText'],
    ['a # line in a code block is left alone', '```sh\n# a comment\n```', 2, '```sh\n# a comment\n```'],
    ['a doc without headings is unchanged', 'Plain text, #hashtag.', 2, 'Plain text, #hashtag.'],
    ['a heading in a list item is left alone', '- ## item\n\nText', 2, '- ## item\n\nText'],
    ['an empty doc', '', 2, ''],
  ])('%s', (_, doc, level, expected) => {
    expect(nestHeadings(doc, level)).toBe(expected);
  });
});
