import { describe, expect, it } from 'vitest';
import { asciidocToMarkdown } from './asciidoc.js';

describe('asciidocToMarkdown', () => {
  it('maps = levels to # levels and drops the header attributes, substituting them where used', () => {
    const source = [
      '= Widget Guide',
      'Ada Lovelace <ada@example.com>',
      ':product: Widget',
      ':toc:',
      '',
      'Intro to {product}.',
      '',
      '== Install',
      '',
      'Run it.',
      '',
      '=== From source',
      '',
      'Build {product}.',
    ].join('\n');
    expect(asciidocToMarkdown(source)).toBe(
      '# Widget Guide\n\nIntro to Widget.\n\n## Install\n\nRun it.\n\n### From source\n\nBuild Widget.\n',
    );
  });

  it('turns listing and literal blocks into fenced code and keeps headings inside them as code', () => {
    const source = [
      '== Use',
      '',
      '[source,js]',
      '----',
      '// == not a heading',
      'run();',
      '----',
      '',
      '....',
      'literal',
      '....',
    ].join('\n');
    expect(asciidocToMarkdown(source)).toBe('## Use\n\n```js\n// == not a heading\nrun();\n```\n\n```\nliteral\n```\n');
  });

  it('drops comments and directives, keeps admonitions, block titles, lists and links', () => {
    const source = [
      '// a comment',
      '////',
      'a comment block',
      '////',
      'include::other.adoc[]',
      'NOTE: Mind the gap.',
      '',
      '.Options',
      '* one',
      '** nested',
      '',
      'See link:https://x.dev/guide[the guide] and <<install,Install>>.',
    ].join('\n');
    expect(asciidocToMarkdown(source)).toBe(
      '**Note:** Mind the gap.\n\n**Options**\n\n- one\n  - nested\n\nSee [the guide](https://x.dev/guide) and Install.\n',
    );
  });
});
