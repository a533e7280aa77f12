/**
 * A Python docstring as markdown, for the styles packages write them in: Google (`Args:` sections), NumPy
 * (`Parameters` underlined with dashes), reST field lists (`:param x:`) and directives (`.. code-block::`,
 * `.. note::`, `.. deprecated::`), mkdocs admonitions (`!!! note`), and markdown itself. `>>>` examples and literal
 * blocks become python code fences; parameters become a list; Sphinx roles (`:func:\`x\``) read as code. A line
 * starting with `#` outside a fence is escaped, so a docstring cannot open a section of the page.
 *
 * @example
 * docstringMarkdown('Add.\n\nArgs:\n    a (int): The first.\n\n>>> add(1, 2)\n3');
 * // → 'Add.\n\n**Args:**\n\n- `a` (int): The first.\n\n```python\n>>> add(1, 2)\n3\n```'
 */
export function docstringMarkdown(doc: string): string {
  const lines = doc.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const out: string[] = [];
  let i = 0;
  const indentOf = (line: string) => line.length - line.trimStart().length;
  /** The indented block after line `start` (blank lines inside it kept), dedented, and the index after it. */
  const block = (start: number, baseIndent: number): { body: string[]; next: number } => {
    let end = start;
    const body: string[] = [];
    while (end < lines.length) {
      const line = lines[end] ?? '';
      if (line.trim() !== '' && indentOf(line) <= baseIndent) break;
      body.push(line);
      end++;
    }
    while (body.length > 0 && body[body.length - 1]?.trim() === '') body.pop();
    while (body.length > 0 && body[0]?.trim() === '') body.shift();
    const least = Math.min(...body.filter((l) => l.trim() !== '').map(indentOf));
    return { body: body.map((l) => l.slice(Number.isFinite(least) ? least : 0)), next: end };
  };
  const fence = (lang: string, body: readonly string[]) => {
    out.push('', `\`\`\`${lang}`, ...body, '```', '');
  };
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    const indent = indentOf(line);
    // A markdown fence: copied as it is.
    const open = /^(`{3,}|~{3,})/.exec(trimmed);
    if (open?.[1]) {
      const marker = open[1];
      const body = [trimmed];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(marker))
        body.push((lines[i++] ?? '').slice(indent));
      body.push(marker);
      i++;
      out.push('', ...body, '');
      continue;
    }
    if (trimmed.startsWith('>>>')) {
      const body: string[] = [];
      while (i < lines.length && (lines[i] ?? '').trim() !== '') body.push((lines[i++] ?? '').slice(indent));
      fence('python', body);
      continue;
    }
    const directive = /^\.\.\s+([\w:-]+)::\s*(.*)$/.exec(trimmed);
    if (directive) {
      const [, name = '', argument = ''] = directive;
      const { body, next } = block(i + 1, indent);
      i = next;
      const content = body.filter((l) => !/^:[\w-]+:/.test(l.trim()) || l.startsWith(' '));
      if (/^(?:code-block|code|sourcecode|doctest|testcode)$/.test(name)) fence(argument || 'python', content);
      else if (name === 'deprecated')
        out.push('', `**Deprecated${argument ? ` since ${argument}` : ''}:** ${content.join(' ')}`.trimEnd(), '');
      else if (name === 'versionadded') out.push('', `*Added in ${argument}.* ${content.join(' ')}`.trimEnd(), '');
      else if (name === 'versionchanged') out.push('', `*Changed in ${argument}:* ${content.join(' ')}`.trimEnd(), '');
      else if (/^(?:note|warning|tip|important|caution|danger|attention|hint|seealso|admonition)$/.test(name))
        out.push('', `**${label(name === 'seealso' ? 'see also' : name)}:** ${argument}`.trimEnd(), ...content, '');
      else if (/^auto/.test(name)) out.push('', `See \`${argument}\`.`, '');
      else out.push(...content);
      continue;
    }
    const admonition = /^[!?]{3}\+?\s+(\w+)(?:\s+"([^"]*)")?/.exec(trimmed);
    if (admonition) {
      const { body, next } = block(i + 1, indent);
      i = next;
      out.push('', `**${admonition[2] || label(admonition[1] ?? 'note')}:**`, '', ...convertNested(body), '');
      continue;
    }
    // NumPy: `Parameters` over a line of dashes.
    const underline = lines[i + 1]?.trim() ?? '';
    if (trimmed !== '' && /^-{3,}$/.test(underline) && underline.length >= trimmed.length - 1 && indent === 0) {
      const { body, next } = numpySection(lines, i + 2);
      i = next;
      out.push('', `**${trimmed}:**`, '', ...fieldItems(trimmed, body, 'numpy'), '');
      continue;
    }
    const section = GOOGLE_SECTION.exec(trimmed);
    if (section && indent === 0 && (lines[i + 1] ?? '').trim() !== '' && indentOf(lines[i + 1] ?? '') > 0) {
      const { body, next } = block(i + 1, indent);
      i = next;
      const name = section[1] ?? '';
      if (/^(?:Examples?|Usage)$/i.test(name)) out.push('', `**${name}:**`, '', ...convertNested(body), '');
      else out.push('', `**${name}:**`, '', ...fieldItems(name, body, 'google'), '');
      continue;
    }
    const field =
      /^:(param|parameter|arg|argument|key|keyword|raises?|except|exception|returns?|rtype|yields?|type|var|ivar|cvar)\b([^:]*):\s*(.*)$/.exec(
        trimmed,
      );
    if (field) {
      const [, kind = '', target = '', first = ''] = field;
      const { body, next } = block(i + 1, indent);
      i = next;
      const text = [first, ...body.map((l) => l.trim())].join(' ').trim();
      const name = target.trim().split(/\s+/).pop() ?? '';
      if (kind === 'type') continue;
      if (/^returns?$/.test(kind)) out.push('', `Returns: ${text}`, '');
      else if (kind === 'rtype') out.push('', `Return type: \`${text}\``, '');
      else if (/^yields?$/.test(kind)) out.push('', `Yields: ${text}`, '');
      else if (/^(?:raises?|except|exception)$/.test(kind)) out.push(`- Raises \`${name}\`${text ? `: ${text}` : ''}`);
      else out.push(`- \`${name}\`${text ? `: ${text}` : ''}`);
      continue;
    }
    // A paragraph ending in `::` opens a reST literal block.
    if (trimmed.endsWith('::') && !trimmed.startsWith('..')) {
      const next = lines.slice(i + 1).findIndex((l) => l.trim() !== '');
      const following = next === -1 ? undefined : lines[i + 1 + next];
      if (following !== undefined && indentOf(following) > indent) {
        const paragraph = trimmed === '::' ? '' : trimmed.replace(/\s*::$/, trimmed.endsWith(' ::') ? '' : ':');
        if (paragraph) out.push(paragraph);
        const { body, next: after } = block(i + 1, indent);
        i = after;
        fence('python', body);
        continue;
      }
    }
    out.push(line.startsWith('#') ? `\\${line}` : line);
    i++;
  }
  return inline(collapse(out));
}

// Google style's section names (napoleon's list), each alone on its line with a colon.
const GOOGLE_SECTION =
  /^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns?|Yields?|Raises|Exceptions|Attributes|Examples?|Usage|Notes?|Warnings?|Warns|See Also|References|Todo|Methods):\s*$/i;

/** The lines of a NumPy section: up to the next underlined title. */
function numpySection(lines: readonly string[], start: number): { body: string[]; next: number } {
  let end = start;
  while (end < lines.length) {
    const next = lines[end + 1]?.trim() ?? '';
    if ((lines[end] ?? '').trim() !== '' && /^-{3,}$/.test(next)) break;
    end++;
  }
  const body = lines.slice(start, end);
  while (body.length > 0 && body[body.length - 1]?.trim() === '') body.pop();
  return { body, next: end };
}

/**
 * A section's entries as a list: `name (type): text` (Google) or `name : type` over an indented text (NumPy), each
 * entry's continuation lines joined to it. A section of prose (Returns, Notes) is kept as text.
 */
function fieldItems(section: string, body: readonly string[], style: 'google' | 'numpy'): string[] {
  if (
    !/^(?:Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Raises|Exceptions|Attributes|Warns|Yields?|Returns?|Methods)$/i.test(
      section,
    )
  )
    return convertNested(body);
  const items: string[] = [];
  const base = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  for (const line of body) {
    if (line.trim() === '') continue;
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    if (indent === base) {
      const entry =
        style === 'google'
          ? /^(\*{0,2}[\w.]+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$/.exec(text)
          : /^(\*{0,2}[\w.]+)\s*(?::\s*(.*))?$/.exec(text);
      if (entry) {
        const [, name = '', type, rest] = entry;
        const description = style === 'google' ? (rest ?? '') : '';
        items.push(`- \`${name}\`${type ? ` (${type.trim()})` : ''}${description ? `: ${description}` : ''}`);
        continue;
      }
      items.push(`- ${text}`);
      continue;
    }
    const last = items.length - 1;
    if (last < 0) items.push(text);
    else items[last] = `${items[last]}${items[last]?.includes(': ') || style === 'google' ? ' ' : ': '}${text}`;
  }
  return items;
}

/** An indented block's own markdown (an Example section holding `>>>` lines or a fence). */
function convertNested(body: readonly string[]): string[] {
  return docstringMarkdown(body.join('\n')).split('\n');
}

function label(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Runs of blank lines as one, none at either end. */
function collapse(lines: readonly string[]): string {
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Sphinx roles and reST inline literals as markdown code, outside fences. */
function inline(markdown: string): string {
  const parts = markdown.split(/(^```[\s\S]*?^```)/m);
  return parts
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(
              /:(?:py:)?(?:func|class|meth|attr|mod|obj|data|exc|const|ref|doc|term):`(~?)([^`<]*?)(?:\s*<([^>]+)>)?`/g,
              (_, short: string, text: string, target?: string) => {
                // `~a.b.c` shows `c`, as Sphinx does; `title <target>` shows the title.
                const shown = (target ? text || target : text).trim().replace(/^\./, '');
                return `\`${short ? (shown.split('.').pop() ?? shown) : shown}\``;
              },
            )
            .replace(/``([^`]+)``/g, '`$1`'),
    )
    .join('');
}
