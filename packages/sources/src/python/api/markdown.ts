import { OTHER_ENTRY_POINTS } from '../../api/entry-roles.js';
import { docstringMarkdown } from './docstring.js';
import type { PythonDef } from './parse-modules.js';
import type { PythonObject } from './resolve.js';

/** One API page of a Python distribution. */
export interface PythonApiPage {
  /** Where it is written in the staged folder: `api/pydantic/index.md`, `api/pydantic/BaseModel.md`. */
  readonly file: string;
  readonly module: string;
  readonly markdown: string;
}

/**
 * Python API pages laid out as the npm ones (api/markdown.ts): a class with members gets a page of its own, a
 * module's other objects share its index page. Each page is titled by its import path (`# pydantic API`), holds a
 * `##` section per object and a `###` per member (`### Response.raise_for_status`), each opening with its import
 * line (`from pydantic import field_validator`), then a deprecation, the docstring as markdown, and the signatures in
 * a `python` fence (`@overload`s together). A module `isShown` rejects is written under `api/other-entry-points/`
 * (`api/other-entry-points/pydantic/mypy/index.md`), as an npm package's other entry points are.
 *
 * @example
 * pythonApiPages(objects, docs).map((p) => p.file); // → ['api/pydantic/index.md', 'api/pydantic/BaseModel.md', …]
 */
export function pythonApiPages(
  objects: readonly PythonObject[],
  moduleDocs: ReadonlyMap<string, string>,
  isShown: (module: string) => boolean = () => true,
): PythonApiPage[] {
  const byModule = new Map<string, PythonObject[]>();
  for (const object of objects) byModule.set(object.module, [...(byModule.get(object.module) ?? []), object]);
  const pages: PythonApiPage[] = [];
  const taken = new Set<string>();
  for (const module of [...byModule.keys()].sort()) {
    // In the order the module exports them (its `__all__`), as its own docs list them.
    const list = byModule.get(module) ?? [];
    const folder = `api/${isShown(module) ? '' : `${OTHER_ENTRY_POINTS}/`}${module.split('.').join('/')}`;
    const title = `# ${module} API`;
    const loose: string[] = [];
    const intro = moduleDocs.get(module);
    if (intro) loose.push(docstringMarkdown(intro));
    for (const object of list) {
      const members = publicMembers(object.def);
      if (object.def.kind === 'class' && members.length > 0) {
        const file = unique(taken, `${folder}/${safe(object.name)}.md`);
        const sections = [objectSection(object), ...members.map((group) => memberSection(object, group))];
        pages.push({ file, module, markdown: `${[title, ...sections].join('\n\n')}\n` });
      } else loose.push(objectSection(object));
    }
    if (loose.length > 0) {
      pages.push({
        file: unique(taken, `${folder}/index.md`),
        module,
        markdown: `${[title, ...loose].join('\n\n')}\n`,
      });
    }
  }
  return pages;
}

function importLine(object: PythonObject): string {
  return `from ${object.module} import ${object.name}`;
}

function objectSection(object: PythonObject): string {
  const { def } = object;
  const aliases = object.aliases.length
    ? ` · also importable as ${object.aliases
        .slice(0, 3)
        .map((alias) => `\`${alias}\``)
        .join(', ')}`
    : '';
  const parts = [`## ${object.name}`, `\`${importLine(object)}\` · ${def.kind}${aliases}`];
  pushBody(parts, [def]);
  for (const passage of object.mentions ?? []) parts.push(`In the docs: ${passage}`);
  const fields = (def.members ?? []).filter(isField);
  if (fields.length > 0) parts.push(`**Fields:**\n\n${fields.map(fieldItem).join('\n')}`);
  const signatures =
    def.kind === 'class'
      ? [
          [...(def.decorators ?? []).map((d) => `@${d}`), `${def.signature}:`].join('\n'),
          ...constructors(def).map((m) => `    ${m.signature.replace(/\n/g, '\n    ')}`),
        ].join('\n')
      : [...object.overloads.map((s) => `@overload\n${s}`), ...(def.overload ? [] : [def.signature])].join('\n\n');
  if (signatures !== '') parts.push(['```python', renamed(signatures, def.name, object.name), '```'].join('\n'));
  return parts.join('\n\n');
}

function memberSection(owner: PythonObject, group: readonly PythonDef[]): string {
  const first = group[0] as PythonDef;
  const implementation = group.find((d) => !d.overload) ?? first;
  const parts = [
    `### ${owner.name}.${first.name}`,
    `${label(implementation.kind)} of \`${owner.name}\` · \`${importLine(owner)}\``,
  ];
  pushBody(parts, group);
  for (const passage of owner.memberMentions?.get(first.name) ?? []) parts.push(`In the docs: ${passage}`);
  const signatures = [
    ...group.filter((d) => d.overload).map((d) => `@overload\n${d.signature}`),
    ...(implementation.overload ? [] : [implementation.signature]),
  ];
  parts.push(['```python', signatures.join('\n\n'), '```'].join('\n'));
  return parts.join('\n\n');
}

/**
 * How a class is called: its `__init__` (each overload), else its `__new__`, as `inspect.signature` reads a class that
 * defines no `__init__` (jinja2's `Template(source, …)`).
 */
function constructors(def: PythonDef): readonly PythonDef[] {
  const members = def.members ?? [];
  const inits = members.filter((m) => m.name === '__init__');
  return inits.length > 0 ? inits : members.filter((m) => m.name === '__new__');
}

/** The deprecation first, then the docstring (of the implementation, else of the first overload that has one). */
function pushBody(parts: string[], group: readonly PythonDef[]): void {
  const deprecated = group.find((d) => d.deprecated !== null)?.deprecated;
  if (deprecated !== undefined && deprecated !== null) parts.push(`Deprecated${deprecated ? `: ${deprecated}` : '.'}`);
  const doc = (group.find((d) => !d.overload && d.doc !== '') ?? group.find((d) => d.doc !== ''))?.doc ?? '';
  if (doc !== '') parts.push(docstringMarkdown(doc));
}

/**
 * Fields and class attributes (a dataclass's, an attrs class's, a model's) are listed in their class's section, as
 * API references table them: a section of their own per field was a few words each (`func: The validator
 * function.`), and such slivers outranked the functions a question was about.
 */
function isField(member: PythonDef): boolean {
  return (member.kind === 'field' || member.kind === 'attribute') && !member.name.startsWith('_');
}

function fieldItem(field: PythonDef): string {
  const summary =
    field.doc
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  return `- \`${field.signature.replace(/`/g, "'")}\`${summary ? `: ${summary}` : ''}`;
}

/** A class's public methods and properties, each name's definitions together (a property's setter left out). */
function publicMembers(def: PythonDef): PythonDef[][] {
  const groups = new Map<string, PythonDef[]>();
  for (const member of def.members ?? []) {
    if (member.name.startsWith('_') || member.setter || isField(member)) continue;
    groups.set(member.name, [...(groups.get(member.name) ?? []), member]);
  }
  return [...groups.values()];
}

/** A signature under the name it is imported by (`from .x import a as b` documents `b`). */
function renamed(signature: string, defined: string, exported: string): string {
  if (defined === exported) return signature;
  return signature.replace(new RegExp(`\\b(def|class) ${defined}\\b`, 'g'), `$1 ${exported}`);
}

function label(kind: string): string {
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)}`;
}

function safe(name: string): string {
  return name.replace(/[^\w.-]+/g, '_') || 'index';
}

/** A file name not yet used in the package, compared without case (a case-insensitive disk holds one of two). */
function unique(taken: Set<string>, file: string): string {
  let candidate = file;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = file.replace(/\.md$/, `-${n}.md`);
  taken.add(candidate.toLowerCase());
  return candidate;
}
