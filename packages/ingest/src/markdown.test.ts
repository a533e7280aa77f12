import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, type Section } from './markdown.js';
import { countTokens } from './tokens.js';

const parse = (source: string, options: Partial<Parameters<typeof parseMarkdown>[1]> = {}) =>
  parseMarkdown(source, { path: 'docs/getting-started.md', ...options });

const crumbs = (sections: readonly Section[]) => sections.map((section) => section.breadcrumb.join(' > '));

describe('parseMarkdown: sections', () => {
  it('starts sections at h1–h3 with breadcrumbs; h4 stays inside its parent', () => {
    const { sections } = parse(
      [
        'Preamble text.',
        '',
        '# Guide',
        'Intro.',
        '## Install',
        'Run it.',
        '#### Details',
        'Fine print.',
        '### On Linux',
        'Use apt.',
        '## Configure',
        'Edit the file.',
        '# Reference',
        'All APIs.',
      ].join('\n'),
    );
    expect(crumbs(sections)).toEqual([
      '',
      'Guide',
      'Guide > Install',
      'Guide > Install > On Linux',
      'Guide > Configure',
      'Reference',
    ]);
    expect(sections.map((section) => section.level)).toEqual([0, 1, 2, 3, 2, 1]);
    const install = sections[2] as Section;
    expect(install.content).toBe('Run it.\n#### Details\nFine print.');
    expect(install.text).toBe('Run it. Details Fine print.');
    expect(install.tokens).toBe(countTokens(install.content));
  });

  it('reads a heading of punctuation alone as a divider: it ends a section but names nothing', () => {
    const { sections } = parse(
      ['# Column types', 'Intro.', '## ---', '### Not null', 'No NULL values.', '## ***', 'Loose text.'].join('\n'),
    );
    expect(crumbs(sections)).toEqual(['Column types', 'Column types > Not null', 'Column types']);
  });

  it('handles skipped levels and setext headings', () => {
    const { sections } = parse('Top\n===\n\nIntro.\n\n### Deep\n\nDeep text.\n\nSide\n----\n\nSide text.\n');
    expect(crumbs(sections)).toEqual(['Top', 'Top > Deep', 'Top > Side']);
    expect(sections.map((section) => section.level)).toEqual([1, 3, 2]);
  });

  it('turns heading markup into plain breadcrumb text', () => {
    const { sections } = parse(
      [
        '## `vi.useFakeTimers` {#vi-usefaketimers}',
        'a',
        '## On conflict do update',
        'b',
        '## [Link **text**](https://x.y) and _emphasis_ ##',
        'c',
        '## Anchored { #spaced-anchor }',
        'd',
      ].join('\n'),
    );
    expect(crumbs(sections)).toEqual([
      'vi.useFakeTimers',
      'On conflict do update',
      'Link text and emphasis',
      'Anchored',
    ]);
  });

  it('builds indexable text without markdown syntax but with code', () => {
    const { sections } = parse(
      [
        '# T',
        'See [the docs](https://example.com/docs) and ![a diagram](img.png), **bold** and `code()`.',
        '',
        '- item <span>one</span>',
        '- item two',
        '',
        '```js',
        'const answer = 42;',
        '```',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
    expect(sections[0]?.text).toBe(
      'See the docs and a diagram, bold and code(). item one item two const answer = 42; a b 1 2',
    );
    expect(sections[0]?.content).toContain('```js\nconst answer = 42;\n```');
  });

  it('never treats # lines in ``` or ~~~ fences (also in list items) as headings', () => {
    const source = [
      '# Real',
      '',
      '```bash',
      '# not a heading',
      '## nor this',
      '```',
      '',
      '~~~~',
      '# still code',
      '~~~~',
      '',
      '1. Step one:',
      '',
      '   ```sh',
      '   # a comment in a list',
      '   ```',
      '',
      '- Item',
      '  ~~~',
      '  # also code',
      '  ~~~',
    ].join('\n');
    const { sections } = parse(source);
    expect(crumbs(sections)).toEqual(['Real']);
    expect(sections[0]?.content).toBe(source.split('\n').slice(2).join('\n'));
  });

  it('drops empty sections and exact duplicates', () => {
    const { sections } = parse(
      ['# A', '## B', '### C', 'Text under C.', '## D', '', '## E', 'Same.', '## E', 'Same.', '## E', 'Other.'].join(
        '\n',
      ),
    );
    expect(crumbs(sections)).toEqual(['A > B > C', 'A > E', 'A > E']);
    expect(sections.map((section) => section.content)).toEqual(['Text under C.', 'Same.', 'Other.']);
  });

  it('strips MDX before parsing, so a tag line right above a fence does not swallow it', () => {
    const { sections } = parse(
      [
        "import { Tabs } from 'x';",
        '',
        '## Usage',
        '<Tabs>',
        '<Tab title="TypeScript">',
        '```ts',
        '## not a heading',
        "import { a } from 'kept-in-code';",
        '```',
        '</Tab>',
        '</Tabs>',
        'Text after.',
      ].join('\n'),
    );
    expect(crumbs(sections)).toEqual(['Usage']);
    expect(sections[0]?.content).toBe(
      "TypeScript\n```ts\n## not a heading\nimport { a } from 'kept-in-code';\n```\n\nText after.",
    );
  });
});

describe('parseMarkdown: content', () => {
  it('collapses the blank lines left by stripped MDX, but not blank lines inside code', () => {
    const { sections } = parse(
      [
        '## A',
        '',
        '<Note>',
        '',
        'First.',
        '',
        '</Note>',
        '',
        '',
        '```py',
        'x = 1',
        '',
        '',
        'y = 2',
        '```',
        '',
        'Last.',
      ].join('\n'),
    );
    expect(sections[0]?.content).toBe('First.\n\n```py\nx = 1\n\n\ny = 2\n```\n\nLast.');
  });
});

describe('parseMarkdown: title', () => {
  it('prefers the front-matter title', () => {
    const result = parse('---\ntitle: From Front Matter\n---\n# Heading\n\nText.\n');
    expect(result.title).toBe('From Front Matter');
    expect(crumbs(result.sections)).toEqual(['Heading']);
  });

  it('falls back to the first h1, skipping non-string front-matter titles', () => {
    expect(parse('---\ntitle: 42\n---\nIntro.\n\n## Sub\n\nx\n\n# First H1\n\ny\n\n# Second\n\nz').title).toBe(
      'First H1',
    );
  });

  it('falls back to the file name, or the folder name for index files', () => {
    expect(parse('Just text.').title).toBe('getting-started');
    expect(parse('Just text.', { path: 'guide/setup/index.mdx' }).title).toBe('setup');
    expect(parse('Just text.', { path: 'C:\\docs\\faq.markdown' }).title).toBe('faq');
  });
});

describe('parseMarkdown: splitting', () => {
  const paragraph = (index: number) =>
    `Paragraph ${index} explains one more detail about configuring the widget renderer in production.`;

  it('splits a long section at block boundaries, keeping each piece within the limit', () => {
    const body = Array.from({ length: 40 }, (_, index) => paragraph(index)).join('\n\n');
    const { sections } = parse(`# Guide\n\n## Long\n\n${body}\n`, { maxSectionTokens: 100 });
    expect(sections.length).toBeGreaterThan(5);
    for (const section of sections) {
      expect(section.breadcrumb).toEqual(['Guide', 'Long']);
      expect(section.level).toBe(2);
      expect(section.tokens).toBe(countTokens(section.content));
      expect(section.tokens).toBeLessThanOrEqual(100);
      expect(section.content).toMatch(/^Paragraph \d+/);
    }
    // Nothing lost, nothing repeated, order kept.
    expect(sections.map((section) => section.content).join('\n\n')).toBe(body);
  });

  it('never splits a fenced code block, a table or a list item; oversized single blocks stay whole', () => {
    const code = `\`\`\`ts\n${Array.from({ length: 60 }, (_, index) => `const value${index} = compute(${index});`).join('\n')}\n\`\`\``;
    const table = `| a | b |\n|---|---|\n${Array.from({ length: 40 }, (_, index) => `| row ${index} | value ${index} |`).join('\n')}`;
    const item = (index: number) =>
      `- Item ${index} has a fairly long description of several words.\n  More on item ${index}.`;
    const list = Array.from({ length: 30 }, (_, index) => item(index)).join('\n');
    const source = `# Big\n\n${paragraph(1)}\n\n${code}\n\n${paragraph(2)}\n\n${table}\n\n${list}\n`;
    const { sections } = parse(source, { maxSectionTokens: 120 });

    const contents = sections.map((section) => section.content);
    expect(contents).toContain(code);
    expect(contents).toContain(table);
    const oversized = sections.filter((section) => section.tokens > 120);
    expect(oversized.map((section) => section.content).sort()).toEqual([code, table].sort());
    // The list is split between items, never inside one.
    const listPieces = contents.filter((content) => content.startsWith('- Item'));
    expect(listPieces.length).toBeGreaterThan(1);
    expect(listPieces.join('\n')).toBe(list);
    for (const piece of listPieces) expect(piece.split('\n').length % 2).toBe(0);
  });

  it('uses a custom token counter', () => {
    const { sections } = parse('# A\n\none\n\ntwo\n\nthree\n', { countTokens: () => 7 });
    expect(sections.map((section) => section.tokens)).toEqual([7]);
  });
});

describe('parseMarkdown: large sources', () => {
  const build = (sectionCount: number) => {
    const parts: string[] = ['Preamble before any heading, see the [guide][guide-ref].'];
    for (let index = 0; index < sectionCount; index++) {
      const level = ['#', '##', '###'][index % 3] as string;
      parts.push(
        `${level} Section ${index}`,
        `Text for section ${index} with a [link](https://example.com/${index}) and \`code\`.`,
        '```md',
        `# fenced ${index}, not a heading`,
        '```',
        `More text ${index}.`,
      );
    }
    parts.push('[guide-ref]: https://example.com/guide');
    return parts.join('\n\n');
  };

  it('parses a source over maxPieceChars in pieces with the same result as whole', () => {
    const source = build(30);
    const whole = parse(source);
    const pieces = parse(source, { maxPieceChars: 300 });
    expect(source.length).toBeGreaterThan(10 * 300);
    expect(pieces).toEqual(whole);
    expect(crumbs(whole.sections)).toContain('Section 27 > Section 28 > Section 29');
    // The reference defined in the last piece resolves in the first one.
    expect(pieces.sections[0]?.text).toBe('Preamble before any heading, see the guide.');
  });

  it('cuts at blank lines when no heading fits, keeping sections intact', () => {
    const body = Array.from({ length: 50 }, (_, index) => `Line ${index} of one long section.`).join('\n\n');
    const source = `# Only\n\n${body}\n\n## Next\n\nEnd.`;
    expect(parse(source, { maxPieceChars: 200 })).toEqual(parse(source));
  });
});

describe('parseMarkdown: MDX fixture', () => {
  it('parses a small MDX page end to end', async () => {
    const source = await readFile(new URL('./__fixtures__/smoke.mdx', import.meta.url), 'utf8');
    const result = parseMarkdown(source, { path: '__fixtures__/smoke.mdx' });
    expect(result.title).toBe('Installing Widgets');
    expect(crumbs(result.sections)).toEqual([
      '',
      'Getting started > Install',
      'Getting started > Configure widgets.config.ts',
    ]);
    const [preamble, install, configure] = result.sections as [Section, Section, Section];
    expect(preamble.content).toBe('Widgets render **anything**. See the [API](/api).');
    expect(preamble.text).toBe('Widgets render anything. See the API.');
    expect(install.content).toBe(
      [
        'npm',
        '```bash',
        'npm install widgets',
        '```',
        '',
        'pnpm',
        '```bash',
        'pnpm add widgets',
        '```',
        '',
        'Peer dependencies',
        'Widgets needs `react` 18 or later.',
      ].join('\n'),
    );
    expect(configure.content).toContain('The config file must export a default object.');
    expect(configure.content).toContain("```ts\n# not a heading: this is code\nexport default { theme: 'dark' };\n```");
    expect(configure.text).toContain('Options Option Default theme light');
    for (const section of result.sections) {
      expect(section.content).not.toMatch(/<\/?(?:Tabs|TabItem|Callout)\b|^import |\{\/\*|:::/m);
    }
  });
});
