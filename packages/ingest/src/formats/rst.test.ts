import { describe, expect, it } from 'vitest';
import { rstToMarkdown } from './rst.js';

describe('rstToMarkdown', () => {
  it('gives section levels in the order adornment styles first appear, overlines counting as their own style', () => {
    const source = [
      '=========',
      ' Widget',
      '=========',
      '',
      'Intro text.',
      '',
      'Install',
      '=======',
      '',
      'Run it.',
      '',
      'From source',
      '-----------',
      '',
      'Build it.',
      '',
      'Usage',
      '=====',
      '',
      'Use it.',
    ].join('\n');
    expect(rstToMarkdown(source)).toBe(
      '# Widget\n\nIntro text.\n\n## Install\n\nRun it.\n\n### From source\n\nBuild it.\n\n## Usage\n\nUse it.\n',
    );
  });

  it('turns literal blocks and code directives into fenced code, keeping the language', () => {
    const source = [
      'Title',
      '=====',
      '',
      'Example::',
      '',
      '    pip install widget',
      '    widget --help',
      '',
      '.. code-block:: python',
      '   :linenos:',
      '',
      '   import widget',
      '   widget.run()',
      '',
      'After.',
    ].join('\n');
    expect(rstToMarkdown(source)).toBe(
      '# Title\n\nExample:\n\n```\npip install widget\nwidget --help\n```\n\n```python\nimport widget\nwidget.run()\n```\n\nAfter.\n',
    );
  });

  it('keeps admonition text and API signatures, drops comments, targets, toctrees and images', () => {
    const source = [
      '.. _install:',
      '',
      '.. This is a comment',
      '   spanning lines.',
      '',
      '.. toctree::',
      '   :maxdepth: 2',
      '',
      '   intro',
      '',
      '.. note:: Mind the gap.',
      '',
      '.. function:: run(config)',
      '',
      '   Runs the widget.',
      '',
      '.. image:: logo.png',
    ].join('\n');
    const markdown = rstToMarkdown(source);
    expect(markdown).toContain('**Note:** Mind the gap.');
    expect(markdown).toContain('`run(config)`\n\nRuns the widget.');
    expect(markdown).not.toMatch(/comment|toctree|maxdepth|intro|logo|_install/);
  });

  it('converts inline literals, roles and links', () => {
    expect(
      rstToMarkdown('Call ``run()`` or :func:`widget.stop`, see :ref:`the guide <guide>` and `docs <https://x.dev>`_.'),
    ).toBe('Call `run()` or `widget.stop`, see the guide and [docs](https://x.dev).\n');
  });

  it('never turns text into a markdown heading or code block by accident', () => {
    const markdown = rstToMarkdown('Para\n\n    An indented block quote.\n\n# not a heading\n');
    expect(markdown).toBe('Para\n\nAn indented block quote.\n\n\\# not a heading\n');
  });
});
