import type { ApiSection } from './declarations.js';

/** One API page: the exports of one entry point. */
export interface ApiPage {
  /** Where it is written in the staged folder: `api.md` for the package's root, `api/v4.md` for `zod/v4`. */
  readonly file: string;
  readonly importPath: string;
  readonly markdown: string;
}

/**
 * API sections as markdown pages, one per entry point (`# zod/v4 API`): a `##`
 * section per export and a `###` per member under its owner, each opening
 * with how to import it, then the comment (a deprecation first), the
 * parameters and return value, the signatures in a `ts` fence (overloads
 * together) and the examples as code.
 *
 * @example
 * apiPages('zod', sections).map((p) => p.file); // → ['api.md', 'api/v4.md', …]
 */
export function apiPages(packageName: string, sections: readonly ApiSection[]): ApiPage[] {
  const byPath = new Map<string, ApiSection[]>();
  for (const section of sections) {
    const list = byPath.get(section.importPath);
    if (list) list.push(section);
    else byPath.set(section.importPath, [section]);
  }
  return [...byPath].map(([importPath, list]) => ({
    file: importPath === packageName ? 'api.md' : `api/${importPath.slice(packageName.length + 1)}.md`,
    importPath,
    markdown: `${[`# ${importPath} API`, ...list.map(sectionMarkdown)].join('\n\n')}\n`,
  }));
}

function sectionMarkdown(section: ApiSection): string {
  const level = section.owner !== undefined || section.name.includes('.') ? '###' : '##';
  const reach =
    section.owner === undefined
      ? `\`${section.importLine}\` · ${section.kind}`
      : `${capitalised(section.kind)} of \`${section.owner}\` · \`${section.importLine}\``;
  const parts = [`${level} ${section.name}`, reach];
  const deprecated = section.tags.find((tag) => tag.name === 'deprecated');
  if (deprecated) parts.push(`Deprecated${deprecated.text ? `: ${links(deprecated.text)}` : '.'}`);
  if (section.doc !== '') parts.push(links(section.doc));
  const listed = section.tags.filter((tag) => LISTED.has(tag.name));
  if (listed.length > 0) parts.push(listed.map(listItem).join('\n'));
  for (const tag of section.tags) {
    if (tag.name === 'returns' || tag.name === 'return') parts.push(`Returns: ${links(stripType(tag.text))}`);
    else if (LABELLED.has(tag.name) && tag.text !== '') parts.push(`${capitalised(tag.name)}: ${links(tag.text)}`);
  }
  if (section.signatures.length > 0) parts.push(['```ts', ...section.signatures, '```'].join('\n'));
  for (const tag of section.tags) {
    if (tag.name === 'example' && tag.text !== '') parts.push(example(tag.text));
  }
  return parts.join('\n\n');
}

// Tags listed as `- name: text`, one line per name.
const LISTED = new Set(['param', 'property', 'prop', 'typeParam', 'template']);
// Tags shown as `Name: text` after the description.
const LABELLED = new Set(['throws', 'see', 'default', 'defaultValue', 'since', 'remarks']);

function listItem(tag: { readonly text: string }): string {
  const param = /^(?:\{[^}]*\}\s*)?\[?([\w$.]+)[^\]\s]*\]?\s*(?:-\s*)?([\s\S]*)$/.exec(tag.text);
  return param ? `- \`${param[1]}\`: ${links(param[2] ?? '')}`.trimEnd() : `- ${links(tag.text)}`;
}

/** An `@example` as code: kept as written when it has its own fence, else fenced as TypeScript. */
function example(text: string): string {
  const caption = /^<caption>([\s\S]*?)<\/caption>\s*/.exec(text);
  const body = caption ? text.slice(caption[0].length) : text;
  const label = caption ? `Example (${caption[1]?.trim()}):` : 'Example:';
  return body.includes('```') ? `${label}\n\n${body}` : `${label}\n\n\`\`\`ts\n${body}\n\`\`\``;
}

function stripType(text: string): string {
  return text.replace(/^\{[^}]*\}\s*/, '');
}

/** `{@link Tree}` and `{@link Tree | the tree}` as markdown: the label, or the target as code. */
function links(text: string): string {
  return text.replace(
    /\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g,
    (_, target: string, label?: string) => (label?.trim() ? label.trim() : `\`${target}\``),
  );
}

function capitalised(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
