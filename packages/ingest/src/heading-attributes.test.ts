import { describe, expect, it } from 'vitest';
import { headingLineWithoutAttributes, withoutHeadingAttributes } from './heading-attributes.js';
import { parseMarkdown } from './markdown.js';

/** Every heading trail of a document, and its title. */
function trails(source: string): { title: string; trails: string[] } {
  const parsed = parseMarkdown(source, { path: 'guide/page.md' });
  return { title: parsed.title, trails: parsed.sections.map((section) => section.breadcrumb.join(' > ')) };
}

describe('a heading is titled by its words, not by its badges, ids or site components', () => {
  it.each([
    [
      'a row of badges after the name',
      '# uuid [![CI](https://github.com/uuidjs/uuid/workflows/CI/badge.svg)](https://github.com/uuidjs/uuid/actions) [![Browser](https://github.com/uuidjs/uuid/workflows/Browser/badge.svg)](https://github.com/uuidjs/uuid/actions)\n\nUUIDs.\n\n## API\n\nThe API.',
      'uuid',
      ['uuid', 'uuid > API'],
    ],
    [
      'a badge that is not a link',
      '# dotenv ![NPM version](https://img.shields.io/npm/v/dotenv.svg)\n\nLoads .env.',
      'dotenv',
      ['dotenv'],
    ],
    ['a heading that is only a logo is named by it', '# ![Fastify](logo.png)\n\nFast.', 'Fastify', ['Fastify']],
    [
      'a VitePress id after a component',
      '# Vi\n\nIntro.\n\n## vi.setTimerTickMode <Version>4.1.0</Version> {#vi-settimertickmode}\n\nControls timers.',
      'Vi',
      ['Vi', 'Vi > vi.setTimerTickMode 4.1.0'],
    ],
    [
      'a self-closing badge and a component with nothing in it',
      '# traceView <Badge type="warning" text="Experimental" /> <CRoot /> {#trace-view}\n\nTraces.',
      'traceView',
      ['traceView'],
    ],
    [
      'a badge component with text',
      '## Custom Provider <Badge type="danger">advanced</Badge> {#custom-provider}\n\nProviders.',
      'page',
      ['Custom Provider advanced'],
    ],
    ['class before id (markdown-it-attrs, Pandoc)', '## Title {.lead #title}\n\nText.', 'page', ['Title']],
    ['id and a key=value', '## Title {#title data-level="2"}\n\nText.', 'page', ['Title']],
    ["Python-Markdown's attr_list", '## Title {: #title }\n\nText.', 'page', ['Title']],
    ['closing hashes after the block', '## Title {#title} ##\n\nText.', 'page', ['Title']],
    ['a setext heading', 'Title {#title}\n=====\n\nText.', 'Title', ['Title']],
    ['an empty pair of braces is words', '## Options {}\n\nText.', 'page', ['Options {}']],
    ['an object literal is words', '## Returns { ok: true }\n\nText.', 'page', ['Returns { ok: true }']],
    ['braces in a code span are an example', '## Anchors like `{#id}`\n\nText.', 'page', ['Anchors like {#id}']],
  ])('%s', (_case, source, title, expected) => {
    const found = trails(source);
    expect(found.title).toBe(title);
    expect(found.trails).toEqual(expected);
  });

  it('cleans a sub-heading kept in a section and leaves tabs as their labels', () => {
    const source =
      '## Install\n\n<Tabs groupId="pm">\n<TabItem value="npm" label="npm">\n\n```sh\nnpm i x {#not-an-id}\n```\n\n</TabItem>\n</Tabs>\n\n#### From source {#from-source}\n\nBuild it.';
    const [section] = parseMarkdown(source, { path: 'install.md' }).sections;
    expect(section?.breadcrumb).toEqual(['Install']);
    expect(section?.content).toBe('npm\n\n```sh\nnpm i x {#not-an-id}\n```\n\n#### From source\n\nBuild it.');
  });
});

describe('heading attribute blocks', () => {
  it.each([
    ['vi.setTimerTickMode {#vi-settimertickmode}', 'vi.setTimerTickMode'],
    ['Title {#id .class}', 'Title'],
    ['Title {.class}', 'Title'],
    ['Title {:.class}', 'Title'],
    ['Title {#a} more', 'Title {#a} more'],
    ['Title {}', 'Title {}'],
    ['Title {"a": 1}', 'Title {"a": 1}'],
    ['Title { a: 1 }', 'Title { a: 1 }'],
  ])('withoutHeadingAttributes(%j) → %j', (text, expected) => {
    expect(withoutHeadingAttributes(text)).toBe(expected);
  });

  it.each([
    ['#### Sub {#sub}', '#### Sub'],
    ['> ## Quoted {#quoted}', '> ## Quoted'],
    ['   ### Indented {#x}', '   ### Indented'],
    // Four spaces make an indented code block; no space after the hashes is not a heading.
    ['    ## Code {#x}', '    ## Code {#x}'],
    ['##NoSpace {#x}', '##NoSpace {#x}'],
    ['Prose {#x}', 'Prose {#x}'],
    ['const a = {#x}', 'const a = {#x}'],
  ])('headingLineWithoutAttributes(%j) → %j', (line, expected) => {
    expect(headingLineWithoutAttributes(line)).toBe(expected);
  });
});
