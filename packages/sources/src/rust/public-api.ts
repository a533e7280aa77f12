import type { CrateModule, CrateReader, CrateSource } from './crate-reader.js';
import type { ItemKind, ItemSyntax } from './syntax.js';

/** A public item at the path users import it by, with what rustdoc lists on its page. */
export interface PublicItem {
  /** `['tokio', 'task', 'spawn_blocking']`. */
  readonly path: readonly string[];
  readonly item: ItemSyntax;
  /** The feature conditions on it and on the module that defines it. */
  readonly cfg: readonly string[];
  /** Inherent methods (and associated types and constants) of a type: its `impl Type { pub fn … }` blocks. */
  readonly methods: readonly ItemSyntax[];
  /** The traits it implements, as the impl headers say: `impl<T> Future for JoinHandle<T>`. */
  readonly traitImpls: readonly string[];
}

/** A public module at its import path, with its `//!` docs. */
export interface PublicModule {
  readonly path: readonly string[];
  readonly doc: string;
  readonly cfg: readonly string[];
  readonly deprecated?: string;
}

export interface PublicApi {
  readonly modules: readonly PublicModule[];
  readonly items: readonly PublicItem[];
}

type Namespace = 'type' | 'value' | 'macro';

type Target =
  | { readonly kind: 'item'; readonly item: ItemSyntax; readonly module: CrateModule }
  | { readonly kind: 'module'; readonly module: CrateModule };

interface Export {
  readonly name: string;
  readonly target: Target;
}

const TYPES = new Set<ItemKind>(['struct', 'enum', 'union', 'trait', 'type alias']);
const MACROS = new Set<ItemKind>(['macro', 'derive macro', 'attribute macro']);
// The standard library's crates: paths into them name nothing a crate documents.
const STANDARD = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

/**
 * A crate's public API as rustdoc lays it out: every item reachable from the crate root through `pub` modules and
 * `pub use` re-exports (globs too, and into the crates it depends on: `clap` re-exports `clap_builder::*`), each at
 * the first (shortest) path a user imports it by, so `tokio::task::spawn_blocking` documents the function defined in
 * the private `task::blocking`; `#[macro_export]` macros at the root. Inherent `impl` blocks give a type its methods
 * and trait impls are listed, wherever in the crate they are written. Items `#[doc(hidden)]` or `#[cfg(test)]` are
 * left out. Paths that lead nowhere (into `std`, or a crate not fetched) are skipped.
 */
export function publicApi(crate: CrateSource, reader: CrateReader): PublicApi {
  return new Resolver(reader).api(crate);
}

class Resolver {
  private readonly exportCache = new Map<CrateModule, Export[]>();
  private readonly resolving = new Set<string>();
  private readonly lookups = new Map<string, Target[]>();
  private readonly macros = new Map<CrateModule, Map<string, Target[]>>();
  private readonly ids = new Map<CrateModule, number>();

  constructor(private readonly reader: CrateReader) {}

  api(crate: CrateSource): PublicApi {
    const modules: PublicModule[] = [];
    const items = new Map<ItemSyntax, { path: string[]; module: CrateModule }>();
    const visited = new Set<CrateModule>([crate.root]);
    const queue: { module: CrateModule; path: string[] }[] = [{ module: crate.root, path: [crate.name] }];
    while (queue.length > 0) {
      const { module, path } = queue.shift() as { module: CrateModule; path: string[] };
      modules.push({
        path,
        doc: module.doc,
        cfg: module.cfg,
        ...(module.deprecated === undefined ? {} : { deprecated: module.deprecated }),
      });
      for (const { name, target } of this.exports(module)) {
        if (target.kind === 'item') {
          const seen = items.get(target.item);
          // At the same depth, the item's own name beats a rename (`pub use inner::{Builder as WidgetBuilder, Builder}`).
          const better =
            seen === undefined ||
            (seen.path.length === path.length + 1 &&
              seen.path.at(-1) !== target.item.name &&
              name === target.item.name);
          if (better) items.set(target.item, { path: [...path, name], module: target.module });
        } else if (!visited.has(target.module)) {
          visited.add(target.module);
          queue.push({ module: target.module, path: [...path, name] });
        }
      }
    }
    const impls = this.implsOf(new Set([...items.keys()]), [...visited]);
    return {
      modules,
      items: [...items].map(([item, { path, module }]) => ({
        path,
        item,
        cfg: [...new Set([...module.cfg, ...item.cfg])],
        methods: impls.get(item)?.methods ?? [],
        traitImpls: impls.get(item)?.traits ?? [],
      })),
    };
  }

  /** What a module makes public: its `pub` items and modules, and what its `pub use`s name (globs after names). */
  private exports(module: CrateModule): Export[] {
    const cached = this.exportCache.get(module);
    if (cached) return cached;
    // A glob cycle (`pub use self::a::*` in b, `pub use self::b::*` in a) sees the partial list, not a loop.
    const found: Export[] = [];
    this.exportCache.set(module, found);
    const taken = new Set<string>();
    const add = (name: string, target: Target) => {
      const key = `${namespaceOf(target)}:${name}`;
      if (taken.has(key)) return;
      taken.add(key);
      found.push({ name, target });
    };
    for (const item of module.items) {
      if (item.public && !item.hidden && !(item.kind === 'macro' && item.macroExport))
        add(item.name, { kind: 'item', item, module });
    }
    if (module.parent === undefined) {
      // `#[macro_export]` puts a macro at the crate root, wherever it is written.
      for (const owner of allModules(module)) {
        for (const item of owner.items) {
          if (item.kind === 'macro' && item.macroExport && !item.hidden)
            add(item.name, { kind: 'item', item, module: owner });
        }
      }
    }
    for (const [name, child] of module.modules) {
      if (child.public && !child.hidden) add(name, { kind: 'module', module: child });
    }
    for (const use of module.uses) {
      if (!use.public || use.hidden || use.glob || use.alias === undefined) continue;
      for (const target of this.resolvePath(module, use.path)) add(use.alias, target);
    }
    for (const use of module.uses) {
      if (!use.public || use.hidden || !use.glob) continue;
      for (const target of this.resolvePath(module, use.path)) {
        if (target.kind !== 'module') continue;
        for (const exported of this.exports(target.module)) add(exported.name, exported.target);
      }
    }
    return found;
  }

  /** What a path names from inside `module`: `crate::`, `self::`, `super::`, a name in scope, or another crate. */
  private resolvePath(module: CrateModule, path: readonly string[]): Target[] {
    const [first, ...rest] = path;
    if (first === undefined) return [];
    let current: Target[];
    if (first === 'crate' || first === '$crate') current = [{ kind: 'module', module: module.crate.root }];
    else if (first === 'self') current = [{ kind: 'module', module }];
    else if (first === 'super') current = module.parent ? [{ kind: 'module', module: module.parent }] : [];
    else if (STANDARD.has(first)) return [];
    else current = this.lookup(module, first);
    for (const segment of rest) {
      const scope = current.find((t) => t.kind === 'module')?.module;
      if (scope === undefined) return [];
      current =
        segment === 'super'
          ? scope.parent
            ? [{ kind: 'module', module: scope.parent }]
            : []
          : segment === 'self'
            ? [{ kind: 'module', module: scope }]
            : this.lookup(scope, segment);
    }
    return current;
  }

  /**
   * What `name` is in `module`'s scope: a module or item defined there (of any visibility: the crate's own code may
   * name its private items), a name a `use` brings in, one a glob brings in, or a crate it depends on.
   */
  private lookup(module: CrateModule, name: string): Target[] {
    const key = `${this.idOf(module)}:${name}`;
    const known = this.lookups.get(key);
    if (known !== undefined) return known;
    if (this.resolving.has(key)) return [];
    this.resolving.add(key);
    try {
      const found = this.lookupUncached(module, name);
      // Kept: a crate of a thousand glob re-exports (web-sys) asks each module for each impl's type name.
      this.lookups.set(key, found);
      return found;
    } finally {
      this.resolving.delete(key);
    }
  }

  private lookupUncached(module: CrateModule, name: string): Target[] {
    const found: Target[] = [];
    const child = module.modules.get(name);
    if (child) found.push({ kind: 'module', module: child });
    for (const item of module.items) {
      if (item.name === name && !item.hidden) found.push({ kind: 'item', item, module });
    }
    // `#[macro_export]` macros are at the crate root (`crate::anyhow`), wherever they are written.
    if (module.parent === undefined) found.push(...(this.exportedMacros(module).get(name) ?? []));
    for (const use of module.uses) {
      if (!use.glob && use.alias === name && !use.hidden) found.push(...this.resolvePath(module, use.path));
    }
    if (found.length > 0) return dedupe(found);
    for (const use of module.uses) {
      if (!use.glob || use.hidden) continue;
      for (const target of this.resolvePath(module, use.path)) {
        if (target.kind === 'module') found.push(...this.lookup(target.module, name));
      }
    }
    if (found.length > 0) return dedupe(found);
    const external = this.reader.dependency(module.crate, name);
    return external ? [{ kind: 'module', module: external.root }] : [];
  }

  /** A crate's `#[macro_export]` macros outside its root file, by name, gathered once. */
  private exportedMacros(root: CrateModule): Map<string, Target[]> {
    let macros = this.macros.get(root);
    if (macros === undefined) {
      macros = new Map();
      for (const owner of allModules(root)) {
        if (owner === root) continue;
        for (const item of owner.items) {
          if (item.kind !== 'macro' || !item.macroExport) continue;
          macros.set(item.name, [...(macros.get(item.name) ?? []), { kind: 'item', item, module: owner }]);
        }
      }
      this.macros.set(root, macros);
    }
    return macros;
  }

  /** Each public type's inherent methods and trait impls, from every `impl` block of the crates read. */
  private implsOf(
    types: ReadonlySet<ItemSyntax>,
    reached: readonly CrateModule[],
  ): Map<ItemSyntax, { methods: ItemSyntax[]; traits: string[] }> {
    const found = new Map<ItemSyntax, { methods: ItemSyntax[]; traits: string[] }>();
    const crates = new Set(reached.map((m) => m.crate));
    for (const crate of crates) {
      for (const module of allModules(crate.root)) {
        for (const impl of module.impls) {
          if (impl.hidden) continue;
          const target = this.lookup(module, impl.selfType).find(
            (t): t is Extract<Target, { kind: 'item' }> => t.kind === 'item' && TYPES.has(t.item.kind),
          );
          if (target === undefined || !types.has(target.item)) continue;
          const entry = found.get(target.item) ?? { methods: [], traits: [] };
          found.set(target.item, entry);
          if (impl.trait !== undefined) {
            if (!entry.traits.includes(impl.header)) entry.traits.push(impl.header);
            continue;
          }
          // rustdoc shows a method under its impl's header: the generics and bounds it needs (`where W: io::Write`).
          const within = impl.header === `impl ${impl.selfType}` ? undefined : impl.header;
          for (const method of impl.items) {
            if (method.public && !method.hidden)
              entry.methods.push(within === undefined ? method : { ...method, within });
          }
        }
      }
    }
    return found;
  }

  private idOf(module: CrateModule): number {
    let id = this.ids.get(module);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(module, id);
    }
    return id;
  }
}

function namespaceOf(target: Target): Namespace {
  if (target.kind === 'module') return 'type';
  if (MACROS.has(target.item.kind)) return 'macro';
  return TYPES.has(target.item.kind) ? 'type' : 'value';
}

function dedupe(targets: Target[]): Target[] {
  const seen = new Set<unknown>();
  return targets.filter((t) => {
    const key = t.kind === 'module' ? t.module : t.item;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function* allModules(root: CrateModule): Generator<CrateModule> {
  yield root;
  for (const child of root.modules.values()) yield* allModules(child);
}
