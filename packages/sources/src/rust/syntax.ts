import type { Node } from 'web-tree-sitter';

/** What rustdoc calls each kind of item. */
export type ItemKind =
  | 'function'
  | 'struct'
  | 'enum'
  | 'union'
  | 'trait'
  | 'type alias'
  | 'constant'
  | 'static'
  | 'macro'
  | 'derive macro'
  | 'attribute macro'
  | 'method'
  | 'associated type'
  | 'associated constant';

/** A field or variant: its name, as written (attributes and comments left out), and its doc comment. */
export interface Member {
  readonly name: string;
  readonly text: string;
  readonly doc: string;
}

/** What an item's outer attributes and doc comments say. */
export interface Attributes {
  readonly doc: string;
  /** The `cfg` conditions that gate it on a feature or that `doc(cfg(…))` shows, as written: `feature = "rt"`. */
  readonly cfg: readonly string[];
  /** `#[deprecated]`: its note, or '' without one. */
  readonly deprecated?: string;
  /** `#[doc(hidden)]`, `#[cfg(test)]`: not part of the documented API. */
  readonly hidden: boolean;
  /** `#[cfg(test)]`: compiled only for the crate's own tests, so not read at all. */
  readonly test?: boolean;
  readonly macroExport: boolean;
  /** `#[path = "…"]` on a `mod`. */
  readonly path?: string;
  /** `#[proc_macro_derive(Name)]`, `#[proc_macro_attribute]`, `#[proc_macro]` on a function. */
  readonly procMacro?: { readonly kind: 'derive macro' | 'attribute macro' | 'macro'; readonly name?: string };
}

export interface ItemSyntax extends Attributes {
  readonly kind: ItemKind;
  readonly name: string;
  readonly public: boolean;
  /** The declaration as rustdoc shows it: the item without its body (a struct with its public fields). */
  readonly signature: string;
  readonly fields?: readonly Member[];
  readonly variants?: readonly Member[];
  /** A trait's associated functions, types and constants. */
  readonly members?: readonly ItemSyntax[];
  /** A method's `impl` header where it says more than `impl Type` (generics, bounds): `impl<W: Write> Serializer<W>`. */
  readonly within?: string;
}

/** An `impl` block: the type it is for (the last segment of its path), the trait if any, its items. */
export interface ImplSyntax {
  readonly selfType: string;
  /** `impl<T> Future for JoinHandle<T>`: the header as written. */
  readonly header: string;
  readonly trait?: string;
  readonly items: readonly ItemSyntax[];
  readonly cfg: readonly string[];
  readonly hidden: boolean;
}

/** One name a `use` brings in (a `use a::{b, c as d, e::*}` tree is flattened). */
export interface UseSyntax {
  readonly public: boolean;
  readonly path: readonly string[];
  /** The name it is known by here: the last segment, or the `as` rename. Absent for a glob. */
  readonly alias?: string;
  readonly glob: boolean;
  readonly cfg: readonly string[];
  readonly hidden: boolean;
  readonly doc: string;
  readonly deprecated?: string;
}

export interface ModSyntax extends Attributes {
  readonly name: string;
  readonly public: boolean;
  /** An inline `mod name { … }`'s contents; absent for `mod name;`, whose file the reader finds. */
  readonly inline?: ModuleSyntax;
}

/** A `macro_rules!` that wraps items (`cfg_rt! { … }`): the attributes it puts on each. */
export interface ItemWrapper {
  readonly name: string;
  readonly rule: string;
}

export interface ModuleSyntax {
  /** `//!` and `#![doc = …]`. */
  readonly doc: string;
  readonly cfg: readonly string[];
  readonly items: readonly ItemSyntax[];
  readonly impls: readonly ImplSyntax[];
  readonly uses: readonly UseSyntax[];
  readonly mods: readonly ModSyntax[];
  /** Item-level macro calls with a body that may hold items (`cfg_rt! { pub mod task; }`), read by the reader. */
  readonly calls: readonly { readonly macro: string; readonly body: string; readonly attributes: Attributes }[];
  /** `macro_rules!` definitions whose rule takes items, the text of the rule: what a call of them wraps items in. */
  readonly wrappers: readonly ItemWrapper[];
}

/** Reads `#[doc = include_str!("…")]`'s file (relative to the source file), within the crate; undefined if it cannot. */
export type IncludeReader = (relative: string) => string | undefined;

const SIGNATURE_LIMIT = 2000;

/**
 * A Rust file's (or inline module's, or macro body's) items as data: what rustdoc would document of it, read from
 * tree-sitter's syntax tree. Nothing is expanded or evaluated; `include_str!` in a doc attribute reads a file the
 * caller allows.
 */
export function moduleSyntax(list: Node, include: IncludeReader): ModuleSyntax {
  const items: ItemSyntax[] = [];
  const impls: ImplSyntax[] = [];
  const uses: UseSyntax[] = [];
  const mods: ModSyntax[] = [];
  const calls: { macro: string; body: string; attributes: Attributes }[] = [];
  const wrappers: ItemWrapper[] = [];
  const innerDocs: DocFragment[] = [];
  const innerCfg: string[] = [];
  let pending: Node[] = [];
  for (const node of list.namedChildren) {
    if (node === null) continue;
    if (node.type === 'line_comment' || node.type === 'block_comment') {
      if (node.childForFieldName('inner') !== null) innerDocs.push(sugared(node));
      else if (node.childForFieldName('outer') !== null) pending.push(node);
      continue;
    }
    if (node.type === 'inner_attribute_item') {
      const attribute = node.namedChildren.find((c) => c?.type === 'attribute');
      if (attribute) {
        const doc = docAttribute(attribute, include);
        if (doc !== undefined) innerDocs.push({ text: doc, sugared: false });
        innerCfg.push(...cfgOf(attribute));
      }
      continue;
    }
    if (node.type === 'attribute_item') {
      pending.push(node);
      continue;
    }
    const attributes = readAttributes(pending, include);
    pending = [];
    readItem(node, attributes, { items, impls, uses, mods, calls, wrappers }, include);
  }
  return {
    doc: joinDocs(innerDocs),
    cfg: innerCfg,
    items,
    impls,
    uses,
    mods,
    calls,
    wrappers,
  };
}

interface Collected {
  items: ItemSyntax[];
  impls: ImplSyntax[];
  uses: UseSyntax[];
  mods: ModSyntax[];
  calls: { macro: string; body: string; attributes: Attributes }[];
  wrappers: ItemWrapper[];
}

function readItem(node: Node, attributes: Attributes, into: Collected, include: IncludeReader): void {
  const isPublic = visibility(node);
  switch (node.type) {
    case 'function_item':
    case 'function_signature_item': {
      const name = fieldText(node, 'name');
      if (attributes.procMacro) {
        const macroName = attributes.procMacro.name ?? name;
        const signature =
          attributes.procMacro.kind === 'derive macro'
            ? `#[derive(${macroName})]`
            : attributes.procMacro.kind === 'attribute macro'
              ? `#[${macroName}]`
              : `${macroName}!(…)`;
        into.items.push({
          ...attributes,
          kind: attributes.procMacro.kind,
          name: macroName,
          public: isPublic,
          signature,
        });
        return;
      }
      into.items.push({ ...attributes, kind: 'function', name, public: isPublic, signature: withoutBody(node) });
      return;
    }
    case 'struct_item':
    case 'union_item': {
      const fields = fieldsOf(node.childForFieldName('body'));
      into.items.push({
        ...attributes,
        kind: node.type === 'struct_item' ? 'struct' : 'union',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: structSignature(node, fields),
        ...(fields.public.length > 0 ? { fields: fields.public } : {}),
      });
      return;
    }
    case 'enum_item': {
      const variants = variantsOf(node.childForFieldName('body'));
      into.items.push({
        ...attributes,
        kind: 'enum',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: cut(`${withoutBody(node)} {\n${variants.map((v) => `    ${v.text},`).join('\n')}\n}`),
        variants,
      });
      return;
    }
    case 'trait_item': {
      // `#[doc(hidden)]` trait items (a sealed trait's plumbing) are not shown, in the signature or as sections.
      const members = associatedItems(node.childForFieldName('body'), include, true).filter((m) => !m.hidden);
      const required = members.map((m) => `    ${m.signature.replace(/\n/g, '\n    ')};`);
      into.items.push({
        ...attributes,
        kind: 'trait',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: cut(`${withoutBody(node)} {\n${required.join('\n')}\n}`),
        members,
      });
      return;
    }
    case 'type_item':
    case 'const_item':
    case 'static_item': {
      const kind = node.type === 'type_item' ? 'type alias' : node.type === 'const_item' ? 'constant' : 'static';
      into.items.push({
        ...attributes,
        kind,
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: cut(node.text),
      });
      return;
    }
    case 'macro_definition': {
      const name = fieldText(node, 'name');
      const rules = node.namedChildren.filter((c): c is Node => c?.type === 'macro_rule');
      const arms = rules.map((rule) => `    ${rule.childForFieldName('left')?.text ?? '()'} => { … };`);
      into.items.push({
        ...attributes,
        kind: 'macro',
        name,
        public: attributes.macroExport,
        signature: cut(`macro_rules! ${name} {\n${arms.join('\n')}\n}`),
      });
      for (const rule of rules) {
        if (/\$\w+\s*:\s*item\b/.test(rule.childForFieldName('left')?.text ?? '')) {
          into.wrappers.push({ name, rule: rule.text });
          break;
        }
      }
      return;
    }
    case 'mod_item': {
      const body = node.childForFieldName('body');
      into.mods.push({
        ...attributes,
        name: fieldText(node, 'name'),
        public: isPublic,
        ...(body ? { inline: moduleSyntax(body, include) } : {}),
      });
      return;
    }
    case 'use_declaration': {
      const argument = node.childForFieldName('argument');
      if (argument)
        for (const flat of flattenUse(argument, []))
          into.uses.push({ ...flat, ...useAttributes(attributes, isPublic) });
      return;
    }
    case 'impl_item': {
      const type = node.childForFieldName('type');
      const trait = node.childForFieldName('trait');
      const selfType = type ? typeName(type) : undefined;
      if (selfType === undefined) return;
      into.impls.push({
        selfType,
        header: withoutBody(node).replace(/\s+/g, ' ').replace(/,\s*$/, ''),
        ...(trait ? { trait: trait.text } : {}),
        items: associatedItems(node.childForFieldName('body'), include, trait !== null),
        cfg: attributes.cfg,
        hidden: attributes.hidden,
      });
      return;
    }
    case 'foreign_mod_item': {
      // `extern "C" { pub fn abs(x: i32) -> i32; }`: a -sys crate's functions and statics, with the block's attributes.
      const body = node.childForFieldName('body');
      if (body === null) return;
      for (const item of moduleSyntax(body, include).items) {
        into.items.push({
          ...item,
          cfg: [...new Set([...attributes.cfg, ...item.cfg])],
          hidden: item.hidden || attributes.hidden,
        });
      }
      return;
    }
    case 'expression_statement': {
      // `name![ … ];` at item level parses as a statement around the call.
      const call = node.namedChildren[0];
      if (call?.type === 'macro_invocation') readItem(call, attributes, into, include);
      return;
    }
    case 'macro_invocation': {
      const macro = node.childForFieldName('macro');
      const tree = node.namedChildren.find((c) => c?.type === 'token_tree');
      if (macro && tree && tree.text.length > 2) {
        into.calls.push({ macro: macro.text, body: tree.text.slice(1, -1), attributes });
      }
      return;
    }
    default:
      return;
  }
}

function useAttributes(attributes: Attributes, isPublic: boolean) {
  return {
    public: isPublic,
    cfg: attributes.cfg,
    hidden: attributes.hidden,
    doc: attributes.doc,
    ...(attributes.deprecated === undefined ? {} : { deprecated: attributes.deprecated }),
  };
}

/** A `use` tree as one entry per name: `a::{b as c, d::*}` → `a::b` as `c`, `a::d::*`. */
function flattenUse(node: Node, prefix: readonly string[]): { path: string[]; alias?: string; glob: boolean }[] {
  switch (node.type) {
    case 'use_as_clause': {
      const path = [...prefix, ...segments(node.childForFieldName('path'))];
      const alias = node.childForFieldName('alias')?.text;
      return alias === undefined || alias === '_' ? [] : [{ path, alias, glob: false }];
    }
    case 'use_wildcard': {
      const inner = node.namedChildren.find((c) => c !== null);
      return [{ path: [...prefix, ...(inner ? segments(inner) : [])], glob: true }];
    }
    case 'scoped_use_list': {
      const path = [...prefix, ...segments(node.childForFieldName('path'))];
      const list = node.childForFieldName('list');
      return list ? flattenUse(list, path) : [];
    }
    case 'use_list':
      return node.namedChildren.flatMap((c) => (c === null ? [] : flattenUse(c, prefix)));
    default: {
      const path = [...prefix, ...segments(node)];
      // `use foo::{self}` names the module itself.
      if (path.at(-1) === 'self' && path.length > 1) path.pop();
      const last = path.at(-1);
      return last === undefined ? [] : [{ path, alias: last, glob: false }];
    }
  }
}

/** `crate::a::b` → ['crate', 'a', 'b']; a leading `::` (an extern crate) is dropped. */
function segments(node: Node | null): string[] {
  if (node === null) return [];
  return node.text
    .replace(/\s+/g, '')
    .split('::')
    .filter((s) => s !== '');
}

/** A type's name for matching impls: `Foo<T>` → Foo, `crate::a::Foo` → Foo, `&'a Foo` → Foo. */
function typeName(node: Node): string | undefined {
  switch (node.type) {
    case 'type_identifier':
      return node.text;
    case 'generic_type':
    case 'scoped_type_identifier': {
      const inner = node.childForFieldName(node.type === 'generic_type' ? 'type' : 'name');
      return inner ? typeName(inner) : undefined;
    }
    case 'reference_type': {
      const inner = node.childForFieldName('type');
      return inner ? typeName(inner) : undefined;
    }
    default:
      return undefined;
  }
}

/** A trait's or an impl's functions, types and constants; an impl of a trait lists all, an inherent one its public. */
function associatedItems(body: Node | null, include: IncludeReader, all: boolean): ItemSyntax[] {
  if (body === null) return [];
  const members: ItemSyntax[] = [];
  let pending: Node[] = [];
  for (const node of body.namedChildren) {
    if (node === null) continue;
    if (
      node.type === 'attribute_item' ||
      ((node.type === 'line_comment' || node.type === 'block_comment') && node.childForFieldName('outer') !== null)
    ) {
      pending.push(node);
      continue;
    }
    const attributes = readAttributes(pending, include);
    pending = [];
    const isPublic = all || visibility(node);
    if (node.type === 'function_item' || node.type === 'function_signature_item') {
      members.push({
        ...attributes,
        kind: 'method',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: withoutBody(node),
      });
    } else if (node.type === 'associated_type' || node.type === 'type_item') {
      members.push({
        ...attributes,
        kind: 'associated type',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: cut(node.text.replace(/;$/, '')),
      });
    } else if (node.type === 'const_item') {
      members.push({
        ...attributes,
        kind: 'associated constant',
        name: fieldText(node, 'name'),
        public: isPublic,
        signature: cut(node.text.replace(/;$/, '')),
      });
    }
  }
  return members;
}

/** The public named fields of a struct, and whether it has private ones (rustdoc shows them as a private-fields comment). */
function fieldsOf(body: Node | null): { public: Member[]; hidden: boolean; tuple: boolean } {
  if (body === null) return { public: [], hidden: false, tuple: false };
  const tuple = body.type === 'ordered_field_declaration_list';
  const members: Member[] = [];
  let hidden = false;
  let docs: DocFragment[] = [];
  for (const node of body.namedChildren) {
    if (node === null) continue;
    if ((node.type === 'line_comment' || node.type === 'block_comment') && node.childForFieldName('outer') !== null) {
      docs.push(sugared(node));
      continue;
    }
    if (node.type !== 'field_declaration') continue;
    const doc = joinDocs(docs);
    docs = [];
    if (!visibility(node)) {
      hidden = true;
      continue;
    }
    members.push({ name: fieldText(node, 'name'), text: node.text.replace(/\s+/g, ' '), doc });
  }
  return { public: members, hidden, tuple };
}

function variantsOf(body: Node | null): Member[] {
  if (body === null) return [];
  const variants: Member[] = [];
  let docs: DocFragment[] = [];
  let hidden = false;
  for (const node of body.namedChildren) {
    if (node === null) continue;
    if ((node.type === 'line_comment' || node.type === 'block_comment') && node.childForFieldName('outer') !== null) {
      docs.push(sugared(node));
      continue;
    }
    if (node.type === 'attribute_item') {
      if (/^#\[\s*doc\s*\(\s*hidden\s*\)\s*\]$/.test(node.text.replace(/\s+/g, ' '))) hidden = true;
      continue;
    }
    if (node.type !== 'enum_variant') continue;
    if (!hidden) {
      const text = node.text.replace(/\s+/g, ' ');
      variants.push({ name: fieldText(node, 'name'), text, doc: joinDocs(docs) });
    }
    docs = [];
    hidden = false;
  }
  return variants;
}

function structSignature(node: Node, fields: { public: Member[]; hidden: boolean; tuple: boolean }): string {
  const body = node.childForFieldName('body');
  if (body === null || fields.tuple) return cut(node.text);
  const head = node.text.slice(0, body.startIndex - node.startIndex).trimEnd();
  const tail = node.text.slice(body.endIndex - node.startIndex).trim();
  const lines = [...fields.public.map((f) => `    ${f.text},`), ...(fields.hidden ? ['    /* private fields */'] : [])];
  return cut(`${head} {\n${lines.join('\n')}\n}${tail === '' ? '' : ` ${tail}`}`);
}

/** An item's text up to its body (a function's block, a type's braces), as rustdoc's signature line. */
function withoutBody(node: Node): string {
  const body = node.childForFieldName('body');
  const text = body ? node.text.slice(0, body.startIndex - node.startIndex) : node.text;
  return cut(text.trim().replace(/;$/, ''));
}

function cut(text: string): string {
  return text.length > SIGNATURE_LIMIT ? `${text.slice(0, SIGNATURE_LIMIT)} …` : text;
}

function fieldText(node: Node, field: string): string {
  return node.childForFieldName(field)?.text ?? '';
}

/** `pub` only: `pub(crate)`, `pub(super)` and `pub(in …)` are not public API. */
function visibility(node: Node): boolean {
  const modifier = node.namedChildren.find((c) => c?.type === 'visibility_modifier');
  return modifier?.text === 'pub';
}

/** What attributes and doc comments say, in their order (doc comments and `#[doc = …]` join as rustdoc joins them). */
export function readAttributes(nodes: readonly Node[], include: IncludeReader): Attributes {
  const docs: DocFragment[] = [];
  const cfg: string[] = [];
  let deprecated: string | undefined;
  let hidden = false;
  let test = false;
  let macroExport = false;
  let modulePath: string | undefined;
  let procMacro: Attributes['procMacro'];
  for (const node of nodes) {
    if (node.type !== 'attribute_item') {
      docs.push(sugared(node));
      continue;
    }
    const attribute = node.namedChildren.find((c) => c?.type === 'attribute');
    if (!attribute) continue;
    const name = attribute.namedChildren[0]?.text ?? '';
    const args = attribute.childForFieldName('arguments')?.text ?? '';
    const text = attribute.text.replace(/\s+/g, ' ');
    const doc = docAttribute(attribute, include);
    if (doc !== undefined) docs.push({ text: doc, sugared: false });
    if (name === 'doc' && /^\(\s*hidden\s*\)$/.test(args)) hidden = true;
    if (name === 'cfg' && /^\(\s*test\s*\)$/.test(args)) {
      hidden = true;
      test = true;
    }
    cfg.push(...cfgOf(attribute));
    if (name === 'deprecated') deprecated = deprecationNote(text);
    if (name === 'macro_export') macroExport = true;
    if (name === 'path') modulePath = stringValue(attribute.childForFieldName('value'));
    if (name === 'proc_macro_derive') {
      const derived = /^proc_macro_derive\s*\(\s*([A-Za-z_]\w*)/.exec(text)?.[1];
      procMacro = { kind: 'derive macro', ...(derived ? { name: derived } : {}) };
    }
    if (name === 'proc_macro_attribute') procMacro = { kind: 'attribute macro' };
    if (name === 'proc_macro') procMacro = { kind: 'macro' };
  }
  return {
    doc: joinDocs(docs),
    cfg: [...new Set(cfg)],
    ...(deprecated === undefined ? {} : { deprecated }),
    hidden,
    ...(test ? { test } : {}),
    macroExport,
    ...(modulePath === undefined ? {} : { path: modulePath }),
    ...(procMacro === undefined ? {} : { procMacro }),
  };
}

/**
 * The feature conditions an attribute puts on an item, as rustdoc's `doc(cfg)` shows them: `#[cfg(feature = "rt")]`
 * and `#[cfg_attr(docsrs, doc(cfg(feature = "rt")))]` give `feature = "rt"`; conditions that name no feature (`unix`,
 * `not(loom)`) are kept only where `doc(cfg(…))` shows them.
 */
function cfgOf(attribute: Node): string[] {
  const name = attribute.namedChildren[0]?.text ?? '';
  const args = attribute.childForFieldName('arguments')?.text.replace(/\s+/g, ' ') ?? '';
  if (name === 'cfg') {
    const inner = args.slice(1, -1).trim();
    return /\bfeature\s*=/.test(inner) ? [inner] : [];
  }
  if (name === 'cfg_attr') {
    const shown = /\bdoc\s*\(\s*cfg\s*\(([\s\S]*)\)\s*\)\s*\)$/.exec(args)?.[1];
    return shown ? [shown.trim()] : [];
  }
  return [];
}

function deprecationNote(text: string): string {
  const note =
    /\bnote\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? /^deprecated\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  const since = /\bsince\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  const parts = [since ? `since ${unescaped(since)}` : '', note ? unescaped(note) : ''].filter((p) => p !== '');
  return parts.join(': ');
}

/** `#[doc = "…"]` or `#[doc = include_str!("…")]`: the text; undefined for any other attribute. */
function docAttribute(attribute: Node, include: IncludeReader): string | undefined {
  if (attribute.namedChildren[0]?.text !== 'doc') return undefined;
  const value = attribute.childForFieldName('value');
  if (value === null) return undefined;
  if (value.type === 'macro_invocation' && value.childForFieldName('macro')?.text === 'include_str') {
    const file = stringValue(value.namedChildren.find((c) => c?.type === 'token_tree')?.namedChildren[0] ?? null);
    return file === undefined ? undefined : include(file);
  }
  return stringValue(value);
}

/** A string literal's value (`"a\"b"`, `r#"…"#`), escapes read. */
function stringValue(node: Node | null): string | undefined {
  if (node === null) return undefined;
  if (node.type === 'raw_string_literal') return /^r(#*)"([\s\S]*)"\1$/.exec(node.text)?.[2];
  if (node.type !== 'string_literal') return undefined;
  return unescaped(node.text.slice(1, -1));
}

function unescaped(text: string): string {
  return text.replace(
    /\\(?:(n)|(t)|(r)|(0)|u\{([0-9a-fA-F]{1,6})\}|\n\s*|(.))/g,
    (match, n, t, r, zero, code, other) => {
      if (n) return '\n';
      if (t) return '\t';
      if (r) return '\r';
      if (zero) return '\0';
      if (code) return String.fromCodePoint(Number.parseInt(code, 16));
      if (other !== undefined) return other;
      return match.startsWith('\\\n') ? '' : match;
    },
  );
}

/** A doc comment's text: `/// a` gives ` a`; a block doc comment's lines lose their leading stars. */
function docText(node: Node): string {
  const doc = node.childForFieldName('doc');
  const text = doc?.text ?? '';
  if (node.type === 'line_comment') return text.replace(/\n$/, '');
  const lines = text.split('\n');
  const starred = lines.slice(1).every((line) => /^\s*(\*|$)/.test(line));
  return (starred ? lines.map((line, i) => (i === 0 ? line : line.replace(/^\s*\* ?/, ''))) : lines).join('\n');
}

/** A doc comment (`///` or a block doc comment) or the text of a `#[doc = …]` attribute, which rustdoc unindents apart. */
interface DocFragment {
  readonly text: string;
  readonly sugared: boolean;
}

function sugared(node: Node): DocFragment {
  return { text: docText(node), sugared: true };
}

/**
 * Doc fragments joined as rustdoc joins them: the indentation all doc comments share (the space after `///`) removed
 * from their lines, `#[doc = …]` text (an included README) kept as written.
 */
function joinDocs(parts: readonly DocFragment[]): string {
  const indents = parts
    .filter((part) => part.sugared)
    .flatMap((part) => part.text.split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => line.length - line.trimStart().length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return parts
    .map((part) =>
      part.sugared
        ? part.text
            .split('\n')
            .map((line) => line.slice(Math.min(common, line.length - line.trimStart().length)))
            .join('\n')
        : part.text.trimEnd(),
    )
    .join('\n')
    .trim();
}
