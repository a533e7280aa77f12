import type TypeScript from 'typescript';
import type { EntryPoint } from './entry-points.js';
import { type DocComment, HIDDEN_TAGS, type ImplementationComments, tagText } from './source-comments.js';

/** One documented part of a package's API: an export of an entry point, or a member of one. */
export interface ApiSection extends Declared {
  /** The export it is documented with: itself, or the export it is a member of (`ZodString` for `ZodString.email`). */
  readonly exportName: string;
}

/** A declaration as the walker documents it, before it knows which export's page it goes on. */
interface Declared {
  /** The entry point it is imported from: `zod`, `zod/v4`, `hono/logger`. */
  readonly importPath: string;
  /** `email`; a member under its owner, `ZodString.email`; a member of an `export =` module, `express.json`. */
  readonly name: string;
  /** The export a member belongs to (`ZodString`); undefined for an export itself. */
  readonly owner?: string;
  /** What it is, in words: `function`, `class`, `method`, `property`, … */
  readonly kind: string;
  /** How to reach it: `import { z } from 'zod'`. For a member, its owner's import. */
  readonly importLine: string;
  /** Its declarations as written, without comments or bodies; overloads are several. */
  readonly signatures: readonly string[];
  /** The JSDoc comment's text (links as written: `{@link Tree}`). */
  readonly doc: string;
  /** The JSDoc tags, in order: `param`, `returns`, `example`, `deprecated`, … */
  readonly tags: readonly { readonly name: string; readonly text: string }[];
  /** The other names the entry point exports it under (`infer` beside `TypeOf`): users write those too. */
  readonly aliases?: readonly string[];
  /** Passages of the package's README or docs that name it (`mentions.ts`). */
  readonly mentions?: readonly string[];
  /** Of a class or interface: the members it inherits from exported ones, documented there, by where. */
  readonly inherited?: readonly Inherited[];
}

/** Where an export is documented: the page of `exportName` under `importPath`. */
export interface Place {
  readonly importPath: string;
  readonly exportName: string;
}

/** Members a class or interface inherits (or re-declares saying nothing new) from an export documented elsewhere. */
export interface Inherited extends Place {
  readonly members: readonly string[];
  /**
   * The members are not inherited from that export but documented there all the same: declared on a base both
   * reach that is not exported, or only pointed to with `@see` (see `documentedBefore`, `pointedTo`).
   */
  readonly shared?: true;
}

// A signature longer than this is cut: big generated types say nothing more to a reader past it.
const MAX_SIGNATURE = 1500;
// A member list past this (a DOM-sized interface) is cut: the first members are the ones written by hand.
const MAX_MEMBERS = 250;
// Members of members are documented this deep and no deeper (`ns.Class.member` is 2): a type reached again through
// an instantiation is a new symbol each time, so only a bound ends every cycle a package's declarations can make.
const MAX_NESTING = 6;

/**
 * The API the entry points export, one section per export and per public
 * member of an exported class, interface or namespace, as TypeScript's
 * checker sees them: `export *`, `export { … } from` and `import` + `export`
 * followed to the declaration, `export =` modules as the default import with
 * their namespace members, overloads together. An export reachable from
 * several entry points is documented once, under the first (the package's
 * root comes first), and a member is documented once, where it is declared:
 * a class or interface inheriting from an exported one says how many members
 * it inherits and links to that page, and a member it re-declares has a
 * section of its own only when it says something of its own (a comment or a
 * signature of its own; kysely's `Transaction.transaction` repeats
 * `Kysely.transaction` word for word). Private, protected, `_`- and `~`-named members
 * and anything tagged `@internal`, `@hidden`, `@ignore` or `@private` are left
 * out.
 */
export function apiSections(
  ts: typeof TypeScript,
  program: TypeScript.Program,
  entries: readonly EntryPoint[],
  warn: (warning: string) => void = () => undefined,
  isOwnFile: (fileName: string) => boolean = () => true,
  implementations?: ImplementationComments,
): ApiSection[] {
  const checker = program.getTypeChecker();
  const modules = entries.flatMap((entry) => {
    const file = program.getSourceFile(entry.file);
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    return module === undefined ? [] : [{ entry, module }];
  });
  // Who documents what: the first entry point that exports a symbol owns it.
  const claimed = new Map<TypeScript.Symbol, string>();
  const exportsOf = modules.map(({ entry, module }) => {
    const exported = checker
      .getExportsOfModule(module)
      .map((symbol) => ({ symbol, target: resolved(ts, checker, symbol) }))
      .filter(({ target }) => (target.declarations?.length ?? 0) > 0);
    for (const { target } of exported) if (!claimed.has(target)) claimed.set(target, entry.importPath);
    return exported;
  });

  const fileOrder = new Map(program.getSourceFiles().map((file, index) => [file.fileName, index]));
  // What each entry point documents, and under which name: worked out before any page is written, so a subclass
  // can name (and link to) the export its inherited members are documented on, wherever that comes in the walk.
  // A symbol exported under two names (`export default z` beside `export { z }`) is documented once.
  const documented = new Set<TypeScript.Symbol>();
  const places = new Map<TypeScript.Symbol, Place>();
  const plans = modules.map(({ entry, module }, index) => {
    const exportEquals = module.exports?.get(ts.escapeLeadingUnderscores('export='));
    const binding = bindingName(entry.importPath);
    const whole = exportEquals === undefined ? undefined : resolved(ts, checker, exportEquals);
    const wholeDocumented = whole !== undefined && !documented.has(whole);
    if (whole !== undefined && wholeDocumented) {
      documented.add(whole);
      places.set(whole, { importPath: entry.importPath, exportName: binding });
    }
    const ordered = [...(exportsOf[index] ?? [])].sort(
      (a, b) => position(a.target, fileOrder) - position(b.target, fileOrder),
    );
    const namesOf = new Map<TypeScript.Symbol, string[]>();
    for (const { symbol, target } of ordered) namesOf.set(target, [...(namesOf.get(target) ?? []), symbol.getName()]);
    const items: { target: TypeScript.Symbol; name: string; display: string; importLine: string; aliases: string[] }[] =
      [];
    for (const { symbol, target } of ordered) {
      const name = symbol.getName();
      if (claimed.get(target) !== entry.importPath || documented.has(target) || name.startsWith('_')) continue;
      documented.add(target);
      const isDefault = name === 'default';
      const display =
        exportEquals !== undefined ? `${binding}.${name}` : isDefault ? identifierOr(target.getName(), binding) : name;
      const importLine =
        exportEquals !== undefined
          ? `import ${binding} from '${entry.importPath}'`
          : isDefault
            ? `import ${display} from '${entry.importPath}'`
            : `import ${isTypeOnly(ts, target) ? 'type ' : ''}{ ${name} } from '${entry.importPath}'`;
      const aliases = (namesOf.get(target) ?? []).filter((other) => other !== name && other !== 'default');
      items.push({ target, name, display, importLine, aliases });
      places.set(target, { importPath: entry.importPath, exportName: display });
    }
    return { entry, binding, whole: wholeDocumented ? whole : undefined, items };
  });

  const sections: ApiSection[] = [];
  const entryOf = new Map(entries.map((entry) => [entry.file, entry.importPath]));
  const walker = new Walker(ts, checker, claimed, places, isOwnFile, warn, implementations, entryOf);
  for (const { entry, binding, whole, items } of plans) {
    if (whole !== undefined) {
      const importLine = `import ${binding} from '${entry.importPath}'`;
      sections.push(
        ...onPage(
          binding,
          alone(warn, binding, () => walker.own(whole, binding, entry.importPath, importLine)),
        ),
      );
    }
    for (const { target, display, importLine, aliases } of items) {
      const [own, ...members] = alone(warn, display, () =>
        walker.document(target, display, entry.importPath, importLine),
      );
      if (own) sections.push(...onPage(display, [aliases.length > 0 ? { ...own, aliases } : own, ...members]));
    }
    const file = program.getSourceFile(entry.file);
    const first = items[0];
    if (file !== undefined) {
      // On the page of the entry point's first export (a plugin's one), or its index page.
      const exportName = first?.display ?? binding;
      const importLine = first?.importLine ?? `import '${entry.importPath}'`;
      const added = alone(warn, `${entry.importPath}'s augmentations`, () =>
        walker.augmentations(file, entry.importPath, importLine),
      );
      sections.push(...onPage(exportName, added));
    }
  }
  return sections;
}

/**
 * One export's sections, or none when reading them fails: the checker can throw on declarations it does not expect,
 * and one such export must not cost the rest of the page.
 */
function alone(warn: (warning: string) => void, name: string, read: () => Declared[]): Declared[] {
  try {
    return read();
  } catch (error) {
    warn(`\`${name}\` was left out of the API page: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

function onPage(exportName: string, declared: readonly Declared[]): ApiSection[] {
  return declared.map((section) => ({ ...section, exportName }));
}

class Walker {
  /**
   * The symbols being documented, outermost first: one met again inside itself is not walked again (a class whose
   * static side holds a subclass of itself, as Node's `EventEmitter.EventEmitterAsyncResource` does, went on forever).
   */
  private readonly open = new Set<TypeScript.Symbol>();
  private readonly comments = new Map<TypeScript.Symbol, DocComment | undefined>();
  /** The owner whose page documents each member declaration first (see `documentedBefore`). */
  private readonly firstOwners = new Map<TypeScript.Declaration, TypeScript.Symbol>();

  constructor(
    private readonly ts: typeof TypeScript,
    private readonly checker: TypeScript.TypeChecker,
    private readonly claimed: ReadonlyMap<TypeScript.Symbol, string>,
    private readonly places: ReadonlyMap<TypeScript.Symbol, Place>,
    private readonly isOwnFile: (fileName: string) => boolean,
    private readonly warn: (warning: string) => void,
    private readonly implementations: ImplementationComments | undefined,
    private readonly entryOf: ReadonlyMap<string, string>,
  ) {}

  /** An export: its own section, then its members' (class, interface, namespace). */
  document(symbol: TypeScript.Symbol, name: string, importPath: string, importLine: string, depth = 0): Declared[] {
    if (this.open.has(symbol)) return [];
    if (depth > MAX_NESTING) {
      this.warn(`members nested deeper than ${MAX_NESTING} levels are left out`);
      return [];
    }
    this.open.add(symbol);
    try {
      return this.documentOpen(symbol, name, importPath, importLine, depth);
    } finally {
      this.open.delete(symbol);
    }
  }

  private documentOpen(
    symbol: TypeScript.Symbol,
    name: string,
    importPath: string,
    importLine: string,
    depth: number,
  ): Declared[] {
    const { ts } = this;
    const comment = this.comment(symbol);
    if (comment === undefined) return [];
    const declarations = symbol.declarations ?? [];
    // A module (`import * as vite from 'vite'; export { vite as Vite }`), perhaps with augmentations beside it.
    const module = declarations.find((d): d is TypeScript.SourceFile => ts.isSourceFile(d));
    if (module !== undefined && !this.isOwnFile(module.fileName)) {
      // Another package's whole API (`Vite` in `vitest/node`) is that package's to document: named here, its members
      // left to it, or its hundreds of sections answer this package's questions.
      const count = this.checker.getExportsOfModule(symbol).filter((m) => !m.getName().startsWith('_')).length;
      const other = packageOf(module.fileName);
      const where = other === undefined ? 'another package' : `\`${other}\``;
      return [
        {
          importPath,
          name,
          kind: 'namespace',
          importLine,
          signatures: [],
          doc: `The namespace of ${where}'s ${count} exports, re-exported: \`${name}.<export>\` reaches each of them, documented with ${other === undefined ? 'that package' : where}.`,
          tags: [],
        },
      ];
    }
    if (declarations.length === 1 && ts.isSourceFile(declarations[0] as TypeScript.Node)) {
      // `export * as z from './x'` (or import + export): a namespace of another module's exports.
      const members = this.checker.getExportsOfModule(symbol).filter((m) => !m.getName().startsWith('_'));
      const own: Declared = {
        importPath,
        name,
        kind: 'namespace',
        importLine,
        signatures: [],
        doc: `The namespace of ${members.length} exports: \`${name}.<export>\` reaches each of them (${members
          .slice(0, 12)
          .map((m) => `\`${m.getName()}\``)
          .join(', ')}${members.length > 12 ? ', …' : ''}).`,
        tags: [],
      };
      const unclaimed = members
        .map((member) => resolved(ts, this.checker, member))
        .filter((target) => !this.claimed.has(target) && depth < 1);
      return [own, ...unclaimed.flatMap((m) => this.document(m, `${name}.${m.getName()}`, importPath, importLine, 1))];
    }
    const { sections, inherited } = this.members(symbol, name, importPath, importLine, depth);
    const own = this.section(symbol, name, importPath, importLine, comment);
    return [inherited.length > 0 ? { ...own, inherited } : own, ...sections];
  }

  /** The section of a symbol itself, or none when a tag hides it. */
  own(symbol: TypeScript.Symbol, name: string, importPath: string, importLine: string, owner?: string): Declared[] {
    const comment = this.comment(symbol);
    return comment === undefined ? [] : [this.section(symbol, name, importPath, importLine, comment, owner)];
  }

  /** A symbol's section from its comment, read once by the caller: every declaration's signature, the comment. */
  private section(
    symbol: TypeScript.Symbol,
    name: string,
    importPath: string,
    importLine: string,
    comment: Pick<Declared, 'doc' | 'tags'>,
    owner?: string,
  ): Declared {
    const signatures = this.signatures(symbol);
    return {
      importPath,
      name,
      ...(owner === undefined ? {} : { owner }),
      kind: kindOf(this.ts, symbol),
      importLine,
      signatures,
      ...comment,
    };
  }

  /**
   * The members an entry point adds to other modules' interfaces and classes by augmentation, as members of theirs
   * (`Dayjs.fromNow` on `dayjs/plugin/relativeTime`'s page): documented where they are declared, beside the plugin a
   * user imports to have them, not among the members every user has.
   */
  augmentations(file: TypeScript.SourceFile, importPath: string, importLine: string): Declared[] {
    const { ts, checker } = this;
    const sections: Declared[] = [];
    for (const statement of file.statements) {
      if (!ts.isModuleDeclaration(statement) || !ts.isStringLiteral(statement.name)) continue;
      const body = statement.body;
      if (body === undefined || !ts.isModuleBlock(body)) continue;
      for (const owner of body.statements) {
        if (!(ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) || owner.name === undefined) continue;
        const ownerName = owner.name.text;
        // An augmentation of the entry point's own export is documented with it.
        const merged = checker.getSymbolAtLocation(owner.name);
        if (merged !== undefined && this.claimed.get(merged) === importPath) continue;
        for (const member of owner.members) {
          const name = member.name === undefined ? undefined : checker.getSymbolAtLocation(member.name);
          // An overload added to a member the module declares itself is documented with that member.
          const elsewhere = (name?.declarations ?? []).some((d) => d.getSourceFile() !== file);
          if (name === undefined || elsewhere || !this.isPublicMember(name)) continue;
          sections.push(...this.own(name, `${ownerName}.${name.getName()}`, importPath, importLine, ownerName));
        }
      }
    }
    return sections;
  }

  /**
   * The entry point whose declaration file adds a member to another module's interface by augmentation
   * (`declare module 'dayjs' { interface Dayjs { fromNow(): string } }` in `dayjs/plugin/relativeTime`): a member
   * a user has only once they import (and, for a plugin, install) that entry point.
   */
  private augmentedBy(member: TypeScript.Symbol): string | undefined {
    const { ts } = this;
    const declarations = member.declarations ?? [];
    const file = declarations[0]?.getSourceFile();
    const augmenting = (declaration: TypeScript.Declaration) => {
      let node: TypeScript.Node | undefined = declaration.parent;
      while (node !== undefined && !(ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name))) node = node.parent;
      return node !== undefined;
    };
    // Only a member every declaration of which one file adds; an overload added to a module's own member is not.
    if (file === undefined || !declarations.every((d) => d.getSourceFile() === file && augmenting(d))) return undefined;
    return this.entryOf.get(file.fileName);
  }

  /**
   * Public members of a class, interface or namespace, each under its owner's name; and those documented on an
   * exported base instead, by base: a member it inherits, or one it re-declares with the base's comment and
   * signature (kysely's `Transaction.transaction` repeats `Kysely.transaction` word for word).
   */
  private members(
    symbol: TypeScript.Symbol,
    owner: string,
    importPath: string,
    importLine: string,
    depth: number,
  ): { sections: Declared[]; inherited: Inherited[] } {
    const { ts, checker } = this;
    const members: TypeScript.Symbol[] = [];
    if (symbol.flags & ts.SymbolFlags.Class) {
      const construct = symbol.members?.get(ts.InternalSymbolName.Constructor);
      if (construct) members.push(construct);
      for (const s of checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol))) {
        if (s.getName() !== 'prototype') members.push(s);
      }
    }
    if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      members.push(...checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)));
    }
    if (symbol.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule) && depth < 1) {
      for (const s of checker.getExportsOfModule(symbol)) {
        const target = resolved(ts, checker, s);
        if (!this.claimed.has(target) && !s.getName().startsWith('_')) {
          members.push(target);
        }
      }
    }
    const sections: Declared[] = [];
    const inherited = new Map<Place, string[]>();
    const shared = new Map<Place, string[]>();
    const seen = new Set<TypeScript.Symbol>();
    for (const member of members) {
      if (seen.has(member) || seen.size >= MAX_MEMBERS || !this.isPublicMember(member)) continue;
      seen.add(member);
      const name = member.getName() === ts.InternalSymbolName.Constructor ? 'constructor' : member.getName();
      // Added by another entry point's augmentation (a plugin's): documented on that entry point's page.
      const addedBy = this.augmentedBy(member);
      if (addedBy !== undefined && addedBy !== importPath) continue;
      const base = this.documentedOn(member, symbol);
      const from = base ?? this.pointedTo(member, symbol) ?? this.documentedBefore(member, symbol);
      if (from !== undefined) {
        // Listed where its owner's page documents it: a member hidden there is hidden here too.
        const place = this.places.get(from);
        const list = base === undefined ? shared : inherited;
        if (place !== undefined && this.comment(member) !== undefined) {
          list.set(place, [...(list.get(place) ?? []), name]);
        }
        continue;
      }
      const qualified = `${owner}.${name}`;
      if (member.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.Module)) {
        sections.push(...this.document(member, qualified, importPath, importLine, depth + 1));
      } else {
        sections.push(...this.own(member, qualified, importPath, importLine, owner));
      }
      this.remember(member, symbol);
    }
    return {
      sections,
      inherited: [
        ...[...inherited].map(([place, names]) => ({ ...place, members: names })),
        ...[...shared].map(([place, names]) => ({ ...place, members: names, shared: true as const })),
      ],
    };
  }

  /**
   * The export whose page already documents a member's very declaration: one declared in a base or object type that
   * is not exported itself, and reached again through another export (execa's `ExecaError` and `ExecaSyncError` both
   * extend an unexported `CommonError`). The first page keeps it, the others count it as inherited from there.
   */
  private documentedBefore(member: TypeScript.Symbol, owner: TypeScript.Symbol): TypeScript.Symbol | undefined {
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    const first = declaration === undefined ? undefined : this.firstOwners.get(declaration);
    return first !== undefined && first !== owner && this.places.has(first) ? first : undefined;
  }

  private remember(member: TypeScript.Symbol, owner: TypeScript.Symbol): void {
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    if (declaration !== undefined && !this.firstOwners.has(declaration)) this.firstOwners.set(declaration, owner);
  }

  /** A public member: named, not private or protected, not `_`- or `~`-named. */
  private isPublicMember(member: TypeScript.Symbol): boolean {
    const { ts } = this;
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    if (declaration === undefined) return false;
    const name = member.getName();
    const isConstructor = name === ts.InternalSymbolName.Constructor;
    // `_x` and `#x` are private by convention; `~x` is how Standard Schema hides a member from autocompletion.
    if (!isConstructor && /^[_#~]/.test(name)) return false;
    return !(ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
  }

  /**
   * The exported class or interface a member of `owner` is documented on instead of `owner`'s page, if any: where
   * it is declared, when that is another export; or, for a member `owner` re-declares, the export declaring the
   * member it overrides, when the two say the same (the same comment and tags, the same signature but for the
   * owner's own name: `withPlugin(): Transaction<DB>` repeats `withPlugin(): Kysely<DB>`).
   */
  private documentedOn(member: TypeScript.Symbol, owner: TypeScript.Symbol): TypeScript.Symbol | undefined {
    const { ts, checker } = this;
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    if (declaration === undefined) return undefined;
    const parent = declaringOwner(checker, declaration);
    if (parent !== undefined && parent !== owner) return this.claimed.has(parent) ? parent : undefined;
    if (parent === undefined || ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Static) return undefined;
    const base = this.overridden(member, owner);
    if (base === undefined) return undefined;
    const ownText = this.signatures(member).map((text) => renamed(text, owner.getName(), base.parent.getName()));
    const same =
      sameComment(this.comment(member), this.comment(base.member)) &&
      ownText.join('\n') === this.signatures(base.member).join('\n');
    return same ? base.parent : undefined;
  }

  /**
   * The export a member without words of its own points to with `@see`, when the reference resolves to a member of
   * the same name documented there: @types/lodash repeats each function on a dozen wrapper interfaces
   * (`Collection.uniq`, `LoDashImplicitWrapper.uniq`) with nothing but `@see _.uniq`, and those copies, short and
   * full of the signature's words, outranked the one that says what `uniq` does.
   */
  private pointedTo(member: TypeScript.Symbol, owner: TypeScript.Symbol): TypeScript.Symbol | undefined {
    const { ts, checker } = this;
    const own = this.comment(member);
    if (own === undefined || own.doc !== '' || !own.tags.every((tag) => tag.name === 'see')) return undefined;
    for (const declaration of member.declarations ?? []) {
      for (const tag of ts.getJSDocTags(declaration)) {
        const reference = ts.isJSDocSeeTag(tag) ? tag.name?.name : undefined;
        const found = reference === undefined ? undefined : checker.getSymbolAtLocation(reference);
        const target = found === undefined ? undefined : resolved(ts, checker, found);
        const at = target?.valueDeclaration ?? target?.declarations?.[0];
        if (target === undefined || at === undefined || target === member || target.getName() !== member.getName()) {
          continue;
        }
        const parent = declaringOwner(checker, at);
        if (parent === undefined || parent === owner || !this.claimed.has(parent)) continue;
        if ((this.comment(target)?.doc ?? '') !== '') return parent;
      }
    }
    return undefined;
  }

  /** The member of an exported base of `owner` (a class's or interface's) that `member` overrides, and that base. */
  private overridden(
    member: TypeScript.Symbol,
    owner: TypeScript.Symbol,
  ): { member: TypeScript.Symbol; parent: TypeScript.Symbol } | undefined {
    const { ts, checker } = this;
    if (!(owner.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface))) return undefined;
    const type = checker.getDeclaredTypeOfSymbol(owner);
    if (!type.isClassOrInterface()) return undefined;
    for (const base of checker.getBaseTypes(type)) {
      const found = checker.getPropertyOfType(base, member.getName());
      const declaration = found?.valueDeclaration ?? found?.declarations?.[0];
      const parent = declaration === undefined ? undefined : declaringOwner(checker, declaration);
      if (declaration === undefined || parent === undefined || parent === owner || !this.claimed.has(parent)) continue;
      const name = ts.getNameOfDeclaration(declaration);
      const declared = name === undefined ? undefined : checker.getSymbolAtLocation(name);
      if (declared !== undefined) return { member: declared, parent };
    }
    return undefined;
  }

  private signatures(symbol: TypeScript.Symbol): string[] {
    return [...new Set((symbol.declarations ?? []).map((d) => declarationText(this.ts, d)))].filter(
      (text) => text !== '',
    );
  }

  /** The comment of a symbol, or undefined when a tag hides it; read once. */
  private comment(symbol: TypeScript.Symbol): DocComment | undefined {
    if (!this.comments.has(symbol)) this.comments.set(symbol, this.readComment(symbol));
    return this.comments.get(symbol);
  }

  private readComment(symbol: TypeScript.Symbol): DocComment | undefined {
    const { ts, checker } = this;
    // Overloads that each carry the same tag (`@see _.get` on twenty of them) say it once.
    const tags = distinctTags(
      symbol
        .getJsDocTags(checker)
        .map((tag) => ({ name: tag.name, text: tagText(tag.name, ts.displayPartsToString(tag.text)) })),
    );
    if (tags.some((tag) => HIDDEN_TAGS.has(tag.name))) return undefined;
    const declared = { doc: ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim(), tags };
    return this.implementationComment(symbol, declared) ?? declared;
  }

  /**
   * The comment of the implementation behind a function's or method's overloads, read from the package's shipped
   * source (see `ImplementationComments`), when the declaration file has only its overloads' notes or nothing: the
   * implementation's comment describes the function, an overload's one way of calling it. A deprecation every
   * overload carries is the function's own and stays.
   */
  private implementationComment(symbol: TypeScript.Symbol, declared: DocComment): DocComment | undefined {
    const { ts } = this;
    if (this.implementations === undefined || !(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Method))) {
      return undefined;
    }
    const declarations = symbol.declarations ?? [];
    if (declarations.length < 2 && declared.doc !== '') return undefined;
    const found = this.implementations.of(declarations);
    if (found === undefined) return undefined;
    const deprecated = declared.tags.find((tag) => tag.name === 'deprecated');
    const everyOverload =
      deprecated !== undefined &&
      !found.tags.some((tag) => tag.name === 'deprecated') &&
      declarations.every((d) => ts.getJSDocDeprecatedTag(d) !== undefined);
    return { doc: found.doc, tags: distinctTags(everyOverload ? [deprecated, ...found.tags] : found.tags) };
  }
}

/** The npm package a declaration file belongs to: `vite` for `…/node_modules/vite/dist/node/index.d.ts`. */
function packageOf(fileName: string): string | undefined {
  const parts = fileName.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  const first = at < 0 ? undefined : parts[at + 1];
  if (first === undefined) return undefined;
  return first.startsWith('@') && parts[at + 2] !== undefined ? `${first}/${parts[at + 2]}` : first;
}

/** The class, interface or namespace a member's declaration sits in. */
function declaringOwner(
  checker: TypeScript.TypeChecker,
  declaration: TypeScript.Declaration,
): TypeScript.Symbol | undefined {
  const parent = declaration.parent;
  const name = parent && 'name' in parent ? (parent.name as TypeScript.Node | undefined) : undefined;
  return name ? checker.getSymbolAtLocation(name) : undefined;
}

// Tags that mark a re-declaration as one without adding to what it says.
const REDECLARATION_TAGS = new Set(['override', 'inheritdoc', 'inheritDoc']);

/** Whether two comments say the same, read as TypeScript reads them (an override without one shows its base's). */
function sameComment(
  a: Pick<Declared, 'doc' | 'tags'> | undefined,
  b: Pick<Declared, 'doc' | 'tags'> | undefined,
): boolean {
  if (a === undefined || b === undefined) return false;
  const tags = (c: Pick<Declared, 'tags'>) =>
    c.tags
      .filter((tag) => !REDECLARATION_TAGS.has(tag.name))
      .map((tag) => `${tag.name} ${tag.text}`)
      .join('\n');
  return a.doc === b.doc && tags(a) === tags(b);
}

/** Tags without repeats, in order. */
function distinctTags(tags: readonly DocComment['tags'][number][]): DocComment['tags'][number][] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = `${tag.name}\0${tag.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A signature with one type name for another, as a whole word: `Transaction<DB>` → `Kysely<DB>`. */
function renamed(text: string, from: string, to: string): string {
  return from === to ? text : text.replace(new RegExp(`(?<![\\w$])${from.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'), to);
}

/** The symbol an export stands for: aliases (`export { a } from`, `export *`) followed to the declaration. */
function resolved(
  ts: typeof TypeScript,
  checker: TypeScript.TypeChecker,
  symbol: TypeScript.Symbol,
): TypeScript.Symbol {
  if (!(symbol.flags & ts.SymbolFlags.Alias)) return symbol;
  try {
    return checker.getAliasedSymbol(symbol);
  } catch {
    return symbol;
  }
}

/** A declaration's text as written: no comment before it, no body, no `export declare`; cut when very long. */
export function declarationText(ts: typeof TypeScript, node: TypeScript.Declaration): string {
  if (ts.isSourceFile(node)) return '';
  const file = node.getSourceFile();
  let start = node.getStart(file);
  let end = node.getEnd();
  let prefix = '';
  if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isClassExpression(node)) {
    end = node.members.pos - 1;
  } else if (ts.isModuleDeclaration(node)) {
    end = node.body ? node.body.getStart(file) : end;
  } else if (ts.isVariableDeclaration(node)) {
    const list = node.parent;
    prefix = list.flags & ts.NodeFlags.Const ? 'const ' : list.flags & ts.NodeFlags.Let ? 'let ' : 'var ';
  }
  start = Math.min(start, end);
  const text = prefix + dedent(file.text.slice(start, end)).replace(/^(?:(?:export|declare|default)\s+)+/, '');
  const trimmed = text.trim();
  return trimmed.length > MAX_SIGNATURE ? `${trimmed.slice(0, MAX_SIGNATURE)} …` : trimmed;
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => /^\s*/.exec(l)?.[0].length ?? 0);
  const cut = Math.min(...indents, Number.POSITIVE_INFINITY);
  if (!Number.isFinite(cut) || cut === 0) return text;
  // The first line starts at the declaration; the others keep their indentation relative to the body.
  const base = Math.max(0, cut - 4);
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Math.min(base, /^\s*/.exec(l)?.[0].length ?? 0)))].join('\n');
}

function kindOf(ts: typeof TypeScript, symbol: TypeScript.Symbol): string {
  const f = symbol.flags;
  const S = ts.SymbolFlags;
  if (f & S.Class) return 'class';
  if (f & S.Constructor) return 'constructor';
  if (f & S.Interface) return f & S.Variable ? 'interface and value' : 'interface';
  if (f & S.Function) return 'function';
  if (f & S.Method) return 'method';
  if (f & S.Enum) return 'enum';
  if (f & S.EnumMember) return 'enum member';
  if (f & S.TypeAlias) return 'type';
  if (f & S.Accessor) return 'accessor';
  if (f & S.Property) return 'property';
  if (f & S.Variable) return 'variable';
  if (f & S.Module) return 'namespace';
  return 'declaration';
}

function isTypeOnly(ts: typeof TypeScript, symbol: TypeScript.Symbol): boolean {
  return (symbol.flags & ts.SymbolFlags.Value) === 0;
}

/** Where a symbol is declared, for ordering a page the way its source reads (file by file). */
function position(symbol: TypeScript.Symbol, fileOrder: ReadonlyMap<string, number>): number {
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined) return Number.MAX_SAFE_INTEGER;
  return (fileOrder.get(declaration.getSourceFile().fileName) ?? 0) * 1e9 + declaration.pos;
}

/** The name a default import of an entry point takes: `express`, `p-limit` → `pLimit`, `@scope/a-b` → `aB`. */
export function bindingName(importPath: string): string {
  const last = importPath.split('/').at(-1) ?? importPath;
  const camel = last.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
  return /^[A-Za-z_$]/.test(camel) ? camel : `_${camel}`;
}

function identifierOr(name: string, fallback: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default' ? name : fallback;
}
