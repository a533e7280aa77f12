import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { stageDependencyDocs } from './dependency-docs.js';
import { cleanReadme } from './readme.js';

const fixture = (name: string) => readFile(new URL(`./__fixtures__/readme/${name}`, import.meta.url), 'utf8');

describe('cleanReadme on README excerpts', () => {
  it('a centred HTML header: logo and badges gone, title and tagline as markdown, `&nbsp;` separators gone', async () => {
    expect(cleanReadme(await fixture('centered-header.md'))).toBe(
      [
        '# Widget',
        '',
        'Schema validation with static type inference  ',
        'by [@ada](https://example.com/ada)',
        '',
        '### [Read the docs →](https://widget.dev/api)',
        '',
        '## What is Widget?',
        '',
        'Widget is a TypeScript-first validation library — define a schema, parse data with it and get',
        'back a typed result. `&nbsp;` in a code span stays as written, and so does &lt;div&gt;.',
        '',
        '```ts',
        'import * as w from "widget";',
        '',
        '// &nbsp; and <br/> in code are code',
        'const User = w.object({ name: w.string() });',
        '```',
        '',
        '## Features',
        '',
        '- Zero dependencies ©',
        '- Works in Node.js and browsers',
        '',
      ].join('\n'),
    );
  });

  it('markdown badges, navigation lines and a table of contents go; prose, lists of links and code stay', async () => {
    expect(cleanReadme(await fixture('markdown-badges.md'))).toBe(
      [
        '# Commander-like',
        '',
        'The complete solution for command-line interfaces.',
        '',
        'Read this in other languages: English | [简体中文](./Readme_zh-CN.md)',
        '',
        '## Installation',
        '',
        '```sh',
        'npm install cli',
        '```',
        '',
        'See [the options](#options) before you start.',
        '',
        '- [Examples](https://github.com/acme/cli/tree/main/examples)',
        '- [Changelog](./CHANGELOG.md)',
        '',
        '## Options',
        '',
        'Options are declared with `.option()`. Here are [a few][options-guide].',
        '',
        // The badge's reference definitions went with it; the one prose uses stays.
        '[options-guide]: https://cli.dev/options',
        '',
      ].join('\n'),
    );
  });

  it('a table, a details block, a comment and inline HTML go through the HTML path', async () => {
    expect(cleanReadme(await fixture('html-blocks.md'))).toBe(
      [
        '## API',
        '',
        '| Option | Default |',
        '| --- | --- |',
        '| `retries` | 3 |',
        '| `timeout` | 1000 ms |',
        '',
        'Older versions',
        '',
        'Versions before 2.0 used `createClient()`.',
        '',
        '### pLimit(concurrency) default export',
        '',
        // `<T>` is type syntax, not an element: the paragraph stays markdown.
        'Returns a `limit` function that takes a `Promise<T>` factory.',
        '',
        'Made with ♥ by the **Widget** team',
        '',
      ].join('\n'),
    );
  });
});

describe('cleanReadme rules', () => {
  test.each([
    ['a badge row on one line', '[![npm](https://img.shields.io/npm/v/x)](https://npm.im/x) [![ci](b.svg)](c)\n', ''],
    ['a lone logo', '![](https://example.com/demo.gif)\n', ''],
    ['a linked logo in HTML', '<a href="https://x.dev"><img src="logo.png" alt="X"></a>\n', ''],
    ['badges on lines of their own', '[![a](a.svg)](a)\n![b](b.svg)\n[![c](c.svg)](c)\n', ''],
    ['a navigation line with •', '[Docs](https://x.dev) • [Chat](https://chat.x.dev)\n', ''],
    ['a navigation line with | and emphasis', '**[Website](w)** | **[API](a)**\n', ''],
    ['a navigation line of spaces only', '[One](1) [Two](2)\n', ''],
    ['one link alone is kept', '[Migration guide](docs/MIGRATION.md)\n', '[Migration guide](docs/MIGRATION.md)\n'],
    ['links in a sentence are kept', 'Use [A](a) or [B](b).\n', 'Use [A](a) or [B](b).\n'],
    ['an image in a sentence is kept', 'Click ![gear](g.png) to open it.\n', 'Click ![gear](g.png) to open it.\n'],
    ['a badge line inside prose goes alone', 'Fast and small.\n[![npm](n.svg)](n)\n', 'Fast and small.\n'],
    [
      'a list of pages is not a table of contents',
      '- [Guide](guide.md)\n- [API](api.md)\n',
      '- [Guide](guide.md)\n- [API](api.md)\n',
    ],
    ['a table of contents goes', '1. [Install](#install)\n2. [Use](#use)\n   - [Options](#options)\n', ''],
    ['a heading made of a link stays', '### [Read the docs](https://x.dev)\n', '### [Read the docs](https://x.dev)\n'],
    ['an empty heading anchor goes', '## <a name="usage"></a>Usage\n', '## Usage\n'],
    [
      'a line break in an HTML heading keeps it one heading',
      '<h1 align="center"><img src="logo.png" alt="Logo"><br>Project</h1>\n',
      '# ![Logo](logo.png) Project\n',
    ],
    ['decoded references', 'A&nbsp;B &copy; 2024 &mdash; &#8226; &#x2192;\n', 'A B © 2024 — • →\n'],
    [
      'syntax references stay',
      '&lt;div&gt; &amp;nbsp; &#42;not emphasis&#42;\n',
      '&lt;div&gt; &amp;nbsp; &#42;not emphasis&#42;\n',
    ],
    ['unknown references stay', '&notanentity; & so on\n', '&notanentity; & so on\n'],
    ['leading layout spaces are not indentation', '&nbsp;&nbsp;&nbsp;&nbsp;Indented by hand\n', 'Indented by hand\n'],
    ['a leading space before syntax stays', '&nbsp;# not a heading\n', '&nbsp;# not a heading\n'],
    ['code spans are literal', 'Write `&copy;` or ``a `&nbsp;` b``.\n', 'Write `&copy;` or ``a `&nbsp;` b``.\n'],
    ['an indented code block is code', 'Text:\n\n    &copy; [![a](b)](c)\n', 'Text:\n\n    &copy; [![a](b)](c)\n'],
    ['a fence in a list item is code', '- item\n\n  ```\n  &copy;\n  ```\n', '- item\n\n  ```\n  &copy;\n  ```\n'],
    ['layout-only HTML goes', '<div align="center">\n\nText inside.\n\n</div>\n<br/>\n<hr>\n', 'Text inside.\n'],
    ['CRLF line ends', '# T\r\n\r\nText.\r\n', '# T\n\nText.\n'],
    ['empty input', '', ''],
  ])('%s', (_name, input, expected) => {
    expect(cleanReadme(input)).toBe(expected);
  });
});

// Documents made of README blocks, the furniture among them.
const word = fc.constantFrom('widget', 'parse', 'the', 'schema', 'client', 'retries', 'value', 'Node.js', 'type');
const words = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([level, text]) => `${'#'.repeat(level)} ${text}`);
const codeLine = fc.constantFrom(
  'const a = 1;',
  '&nbsp;&copy; <br/>',
  '[![npm](https://img.shields.io/npm/v/x)](https://npm.im/x)',
  '[Docs](a) • [Chat](b)',
  '# not a heading',
  '<p align="center">x</p>',
  '',
  '    indented',
);
const fence = fc
  .tuple(fc.constantFrom('```', '~~~', '````'), fc.constantFrom('', 'ts', 'sh'), fc.array(codeLine, { maxLength: 5 }))
  .map(([marker, language, body]) => [`${marker}${language}`, ...body, marker].join('\n'));
const inline = fc.oneof(
  words,
  words.map((w) => `${w}&nbsp;&mdash;&nbsp;${w}`),
  words.map((w) => `[${w}](https://x.dev/${w.length})`),
  words.map((w) => `\`${w} &amp;\``),
  fc.constant('&lt;T&gt; and Promise<T>'),
);
const paragraph = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
const furniture = fc.constantFrom(
  '[![npm](https://img.shields.io/npm/v/x)](https://npm.im/x)\n[![ci](https://x/ci.svg)](https://x/ci)',
  '[Docs](https://x.dev) • [Discord](https://discord.gg/x) • [Twitter](https://twitter.com/x)',
  '![logo](logo.png)',
  '<p align="center">\n  <img src="logo.svg" alt="logo">\n  <h1 align="center">Widget</h1>\n</p>',
  '<div align="center">\n  <a href="a">Docs</a>\n  <span>&nbsp;&nbsp;•&nbsp;&nbsp;</span>\n  <a href="b">Chat</a>\n</div>',
  '<details>\n<summary>More</summary>',
  '</details>',
  '<br/>',
  '<table><tr><td>a</td><td>b &amp; c</td></tr></table>',
  '- [Install](#install)\n- [Usage](#usage)',
  '> A quote&nbsp;here.',
  '| a | b |\n| --- | --- |\n| `x` | y&nbsp;z |',
  '- one\n- two&nbsp;three',
  '[![a][a-img]][a-url]\n\n[a-img]: https://img.shields.io/a\n[a-url]: https://a.dev',
  '---',
);
const block = fc.oneof(heading, fence, paragraph, furniture);
const readme = fc.array(block, { maxLength: 12 }).map((blocks) => blocks.join('\n\n'));

describe('cleanReadme laws', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(readme, (source) => {
        const once = cleanReadme(source);
        expect(cleanReadme(once)).toBe(once);
      }),
    );
  });

  it('never drops or changes a fenced code block or a heading', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(heading, fence, block), { maxLength: 12 }), (blocks) => {
        const cleaned = cleanReadme(blocks.join('\n\n'));
        for (const kept of blocks.filter((b) => /^(?:#|```|~~~)/.test(b))) expect(cleaned).toContain(kept);
      }),
    );
  });

  it('is idempotent on any text made of markdown and HTML characters', () => {
    const character = fc.constantFrom(...'ab #*-_`[]()!<>/&;|•\n \t'.split(''), '&nbsp;', '<br>', '](x)', '![', '```');
    fc.assert(
      fc.property(fc.array(character, { maxLength: 60 }), (characters) => {
        const once = cleanReadme(characters.join(''));
        expect(cleanReadme(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('stageDependencyDocs', () => {
  it('stages a markdown README cleaned, and copies other formats as they are', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'docs-readme-test-'));
    try {
      const write = async (name: string, files: Record<string, string>) => {
        await mkdir(path.join(dir, name), { recursive: true });
        for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, name, file), text);
      };
      const badge = '[![npm](https://img.shields.io/npm/v/x)](https://npm.im/x)';
      await write('md', { 'package.json': '{"name":"md","version":"1.0.0"}', 'readme.markdown': `${badge}\n\n# Md\n` });
      await write('rst', { 'package.json': '{"name":"rst","version":"1.0.0"}', 'README.rst': `${badge}\n` });
      const staged = async (name: string, file: string) => {
        const result = await stageDependencyDocs(
          { name, version: '1.0.0', dir: path.join(dir, name), ecosystem: 'npm', dev: false },
          { types: false },
        );
        if (!result.ok) throw new Error(result.error);
        try {
          return await readFile(path.join(result.value.root, file), 'utf8');
        } finally {
          await result.value.dispose();
        }
      };
      expect(await staged('md', 'readme.markdown')).toBe('# Md\n');
      expect(await staged('rst', 'README.rst')).toBe(`${badge}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
