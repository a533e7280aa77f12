import { expect, test } from 'vitest';
import { foldSmallSections } from './fold.js';
import type { Section } from './markdown.js';

const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
const section = (breadcrumb: string[], content: string): Section => ({
  breadcrumb,
  level: breadcrumb.length,
  content,
  text: content,
  tokens: countTokens(content),
});

test('a small child is folded into its parent with its heading kept', () => {
  const parent = section(['Example'], 'Create a file main.py with an app in it and some words.');
  const child = section(['Example', 'Run it'], 'fastapi dev main.py');
  const [folded, ...rest] = foldSmallSections([parent, child], { minTokens: 5, countTokens });
  expect(rest).toEqual([]);
  expect(folded?.breadcrumb).toEqual(['Example']);
  expect(folded?.content).toBe(`${parent.content}\n\n## Run it\n\nfastapi dev main.py`);
  expect(folded?.text).toContain('Run it');
  expect(folded?.tokens).toBe(parent.tokens + 3 + child.tokens);
});

test('large sections, siblings, the preamble and parentless sections stay', () => {
  const intro = section([], 'short');
  const a = section(['A'], 'tiny');
  const b = section(['B'], 'tiny too');
  const big = section(['B', 'Big'], 'one two three four five six seven');
  const input = [intro, a, b, big];
  expect(foldSmallSections(input, { minTokens: 5, countTokens })).toEqual(input);
});

test('folding chains: several small children all land in the parent', () => {
  const parent = section(['P'], 'parent text here');
  const out = foldSmallSections([parent, section(['P', 'x'], 'a'), section(['P', 'y'], 'b')], {
    minTokens: 5,
    countTokens,
  });
  expect(out).toHaveLength(1);
  expect(out[0]?.content).toBe('parent text here\n\n## x\n\na\n\n## y\n\nb');
});
