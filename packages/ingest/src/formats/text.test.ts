import { expect, test } from 'vitest';
import { parseMarkdown } from '../markdown.js';
import { textToMarkdown } from './text.js';

test('plain text is one preamble section however it looks', () => {
  const text = '---\ntitle: no\n---\n# Not a heading\nUnderlined\n==========\nDashes\n---\nThe end.\n';
  const parsed = parseMarkdown(textToMarkdown(text), { path: 'notes.txt' });
  expect(parsed.title).toBe('notes');
  expect(parsed.sections.map((s) => s.level)).toEqual([0]);
  expect(parsed.sections[0]?.text).toBe('--- title: no --- # Not a heading Underlined ========== Dashes --- The end.');
});
