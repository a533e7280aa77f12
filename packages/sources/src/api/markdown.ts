import path from 'node:path';
import type { ApiSection, Inherited, Place } from './declarations.js';
import { OTHER_ENTRY_POINTS } from './entry-roles.js';
import { nestHeadings } from './nested-headings.js';

/** One API page: an export of one entry point with its members, or the entry point's other exports. */
export interface ApiPage {
  /** Where it is written in the staged folder: `api/ZodString.md` for the root's, `api/v4/index.md` for `zod/v4`'s others. */
  readonly file: string;
  readonly importPath: string;
  readonly markdown: string;
}

/**
 * API sections as markdown pages, as API references lay them out (TypeDoc,
 * api-extractor): a class, interface or namespace with members gets a page of
 * its own, the unit a reader opens and a search tells apart, and an entry
 * point's other exports (functions, variables, types) share its index page
 * (`api/index.md`, `api/v4/index.md`); an entry point `isShown` says the
 * package's docs never import has its pages under `api/other-entry-points/`
 * (`api/other-entry-points/node/index.md` for `vitest/node`), which a search
 * weighs less. Each page is titled by its entry point
 * (`# zod/v4 API`) and holds a `##` section per export and a `###` per member,
 * each opening with how to import it, then the comment (a deprecation first),
 * the parameters and return value, the signatures in a `ts` fence (overloads
 * together) and the examples as code.
 *
 * @example
 * apiPages('zod', sections).map((p) => p.file); // → ['api/index.md', 'api/ZodString.md', 'api/v4/index.md', …]
 */
export function apiPages(
  packageName: string,
  sections: readonly ApiSection[],
  isShown: (importPath: string) => boolean = () => true,
): ApiPage[] {
  const byExport = new Map<string, { importPath: string; exportName: string; sections: ApiSection[] }>();
  for (const section of sections) {
    const key = `${section.importPath}\0${section.exportName}`;
    const group = byExport.get(key);
    if (group) group.sections.push(section);
    else byExport.set(key, { importPath: section.importPath, exportName: section.exportName, sections: [section] });
  }
  // Page by page, in the order of the exports: an entry point's index page where its first loose export is.
  const pages = new Map<string, { importPath: string; stem: string; sections: ApiSection[] }>();
  const pageOf = new Map<string, string>();
  for (const [exportKey, { importPath, exportName, sections: list }] of byExport) {
    const own = list.length > 1;
    const key = own ? `${importPath}\0${exportName}` : importPath;
    pageOf.set(exportKey, key);
    const page = pages.get(key);
    if (page) page.sections.push(...list);
    else pages.set(key, { importPath, stem: own ? exportName : 'index', sections: [...list] });
  }
  // Index pages take their names first, so an export called `index` is the one renamed.
  const files = new Set<string>();
  const folderOf = (importPath: string) =>
    importPath === packageName
      ? 'api'
      : `api/${isShown(importPath) ? '' : `${OTHER_ENTRY_POINTS}/`}${importPath.slice(packageName.length + 1)}`;
  const named = new Map<string, string>();
  for (const [key, page] of pages)
    if (page.stem === 'index') named.set(key, uniqueFile(files, folderOf(page.importPath), 'index'));
  for (const [key, page] of pages) {
    if (!named.has(key)) named.set(key, uniqueFile(files, folderOf(page.importPath), page.stem));
  }
  // Where a place is documented, as a link from `from`: the page of its export, relative, as docs sites link.
  const linkTo = (from: string, place: Place) => {
    const key = pageOf.get(`${place.importPath}\0${place.exportName}`);
    const file = key === undefined ? undefined : named.get(key);
    return file === undefined ? undefined : path.posix.relative(path.posix.dirname(from), file);
  };
  return [...pages].map(([key, { importPath, sections: list }]) => {
    const file = named.get(key) ?? folderOf(importPath);
    const body = list.map((section) => sectionMarkdown(section, (place) => linkTo(file, place)));
    return { file, importPath, markdown: `${[`# ${importPath} API`, ...body].join('\n\n')}\n` };
  });
}

/** A file name for an export, unique in the package even where names differ only in case or in characters dropped. */
function uniqueFile(taken: Set<string>, folder: string, exportName: string): string {
  const stem = exportName.replace(/[^\w$.-]+/g, '_').replace(/^\.+/, '_') || 'index';
  let file = `${folder}/${stem}.md`;
  for (let n = 2; taken.has(file.toLowerCase()); n++) file = `${folder}/${stem}-${n}.md`;
  taken.add(file.toLowerCase());
  return file;
}

function sectionMarkdown(section: ApiSection, linkTo: (place: Place) => string | undefined): string {
  const level = section.owner !== undefined || section.name.includes('.') ? '###' : '##';
  const reach =
    section.owner === undefined
      ? `\`${section.importLine}\` · ${section.kind}`
      : `${capitalised(section.kind)} of \`${section.owner}\` · \`${section.importLine}\``;
  const aliases = section.aliases?.length
    ? ` · also exported as ${section.aliases.map((alias) => `\`${alias}\``).join(', ')}`
    : '';
  const parts = [`${level} ${section.name}`, `${reach}${aliases}`];
  const deprecated = section.tags.find((tag) => tag.name === 'deprecated');
  if (deprecated) parts.push(`Deprecated${deprecated.text ? `: ${links(deprecated.text)}` : '.'}`);
  if (section.doc !== '') parts.push(links(nestHeadings(section.doc, level.length)));
  for (const passage of section.mentions ?? []) parts.push(`In the docs: ${passage}`);
  const listed = section.tags.filter((tag) => LISTED.has(tag.name));
  if (listed.length > 0) parts.push(listed.map(listItem).join('\n'));
  for (const tag of section.tags) {
    if (tag.name === 'returns' || tag.name === 'return') parts.push(`Returns: ${links(stripType(tag.text))}`);
    else if (LABELLED.has(tag.name) && tag.text !== '') parts.push(`${capitalised(tag.name)}: ${links(tag.text)}`);
  }
  if (section.signatures.length > 0) parts.push(['```ts', ...section.signatures, '```'].join('\n'));
  for (const from of section.inherited ?? []) parts.push(inheritedLine(from, linkTo(from)));
  for (const tag of section.tags) {
    if (tag.name === 'example' && tag.text !== '') parts.push(example(tag.text));
  }
  return parts.join('\n\n');
}

/**
 * What a class or interface inherits from one export (or shares with it: see `Inherited.shared`): how many members, and
 * a link to where they are documented.
 * Not their names: a list of thirty names on each of forty subclasses matches every question about any of them
 * (measured in docs/ranking.md, "Inherited members").
 */
function inheritedLine(from: Inherited, link: string | undefined): string {
  const where = link === undefined ? `\`${from.exportName}\`` : `[\`${from.exportName}\`](${link})`;
  const count = from.members.length === 1 ? 'one member' : `${from.members.length} members`;
  return from.shared
    ? `Shares ${count} with ${where}, documented there.`
    : `Inherits ${count} from ${where}, documented there.`;
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
