import type { ApiPage } from '../api/index.js';
import { uniquePageFile } from '../staged-parts.js';
import type { GoExample, GoFunc, GoPackage, GoType, GoValue } from './doc-helper.js';
import { goApiKey } from './example-mentions.js';

/** Passages of the module's README or docs lent to an API section, by `goApiKey` (`example-mentions.ts`). */
type Mentions = ReadonlyMap<string, readonly string[]>;

/**
 * A module's Go API as markdown pages, laid out as the npm API pages are (`api/markdown.ts`), so that they section
 * and rank alike: a page per package import path (`api/index.md` for the module's root package,
 * `api/binding/index.md` for `…/gin/binding`) holding the package's doc and its loose constants, variables,
 * functions and types, and a page of its own for each type with methods or constructors (`api/Command.md`). Each
 * page is titled by its import path (`# github.com/spf13/cobra API`); each exported identifier is a `##` section
 * (`## Command`) and each method or constructor a `###` (`### Command.AddCommand`), opening with the import line,
 * then the declaration as gofmt prints it in a `go` fence, links to the pages of the types a signature names
 * (``See [`Context`](Context.md).``, as pkg.go.dev links them), the doc comment (a `Deprecated:` paragraph first) and
 * the examples of the test files, under what they show, and what the module's README and docs say around the
 * examples that call it (`In the docs: …`, from `mentions`).
 *
 * @example
 * goApiPages('github.com/spf13/cobra', packages).map((p) => p.file); // → ['api/index.md', 'api/Command.md', …]
 */
export function goApiPages(
  modulePath: string,
  packages: readonly GoPackage[],
  mentions: Mentions = new Map(),
): ApiPage[] {
  const pages: ApiPage[] = [];
  const taken = new Set<string>();
  for (const pkg of packages) {
    const folder =
      pkg.importPath === modulePath ? 'api' : `api/${pkg.importPath.slice(modulePath.length + 1) || pkg.name}`;
    const importLine = `import "${pkg.importPath}"`;
    const lent = (name: string) => mentions.get(goApiKey(pkg.importPath, name)) ?? [];
    const title = `# ${pkg.importPath} API`;
    const indexFile = uniquePageFile(taken, folder, 'index');
    const own = (pkg.types ?? []).filter((type) => (type.methods?.length ?? 0) + (type.funcs?.length ?? 0) > 0);
    // The types with a page of their own, by name: a signature naming one links to it, as pkg.go.dev links them
    // (a package's pages share its folder, so the link is the page's file name).
    const typePages = new Map(own.map((type) => [type.name, uniquePageFile(taken, folder, type.name)] as const));
    const linkOf = (name: string) => typePages.get(name)?.slice(folder.length + 1);
    const write = { importLine, lent, linkOf };
    const index: string[] = [packageSection(pkg, importLine)];
    for (const group of pkg.consts ?? []) index.push(valueSection(group, 'const', importLine, '##'));
    for (const group of pkg.vars ?? []) index.push(valueSection(group, 'var', importLine, '##'));
    for (const fn of pkg.funcs ?? []) index.push(funcSection(fn, write, '##'));
    for (const type of pkg.types ?? [])
      if (!typePages.has(type.name)) index.push(typeSections(type, write).join('\n\n'));
    pages.push({ file: indexFile, importPath: pkg.importPath, markdown: page(title, index) });
    for (const type of own) {
      pages.push({
        file: typePages.get(type.name) ?? indexFile,
        importPath: pkg.importPath,
        markdown: page(title, typeSections(type, write)),
      });
    }
  }
  return pages;
}

function page(title: string, sections: readonly string[]): string {
  return `${[title, ...sections].join('\n\n')}\n`;
}

function packageSection(pkg: GoPackage, importLine: string): string {
  const parts = [`## package ${pkg.name}`, `\`${importLine}\` · package`];
  if (pkg.doc) parts.push(pkg.doc);
  parts.push(...examples(pkg.examples));
  return parts.join('\n\n');
}

/** What a section is written with: its package's import line, the docs' passages lent to a name, a type's page. */
interface Writing {
  readonly importLine: string;
  readonly lent: (name: string) => readonly string[];
  readonly linkOf: (type: string) => string | undefined;
}

/** A type's section, then its constants, variables, constructors and methods, each a `###` under it. */
function typeSections(type: GoType, writing: Writing): string[] {
  const { importLine, lent } = writing;
  const head = [`## ${type.name}`, `\`${importLine}\` · type${wordsOf(type.name)}`, fence(type.decl)];
  if (type.doc) head.push(type.doc);
  if (type.fields?.length) {
    // One item a field, its doc's later lines indented under it (its code blocks and paragraphs stay in the item).
    const item = (f: { decl: string; doc: string }) =>
      `- \`${f.decl}\`: ${f.doc
        .split('\n')
        .map((line, i) => (i === 0 || line === '' ? line : `  ${line}`))
        .join('\n')}`;
    head.push(`Fields:\n\n${type.fields.map(item).join('\n')}`);
  }
  head.push(...inTheDocs(lent(type.name)), ...examples(type.examples));
  return [
    head.join('\n\n'),
    ...(type.consts ?? []).map((group) => valueSection(group, 'const', importLine, '###', type.name)),
    ...(type.vars ?? []).map((group) => valueSection(group, 'var', importLine, '###', type.name)),
    ...(type.funcs ?? []).map((fn) => funcSection(fn, writing, '###', type.name)),
    ...(type.methods ?? []).map((fn) => funcSection(fn, writing, '###', undefined, type.methods)),
  ];
}

function funcSection(
  fn: GoFunc,
  { importLine, lent, linkOf }: Writing,
  level: '##' | '###',
  constructs?: string,
  siblings?: readonly GoFunc[],
): string {
  const name = fn.recv ? `${fn.recv}.${fn.name}` : fn.name;
  const reach = fn.recv
    ? `Method of \`${fn.recv}\`${wordsOf(fn.name)} · \`${importLine}\``
    : constructs
      ? `Function returning \`${constructs}\`${wordsOf(fn.name)} · \`${importLine}\``
      : `\`${importLine}\` · func${wordsOf(fn.name)}`;
  const parts = [`${level} ${name}`, reach, fence(fn.decl)];
  // The types its signature names that have a page of their own (not the one this section is on), as links: a
  // label such as "returns" would be one more word of every such section, and questions ask "returns".
  const links = (fn.uses ?? []).flatMap((type) => {
    const file = type === constructs ? undefined : linkOf(type);
    return file ? [`[\`${type}\`](${file})`] : [];
  });
  if (links.length > 0) parts.push(`See ${links.join(', ')}.`);
  if (fn.doc) parts.push(fn.doc);
  const delegate = shortcutFor(fn, siblings ?? []);
  if (delegate) parts.push(`Like \`${delegate.name}\`: ${firstSentence(delegate.doc ?? '')}`);
  parts.push(...inTheDocs(lent(name)), ...examples(fn.examples));
  return parts.join('\n\n');
}

/** A group of constants or variables: headed by its names (the first four, then how many more). */
function valueSection(
  group: GoValue,
  kind: 'const' | 'var',
  importLine: string,
  level: '##' | '###',
  type?: string,
): string {
  const shown = group.names.slice(0, 4).join(', ');
  const more = group.names.length > 4 ? ` and ${group.names.length - 4} more` : '';
  const reach = type ? `${kind} of type \`${type}\` · \`${importLine}\`` : `\`${importLine}\` · ${kind}`;
  const parts = [`${level} ${shown}${more}`, reach, fence(group.decl)];
  if (group.doc) parts.push(group.doc);
  return parts.join('\n\n');
}

/**
 * The method a terse doc says this one is a shortcut of: a doc of one short sentence that calls a sibling method
 * (`ShouldBindJSON is a shortcut for c.ShouldBindWith(obj, binding.JSON).`). Such a doc says how, not what: the
 * sibling's doc says what both do ("binds the passed struct pointer using the specified binding engine").
 */
function shortcutFor(fn: GoFunc, siblings: readonly GoFunc[]): GoFunc | undefined {
  const doc = fn.doc?.trim() ?? '';
  if (doc === '' || doc.length > MAX_TERSE_DOC || doc.includes('\n\n')) return undefined;
  for (const match of doc.matchAll(/\.(\w+)\(/g)) {
    const sibling = siblings.find((s) => s.name === match[1] && s.name !== fn.name && s.doc);
    if (sibling) return sibling;
  }
  return undefined;
}

// A doc longer than this says something of its own.
const MAX_TERSE_DOC = 160;

function firstSentence(doc: string): string {
  const text = doc.replace(/\s+/g, ' ').trim();
  const end = text.search(/\.(?:\s|$)/);
  return end > 0 && end < 300 ? text.slice(0, end + 1) : text.slice(0, 300);
}

/** What the docs say around examples that call it, as the npm pages write it (`api/markdown.ts`). */
function inTheDocs(passages: readonly string[]): string[] {
  return passages.map((p) => `In the docs: ${p}`);
}

function examples(list: readonly GoExample[] | undefined): string[] {
  return (list ?? []).map((example) => {
    const parts = [`Example${example.name ? ` (${example.name})` : ''}:`];
    if (example.doc) parts.push(example.doc);
    parts.push(fence(example.code));
    if (example.output) parts.push(`Output:\n\n${fence(example.output, 'text')}`);
    return parts.join('\n\n');
  });
}

/**
 * The words a Go name is made of, as a reader says them (`ShouldBindJSON` → ` (should bind JSON)`), or nothing for a
 * one-word name. The index holds an identifier as one token (`shouldbindjson`); a question asks in words ("bind a
 * JSON body"), and the name is the shortest summary of what a function does.
 */
function wordsOf(name: string): string {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  if (words.length < 2) return '';
  return ` (${words.map((w) => (/^[A-Z][a-z]/.test(w) ? w.toLowerCase() : w)).join(' ')})`;
}

/** Code in a fence longer than any run of backticks inside it. */
function fence(code: string, language = 'go'): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${code}\n${ticks}`;
}
