/**
 * AsciiDoc to markdown, as far as search needs it: `=` titles become `#`
 * headings of the same depth, listing and literal blocks become fenced code
 * (keeping a `[source,lang]` language), document attributes are substituted
 * where referenced, and markup that only renders (comments, attribute lines,
 * conditionals, includes, images) is dropped.
 */

const TITLE = /^(={1,6})\s+(\S.*?)\s*(?:\s=+)?$/;
const ATTRIBUTE_ENTRY = /^:(!?[\w-]+!?):\s*(.*)$/;
const BLOCK_ATTRIBUTES = /^\[(.*)\]\s*$/;
const BLOCK_TITLE = /^\.([^\s.].*)$/;
const ADMONITION = /^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s+(.*)$/;
const DROPPED_LINE = /^(?:ifdef|ifndef|ifeval|endif|include|image|toc|video|audio)::.*\]\s*$/;

/**
 * Converts AsciiDoc to markdown: `= Title` → `# Title`, `== Section` → `## Section`, and so on.
 *
 * @example
 * asciidocToMarkdown('= Guide\n:product: Widget\n\n== Install\n\nInstall {product}.\n');
 * // → '# Guide\n\n## Install\n\nInstall Widget.\n'
 */
export function asciidocToMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const attributes = new Map<string, string>();
  const out: string[] = [];
  let pendingLanguage = '';
  let pendingLabel = '';
  let i = 0;

  const text = (line: string) =>
    inline(line).replace(/\{([\w-]+)\}/g, (whole, name: string) => attributes.get(name) ?? whole);

  while (i < lines.length) {
    const line = lines[i] as string;
    const trimmed = line.trim();

    if (trimmed.startsWith('////') && /^\/{4,}$/.test(trimmed)) {
      i = closingLine(lines, i, trimmed) + 1;
      continue;
    }
    if (trimmed.startsWith('//') && !trimmed.startsWith('///')) {
      i += 1;
      continue;
    }
    const delimiter = codeDelimiter(trimmed);
    if (delimiter !== undefined) {
      const close = closingLine(lines, i, delimiter.marker);
      const body = lines.slice(i + 1, close);
      out.push('', ...fence(body, delimiter.language || pendingLanguage), '');
      pendingLanguage = '';
      i = close + 1;
      continue;
    }
    if (/^(?:={4,}|\*{4,}|\+{4,}|-{2})$/.test(trimmed)) {
      // Example, sidebar, passthrough and open blocks: the delimiters go, the content stays.
      if (pendingLabel !== '') {
        out.push('', `**${pendingLabel}:**`, '');
        pendingLabel = '';
      }
      i += 1;
      continue;
    }
    if (/^_{4,}$/.test(trimmed)) {
      const close = closingLine(lines, i, trimmed);
      out.push('', ...lines.slice(i + 1, close).map((l) => (l.trim() === '' ? '>' : `> ${text(l.trim())}`)), '');
      i = close + 1;
      continue;
    }
    if (/^\|={3,}$/.test(trimmed)) {
      const close = closingLine(lines, i, trimmed);
      out.push('', ...table(lines.slice(i + 1, close).map(text)), '');
      i = close + 1;
      continue;
    }
    const title = TITLE.exec(line);
    if (title) {
      out.push('', `${'#'.repeat((title[1] as string).length)} ${text(title[2] as string)}`, '');
      i += 1;
      // The document header: author and revision lines, then attribute entries, up to the first blank line.
      if ((title[1] as string).length === 1) {
        while (i < lines.length && (lines[i] as string).trim() !== '') {
          const entry = ATTRIBUTE_ENTRY.exec((lines[i] as string).trim());
          if (entry) attributes.set(entry[1] as string, entry[2] as string);
          i += 1;
        }
      }
      continue;
    }
    const entry = ATTRIBUTE_ENTRY.exec(trimmed);
    if (entry) {
      attributes.set(entry[1] as string, entry[2] as string);
      i += 1;
      continue;
    }
    const blockAttributes = BLOCK_ATTRIBUTES.exec(trimmed);
    if (blockAttributes) {
      const parts = (blockAttributes[1] as string).split(',').map((p) => p.trim());
      if (parts[0] === 'source' || parts[0] === 'listing') pendingLanguage = parts[1] ?? '';
      else if (/^(NOTE|TIP|IMPORTANT|WARNING|CAUTION)$/.test(parts[0] ?? '')) pendingLabel = capitalise(parts[0] ?? '');
      i += 1;
      continue;
    }
    if (DROPPED_LINE.test(trimmed)) {
      i += 1;
      continue;
    }
    const blockTitle = BLOCK_TITLE.exec(trimmed);
    if (blockTitle && !/^\.\d/.test(trimmed) && (i === 0 || (lines[i - 1] as string).trim() === '')) {
      out.push(`**${text(blockTitle[1] as string)}**`, '');
      i += 1;
      continue;
    }
    const admonition = ADMONITION.exec(trimmed);
    if (admonition) {
      out.push(`**${capitalise(admonition[1] as string)}:** ${text(admonition[2] as string)}`);
      i += 1;
      continue;
    }
    if (trimmed === '+') {
      // List continuation: the attached block follows.
      out.push('');
      i += 1;
      continue;
    }
    const item = /^(\*{1,5}|-|\.{1,5})\s+(.*)$/.exec(trimmed);
    if (item) {
      const marker = item[1] as string;
      const depth = marker === '-' ? 0 : marker.length - 1;
      out.push(`${'  '.repeat(depth)}${marker.startsWith('.') ? '1.' : '-'} ${text(item[2] as string)}`);
      i += 1;
      continue;
    }
    if (/^\s/.test(line) && trimmed !== '' && (i === 0 || (lines[i - 1] as string).trim() === '')) {
      // An indented paragraph is a literal block.
      let end = i;
      while (end < lines.length && (lines[end] as string).trim() !== '') end += 1;
      out.push('', ...fence(dedent(lines.slice(i, end)), pendingLanguage), '');
      pendingLanguage = '';
      i = end;
      continue;
    }
    out.push(text(trimmed));
    i += 1;
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

function codeDelimiter(trimmed: string): { marker: string; language: string } | undefined {
  if (/^-{4,}$/.test(trimmed) || /^\.{4,}$/.test(trimmed)) return { marker: trimmed, language: '' };
  const fenced = /^```\s*([\w+#-]*)$/.exec(trimmed);
  return fenced ? { marker: '```', language: fenced[1] ?? '' } : undefined;
}

/** Index of the line closing a delimited block opened at `open`; the last line when it is never closed. */
function closingLine(lines: readonly string[], open: number, marker: string): number {
  for (let j = open + 1; j < lines.length; j++) {
    if ((lines[j] as string).trim() === marker) return j;
  }
  return lines.length;
}

/** Table rows as plain lines, cells separated by ` | `; one cell per line is joined back into its row. */
function table(rows: readonly string[]): string[] {
  const out: string[] = [];
  let row: string[] = [];
  const flush = () => {
    if (row.length > 0) out.push(row.join(' | '), '');
    row = [];
  };
  for (const line of rows) {
    const trimmed = line.trim();
    if (trimmed === '') {
      flush();
      continue;
    }
    const cells = trimmed
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .filter((c, index) => index > 0 || c !== '');
    row.push(...cells);
  }
  flush();
  return out;
}

function fence(body: readonly string[], language: string): string[] {
  const longest = Math.max(2, ...body.map((l) => (l.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0)));
  const marker = '`'.repeat(longest + 1);
  return [`${marker}${language}`, ...body, marker];
}

function dedent(lines: readonly string[]): string[] {
  const cut = Math.min(...lines.map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(cut).trimEnd());
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** Inline markup: links and cross references; `code`, *strong* and _emphasis_ read the same in markdown. */
function inline(text: string): string {
  return text
    .replace(/\blink:([^\s[]+)\[([^\]]*)\]/g, (_, url: string, label: string) => `[${label || url}](${url})`)
    .replace(/\b(https?:\/\/[^\s[]+)\[([^\]]*)\]/g, (_, url: string, label: string) => `[${label || url}](${url})`)
    .replace(/\bxref:([^\s[]+)\[([^\]]*)\]/g, (_, target: string, label: string) => label || target)
    .replace(/<<([^,>]+)(?:,\s*([^>]+))?>>/g, (_, id: string, label?: string) => (label ?? id).trim())
    .replace(/\bkbd:\[([^\]]*)\]/g, '`$1`')
    .replace(/\bpass:\w*\[([^\]]*)\]/g, '$1');
}
