/** A declaration with a JSDoc comment, found in a `.d.ts` file. */
export interface DocumentedDeclaration {
  /** `parse`, or `Schema.parse` for a member of a class, interface or namespace. */
  readonly name: string;
  /** The declaration as written, without its body (`export declare function parse(text: string): Ast`). */
  readonly signature: string;
  /** The comment's text, without the comment markers. */
  readonly doc: string;
}

const MODIFIERS =
  /^(?:(?:export|declare|default|abstract|static|readonly|public|protected|private|async|override|accessor)\s+)*/;
const DECLARED_NAME =
  /^(?:(?:function\*?|class|interface|type|const|let|var|enum|namespace|module)\s+)?(?:(?:get|set)\s+(?=[\w$"'[]))?([A-Za-z_$][\w$]*|"[^"]+"|'[^']+'|\[[^\]]+\])/;
const CONTAINER =
  /^\s*(?:(?:export|declare|default|abstract|const)\s+)*(class|interface|namespace|module|enum)\s+([A-Za-z_$][\w$.]*)/;
// Comments that keep a declaration out of the public documentation.
const HIDDEN = /@(?:internal|hidden|ignore|private)\b/;

/**
 * The declarations of a `.d.ts` file that carry a JSDoc comment, in order,
 * each with its container (class, interface, namespace, enum) in its name.
 * A small scanner, not a TypeScript parser: it tracks strings, comments and
 * bracket depth, which is all generated declaration files need.
 *
 * @example
 * documentedDeclarations('/** Parses text. *\/\nexport declare function parse(text: string): Ast;');
 * // → [{ name: 'parse', signature: 'export declare function parse(text: string): Ast', doc: 'Parses text.' }]
 */
export function documentedDeclarations(source: string): DocumentedDeclaration[] {
  const found: DocumentedDeclaration[] = [];
  const containers: { name: string | undefined; depth: number; isEnum: boolean }[] = [];
  let depth = 0;
  let nesting = 0; // () [] <> inside a statement
  let statementStart = 0;
  let pendingDoc: string | undefined;
  let docEnd = 0;

  const endStatement = (at: number) => {
    if (pendingDoc !== undefined) {
      const head = stripComments(source.slice(docEnd, at)).replace(/\s+/g, ' ').trim();
      const name = declaredName(head);
      if (name !== undefined && !HIDDEN.test(pendingDoc)) {
        const container = containers.at(-1)?.name;
        const signature = /[:=]$/.test(head) ? `${head} { … }` : head;
        found.push({ name: container ? `${container}.${name}` : name, signature, doc: pendingDoc });
      }
      pendingDoc = undefined;
    }
    statementStart = at + 1;
  };

  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    const next = source[i + 1];
    if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      if (source[i + 2] === '*' && source[i + 3] !== '/' && nesting === 0) {
        pendingDoc = jsdocText(source.slice(i, stop));
        docEnd = stop;
      }
      i = stop - 1;
    } else if (char === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (char === '"' || char === "'" || char === '`') {
      i = stringEnd(source, i);
    } else if (char === '(' || char === '[' || char === '<') {
      nesting += 1;
    } else if (char === ')' || char === ']' || (char === '>' && source[i - 1] !== '=')) {
      nesting = Math.max(0, nesting - 1);
    } else if (nesting > 0) {
      // Inside a parameter list or type arguments: object types there are part of the statement.
    } else if (char === '{') {
      const head = stripComments(source.slice(statementStart, i));
      endStatement(i);
      depth += 1;
      const container = CONTAINER.exec(head);
      containers.push({ name: container?.[2], depth, isEnum: container?.[1] === 'enum' });
    } else if (char === '}') {
      endStatement(i);
      if (containers.at(-1)?.depth === depth) containers.pop();
      depth = Math.max(0, depth - 1);
    } else if (char === ';' || (char === ',' && containers.at(-1)?.isEnum === true)) {
      // Enum members end at commas, everything else at semicolons.
      endStatement(i);
    }
  }
  return found;
}

/**
 * Documented declarations as a markdown page: `##` per top-level declaration,
 * `###` per member under a `##` for its container, each with its comment and
 * its signature in a `ts` fence. Overloads with the same comment share a section.
 */
export function declarationsToMarkdown(title: string, declarations: readonly DocumentedDeclaration[]): string {
  const merged: { name: string; doc: string; signatures: string[] }[] = [];
  for (const declaration of declarations) {
    const previous = merged.find((m) => m.name === declaration.name && m.doc === declaration.doc);
    if (previous) {
      if (!previous.signatures.includes(declaration.signature)) previous.signatures.push(declaration.signature);
    } else {
      merged.push({ name: declaration.name, doc: declaration.doc, signatures: [declaration.signature] });
    }
  }
  const out = [`# ${title}`, ''];
  let container: string | undefined;
  for (const entry of merged) {
    const dot = entry.name.lastIndexOf('.');
    const owner = dot === -1 ? undefined : entry.name.slice(0, dot);
    if (owner === undefined) {
      out.push(`## ${entry.name}`, '');
      container = entry.name;
    } else {
      if (owner !== container && !owner.startsWith(`${container}.`)) {
        out.push(`## ${owner}`, '');
        container = owner;
      }
      out.push(`### ${entry.name}`, '');
    }
    if (entry.doc !== '') out.push(markdownDoc(entry.doc), '');
    out.push('```ts', ...entry.signatures, '```', '');
  }
  return `${out.join('\n').trim()}\n`;
}

function declaredName(head: string): string | undefined {
  const rest = head.replace(MODIFIERS, '');
  if (/^constructor\b/.test(rest)) return 'constructor';
  if (/^new\s*[(<]/.test(rest)) return 'new';
  if (/^export\s*(?:\*|\{)|^import\b/.test(head)) return undefined;
  return DECLARED_NAME.exec(rest)?.[1]?.replace(/^["']|["']$/g, '');
}

/** The text of a `/** … *\/` comment: markers and the leading ` * ` of each line removed. */
function jsdocText(comment: string): string {
  return comment
    .replace(/^\/\*\*\s?/, '')
    .replace(/\s*\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/** JSDoc tags as markdown: `@param x desc` → a list item, `@example` → a `ts` fence unless fenced already. */
function markdownDoc(doc: string): string {
  const out: string[] = [];
  const list: string[] = [];
  const flush = () => {
    if (list.length > 0) out.push(list.splice(0).join('\n'));
  };
  const parts = doc.split(/\n(?=@\w)/);
  const [lead, ...tags] = /^@\w/.test(doc) ? ['', ...parts] : parts;
  if (lead?.trim()) out.push(links(lead.trim()));
  for (const tag of tags) {
    const match = /^@(\w+)\s*([\s\S]*)$/.exec(tag);
    if (!match) continue;
    const [, name, body = ''] = match;
    const text = body.trim();
    const isListed =
      name === 'param' || name === 'property' || name === 'prop' || name === 'typeParam' || name === 'template';
    if (!isListed) flush();
    if (name === 'example') {
      out.push(text.includes('```') ? `Example:\n\n${text}` : `Example:\n\n\`\`\`ts\n${text}\n\`\`\``);
    } else if (isListed) {
      const param = /^(?:\{[^}]*\}\s*)?\[?([\w$.]+)[^\]\s]*\]?\s*(?:-\s*)?([\s\S]*)$/.exec(text);
      list.push(param ? `- \`${param[1]}\`: ${links(param[2] ?? '')}`.trimEnd() : `- ${links(text)}`);
    } else if (name === 'returns' || name === 'return') {
      out.push(`Returns: ${links(text.replace(/^\{[^}]*\}\s*/, ''))}`);
    } else if (name === 'throws' || name === 'deprecated' || name === 'see' || name === 'default' || name === 'since') {
      out.push(`${name.charAt(0).toUpperCase()}${name.slice(1)}: ${links(text)}`);
    }
  }
  flush();
  return out.join('\n\n');
}

function links(text: string): string {
  return text.replace(
    /\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g,
    (_, target: string, label?: string) => (label?.trim() ? label.trim() : `\`${target}\``),
  );
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

function stringEnd(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i += 1;
    else if (char === quote) return i;
    else if (char === '\n' && quote !== '`') return i;
  }
  return source.length;
}
