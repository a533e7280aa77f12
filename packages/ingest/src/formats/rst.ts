/**
 * reStructuredText to markdown, as far as search needs it: section titles
 * become `#` headings (levels in the order their adornment styles first
 * appear, as docutils assigns them), literal blocks and code directives become
 * fenced code, admonitions keep their text, and markup that only renders
 * (comments, targets, toctrees, images) is dropped. Indentation outside code is
 * removed so that RST block quotes do not turn into markdown code blocks.
 */

// Any repeated non-alphanumeric printable ASCII character can adorn a title.
const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;
const DIRECTIVE = /^(\s*)\.\.\s+([\w:.+-]+)::(?:\s+(.*))?$/;
// Comments, hyperlink targets (`.. _name:`), footnotes and substitution definitions.
const EXPLICIT_MARKUP = /^(\s*)\.\.(?:\s|$)/;
const FIELD_OPTION = /^:[\w -]+:/;
const CODE_DIRECTIVES = new Set(['code', 'code-block', 'sourcecode', 'literalinclude', 'highlight', 'parsed-literal']);
const DROPPED_DIRECTIVES = new Set([
  'toctree',
  'image',
  'figure',
  'include',
  'raw',
  'only',
  'index',
  'contents',
  'sectnum',
  'meta',
  'highlight',
  'literalinclude',
  'currentmodule',
  'module',
  'automodule',
  'autoclass',
  'autofunction',
  'automethod',
  'autoattribute',
  'autodata',
  'autosummary',
  'tabularcolumns',
  'csv-table',
]);
const ADMONITIONS = new Set([
  'note',
  'warning',
  'tip',
  'hint',
  'important',
  'caution',
  'danger',
  'error',
  'attention',
  'seealso',
  'versionadded',
  'versionchanged',
  'deprecated',
  'admonition',
  'topic',
  'sidebar',
  'rubric',
]);
// Roles whose text names code: shown as inline code.
const CODE_ROLES =
  /^(?:[a-z]+:)?(?:func|meth|class|attr|mod|obj|data|exc|const|member|var|type|macro|code|command|option|envvar|file|samp|kbd|program)$/;

/**
 * Converts reStructuredText to markdown whose headings mirror the RST
 * section levels, so the markdown parser gives the same sections for both.
 *
 * @example
 * rstToMarkdown('Title\n=====\n\nIntro.\n\nUsage\n-----\n\nRun ``tool``.\n');
 * // → '# Title\n\nIntro.\n\n## Usage\n\nRun `tool`.\n'
 */
export function rstToMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const styles: string[] = [];
  const out: string[] = [];
  const levelOf = (style: string): number => {
    let index = styles.indexOf(style);
    if (index === -1) index = styles.push(style) - 1;
    return Math.min(index + 1, 6);
  };
  const heading = (style: string, title: string) => {
    out.push('', `${'#'.repeat(levelOf(style))} ${inline(title.trim())}`, '');
  };
  const blankBefore = (i: number) => i === 0 || (lines[i - 1] ?? '').trim() === '';

  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const next = lines[i + 1];
    const afterNext = lines[i + 2];
    // Overlined title: adornment, title text, the same adornment.
    if (
      ADORNMENT.test(line) &&
      next !== undefined &&
      afterNext !== undefined &&
      next.trim() !== '' &&
      !ADORNMENT.test(next) &&
      ADORNMENT.test(afterNext) &&
      afterNext.trim()[0] === line.trim()[0] &&
      blankBefore(i)
    ) {
      heading(`${line.trim()[0]}o`, next);
      i += 3;
      continue;
    }
    // Underlined title: text at the margin, then an adornment at least as long (or 3+ characters).
    if (
      line.trim() !== '' &&
      !/^\s/.test(line) &&
      !ADORNMENT.test(line) &&
      next !== undefined &&
      ADORNMENT.test(next) &&
      (next.trim().length >= line.trim().length || next.trim().length >= 3) &&
      blankBefore(i)
    ) {
      heading(`${next.trim()[0]}u`, line);
      i += 2;
      continue;
    }
    // Transition: a lone adornment line between blank lines.
    if (ADORNMENT.test(line) && line.trim().length >= 4 && blankBefore(i) && (next ?? '').trim() === '') {
      out.push('', '* * *', '');
      i += 1;
      continue;
    }
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      const indent = (directive[1] as string).length;
      const name = (directive[2] as string).toLowerCase();
      const argument = (directive[3] ?? '').trim();
      const end = blockEnd(lines, i + 1, indent);
      const body = dedent(lines.slice(i + 1, end)).filter((bodyLine, index, all) => {
        // Options come first in a directive's body: `:linenos:`, `:caption: x`.
        const optionsSoFar = all.slice(0, index).every((l) => FIELD_OPTION.test(l.trim()));
        return !(optionsSoFar && FIELD_OPTION.test(bodyLine.trim()));
      });
      while (body[0]?.trim() === '') body.shift();
      i = end;
      if (CODE_DIRECTIVES.has(name) && !DROPPED_DIRECTIVES.has(name)) {
        out.push('', ...fence(body, argument.split(/\s+/)[0] ?? ''), '');
      } else if (ADMONITIONS.has(name)) {
        const label = name === 'admonition' || name === 'topic' || name === 'sidebar' ? argument : capitalise(name);
        const text = name === 'admonition' || name === 'topic' || name === 'sidebar' ? '' : argument;
        out.push('', `**${inline(label || capitalise(name))}:** ${inline(text)}`.trimEnd(), '');
        out.push(...convertBody(body));
      } else if (!DROPPED_DIRECTIVES.has(name)) {
        // API descriptions (`.. function:: parse(text)`) and unknown directives: the argument is a signature.
        if (argument !== '') out.push('', `\`${argument}\``, '');
        out.push(...convertBody(body));
      }
      continue;
    }
    const markup = EXPLICIT_MARKUP.exec(line);
    if (markup) {
      i = blockEnd(lines, i + 1, (markup[1] as string).length);
      continue;
    }
    // A paragraph ending in `::` introduces an indented literal block.
    if (/::\s*$/.test(line)) {
      const indent = indentOf(line);
      const text = line.trim() === '::' ? '' : line.trim().replace(/\s*::\s*$/, /\s::\s*$/.test(line) ? '' : ':');
      if (text !== '') out.push(inline(text));
      let j = i + 1;
      while (j < lines.length && (lines[j] as string).trim() === '') j++;
      if (j < lines.length && indentOf(lines[j] as string) > indent) {
        const end = blockEnd(lines, j, indent);
        out.push('', ...fence(dedent(lines.slice(j, end)), ''), '');
        i = end;
      } else {
        i += 1;
      }
      continue;
    }
    // Text that would read as a markdown heading is not one in RST.
    out.push(inline(line.trim()).replace(/^(#{1,6})(?=\s|$)/, '\\$1'));
    i += 1;
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;

  function convertBody(body: readonly string[]): string[] {
    return body.length === 0 ? [] : [...rstToMarkdown(body.join('\n')).split('\n'), ''];
  }
}

/** Index of the first line after the block indented deeper than `indent` that starts at `from` (blank lines inside belong to it). */
function blockEnd(lines: readonly string[], from: number, indent: number): number {
  let end = from;
  let last = from;
  while (end < lines.length) {
    const line = lines[end] as string;
    if (line.trim() !== '') {
      if (indentOf(line) <= indent) break;
      last = end + 1;
    }
    end += 1;
  }
  return last;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map(indentOf);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  const result = lines.map((l) => l.slice(cut).trimEnd());
  while (result.length > 0 && result[0] === '') result.shift();
  while (result.length > 0 && result[result.length - 1] === '') result.pop();
  return result;
}

function fence(body: readonly string[], language: string): string[] {
  const longest = Math.max(
    2,
    ...body.map((l) => (l.match(/`+/g) ?? []).reduce((m, run) => Math.max(m, run.length), 0)),
  );
  const marker = '`'.repeat(longest + 1);
  return [`${marker}${language}`, ...body, marker];
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Inline markup: ``literals``, roles, hyperlink references. Emphasis is written the same way in both. */
function inline(text: string): string {
  return (
    text
      .replace(/``(.+?)``/g, (_, code: string) => (code.includes('`') ? `\`\` ${code} \`\`` : `\`${code}\``))
      .replace(/:([\w:.+-]+):`([^`]+)`/g, (_, role: string, content: string) => {
        // `:ref:`label <target>`` shows the label; `:func:`~pkg.mod.f`` shows `f`.
        const label = (/^(.*?)\s*<[^>]*>$/.exec(content)?.[1] ?? content).trim();
        const shown = label.startsWith('~') ? (label.slice(1).split('.').at(-1) ?? label) : label.replace(/^!/, '');
        return CODE_ROLES.test(role) ? `\`${shown}\`` : shown;
      })
      // `text <https://url>`_ and anonymous `text <url>`__
      .replace(/`([^`<]+?)\s*<([^>`]+)>`__?/g, (_, label: string, url: string) => `[${label.trim()}](${url.trim()})`)
      // `reference`_ and interpreted text `like this`
      .replace(/(^|[^`])`([^`]+)`__?(?=\W|$)/g, '$1$2')
  );
}
