import { expect, it } from 'vitest';
import { DOC_EXTENSIONS, DOC_FORMATS } from './doc-formats.js';

it('exposes the documentation extensions, the keys of the format table', () => {
  expect(DOC_EXTENSIONS).toEqual(['.md', '.mdx', '.markdown', '.rst', '.adoc', '.asciidoc', '.html', '.htm', '.txt']);
  expect(DOC_EXTENSIONS).toEqual([...DOC_FORMATS.keys()]);
});
