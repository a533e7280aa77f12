import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { parse, type TomlTable } from 'smol-toml';
import type { Parser } from 'web-tree-sitter';
import { isTable } from './cargo-files.js';
import {
  type Attributes,
  type ImplSyntax,
  type ItemSyntax,
  type ItemWrapper,
  type ModSyntax,
  type ModuleSyntax,
  moduleSyntax,
  readAttributes,
  type UseSyntax,
} from './syntax.js';

/** A module of a crate as its source defines it (not yet where its items are public). */
export interface CrateModule {
  /** Its path from the crate root as defined (`['runtime', 'task']`); `[]` for the root. */
  readonly path: readonly string[];
  readonly crate: CrateSource;
  readonly parent?: CrateModule;
  /** Declared `pub` (a module declared twice under different cfgs is public when either declaration is). */
  public: boolean;
  doc: string;
  /** The feature conditions on it and on the modules around it. */
  readonly cfg: readonly string[];
  readonly hidden: boolean;
  readonly deprecated?: string;
  readonly items: ItemSyntax[];
  readonly impls: ImplSyntax[];
  readonly uses: UseSyntax[];
  readonly modules: Map<string, CrateModule>;
}

/** A crate read from its source folder. */
export interface CrateSource {
  /** The name code uses for it: `[lib] name`, else the package name with `-` as `_`. */
  readonly name: string;
  readonly dir: string;
  root: CrateModule;
  /** Its `[dependencies]`: the name code uses (a rename) → the package and its version requirement. */
  readonly dependencies: ReadonlyMap<string, { readonly package: string; readonly requirement: string }>;
}

/** Bounds on what one crate's API reads (its own files and the crates it re-exports from). */
export interface CrateLimits {
  /** `.rs` files read. @default 2000 */
  readonly maxFiles: number;
  /** Bytes of source (and files `include_str!` reads for docs). @default 32 MiB */
  readonly maxBytes: number;
  /** Milliseconds spent reading files, after which no more are read. @default 60000 */
  readonly maxMilliseconds?: number;
}

/**
 * Reads crates from their source folders into module trees, as rustc finds a crate's files: the library target
 * (`[lib] path`, else `src/lib.rs`), each `mod foo;` as `foo.rs` or `foo/mod.rs` beside the file that declares it (in
 * the folder named after a non-`mod.rs` file), or its `#[path]`. Items inside item-level macro calls are read too
 * (`cfg_rt! { pub mod task; }`), with the attributes a `macro_rules!` of the crate puts on them (`#[cfg(feature =
 * "rt")]`, the docs of tokio's `doc!`). Every file must be inside the crate's folder (symlinks resolved), and reading
 * stops at the limits, with a warning.
 */
export class CrateReader {
  readonly warnings: string[] = [];
  private files = 0;
  private readonly started = performance.now();
  private bytes = 0;
  private readonly crates = new Map<string, CrateSource | undefined>();

  constructor(
    private readonly parser: Parser,
    private readonly limits: CrateLimits,
  ) {}

  /** The crate in `dir`, read once; undefined without a library target. */
  read(dir: string): CrateSource | undefined {
    const real = realpathSync(dir);
    if (this.crates.has(real)) return this.crates.get(real);
    this.crates.set(real, undefined);
    const crate = new CrateFiles(this, real).read();
    this.crates.set(real, crate);
    return crate;
  }

  /**
   * A dependency of `crate` by the name its code uses (`clap_builder`), found beside it where Cargo keeps crates (a
   * registry's `<name>-<version>` folders, or `vendor/`) at the highest version its requirement allows.
   */
  dependency(crate: CrateSource, name: string): CrateSource | undefined {
    const wanted = crate.dependencies.get(name);
    if (wanted === undefined) return undefined;
    const folder = path.dirname(crate.dir);
    const range = cargoRange(wanted.requirement);
    let best: { dir: string; version: string } | undefined;
    for (const entry of safeList(folder)) {
      const version =
        entry === wanted.package
          ? manifestVersion(path.join(folder, entry))
          : entry.startsWith(`${wanted.package}-`)
            ? entry.slice(wanted.package.length + 1)
            : undefined;
      if (version === undefined || semver.valid(version) === null) continue;
      if (range !== undefined && !semver.satisfies(version, range)) continue;
      if (best === undefined || semver.gt(version, best.version)) best = { dir: path.join(folder, entry), version };
    }
    return best === undefined ? undefined : this.read(best.dir);
  }

  /** Says once what fell short (a limit reached, a crate without a library), for sync's warnings. */
  warn(warning: string): void {
    if (!this.warnings.includes(warning)) this.warnings.push(warning);
  }

  /** Reads a file of a crate within the limits; undefined (and a warning, once) past them. */
  readSource(file: string, crateDir: string): string | undefined {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return undefined;
    }
    if (!real.startsWith(`${crateDir}${path.sep}`)) return undefined;
    const size = safeSize(real);
    if (size === undefined) return undefined;
    if (this.files + 1 > this.limits.maxFiles || this.bytes + size > this.limits.maxBytes) {
      this.warn(`the API pages stop at ${this.limits.maxFiles} source files or ${this.limits.maxBytes} bytes`);
      return undefined;
    }
    const budget = this.limits.maxMilliseconds ?? 60_000;
    if (performance.now() - this.started > budget) {
      this.warn(`the API pages stop after ${Math.round(budget / 1000)} s of reading the crate's source`);
      return undefined;
    }
    this.files += 1;
    this.bytes += size;
    return readFileSync(real, 'utf8');
  }

  parse(text: string): ReturnType<Parser['parse']> {
    return this.parser.parse(text);
  }
}

/** One crate's files, read into its module tree. */
class CrateFiles {
  private readonly seen = new Set<string>();
  private readonly wrappers = new Map<string, Attributes>();

  constructor(
    private readonly reader: CrateReader,
    private readonly dir: string,
  ) {}

  read(): CrateSource | undefined {
    let manifest: TomlTable;
    try {
      manifest = parse(readFileSync(path.join(this.dir, 'Cargo.toml'), 'utf8'));
    } catch (error) {
      this.reader.warn(
        `no API pages for ${path.basename(this.dir)}: its Cargo.toml cannot be read (${(error as Error).message.split('\n')[0]})`,
      );
      return undefined;
    }
    const pkg = isTable(manifest.package) ? manifest.package : {};
    const lib = isTable(manifest.lib) ? manifest.lib : {};
    const packageName = typeof pkg.name === 'string' ? pkg.name : path.basename(this.dir);
    const name = typeof lib.name === 'string' ? lib.name : packageName.replaceAll('-', '_');
    const libPath = typeof lib.path === 'string' ? lib.path : 'src/lib.rs';
    const crate: CrateSource = {
      name,
      dir: this.dir,
      dependencies: dependenciesOf(manifest),
      // Set below, once the root module exists.
      root: undefined as unknown as CrateModule,
    };
    const rootFile = path.join(this.dir, libPath);
    const root = this.newModule(crate, [], undefined, { public: true, cfg: [], hidden: false });
    crate.root = root;
    const text = this.reader.readSource(rootFile, this.dir);
    if (text === undefined) {
      // A binary-only crate has no library to document; a file past the limits has said so already.
      if (safeSize(rootFile) === undefined)
        this.reader.warn(`no API pages for ${packageName}: no library source at ${libPath}`);
      return undefined;
    }
    this.seen.add(rootFile);
    this.readFile(root, rootFile, text, path.dirname(rootFile));
    return crate;
  }

  private newModule(
    crate: CrateSource,
    modulePath: readonly string[],
    parent: CrateModule | undefined,
    facts: { public: boolean; cfg: readonly string[]; hidden: boolean; deprecated?: string },
  ): CrateModule {
    return {
      path: modulePath,
      crate,
      ...(parent ? { parent } : {}),
      public: facts.public,
      doc: '',
      cfg: facts.cfg,
      hidden: facts.hidden,
      ...(facts.deprecated === undefined ? {} : { deprecated: facts.deprecated }),
      items: [],
      impls: [],
      uses: [],
      modules: new Map(),
    };
  }

  /** Parses one file into `module`; its `mod foo;` files are looked for in `childDir`. */
  private readFile(module: CrateModule, file: string, text: string, childDir: string): void {
    const tree = this.reader.parse(text);
    if (tree === null) return;
    try {
      const syntax = moduleSyntax(tree.rootNode, (relative) => this.include(file, relative));
      module.doc = joinDoc(module.doc, syntax.doc);
      this.add(module, syntax, file, childDir, undefined);
    } finally {
      tree.delete();
    }
  }

  /** Adds what a file, an inline module or a macro body holds to `module`, with `wrap`'s attributes on each item. */
  private add(
    module: CrateModule,
    syntax: ModuleSyntax,
    file: string,
    childDir: string,
    wrap: Attributes | undefined,
  ): void {
    for (const wrapper of syntax.wrappers) this.learnWrapper(wrapper);
    const cfg = [...module.cfg, ...syntax.cfg];
    for (const item of syntax.items) module.items.push(withCfg(wrapped(item, wrap), cfg));
    for (const impl of syntax.impls) {
      module.impls.push({ ...impl, cfg: [...new Set([...cfg, ...(wrap?.cfg ?? []), ...impl.cfg])] });
    }
    for (const use of syntax.uses)
      module.uses.push(wrap ? { ...use, cfg: [...wrap.cfg, ...use.cfg], hidden: use.hidden || wrap.hidden } : use);
    for (const mod of syntax.mods) this.addModule(module, wrapped(mod, wrap), file, childDir);
    for (const call of syntax.calls) this.expandCall(module, call, file, childDir, wrap);
  }

  private addModule(parent: CrateModule, mod: ModSyntax, file: string, childDir: string): void {
    const existing = parent.modules.get(mod.name);
    // A `#[doc(hidden)]` module is read all the same: its macros, impls and items may be re-exported elsewhere.
    if (mod.test === true) return;
    const module =
      existing ??
      this.newModule(parent.crate, [...parent.path, mod.name], parent, {
        public: mod.public,
        cfg: [...new Set([...parent.cfg, ...mod.cfg])],
        hidden: mod.hidden,
        ...(mod.deprecated === undefined ? {} : { deprecated: mod.deprecated }),
      });
    if (existing === undefined) parent.modules.set(mod.name, module);
    // `cfg_rt! { pub mod runtime; }` beside `cfg_not_rt! { pub(crate) mod runtime; }`: the public one counts.
    else if (mod.public) existing.public = true;
    const target = module;
    target.doc = joinDoc(target.doc, mod.doc);
    if (mod.inline) {
      this.add(target, mod.inline, file, mod.path ? childDir : path.join(childDir, mod.name), undefined);
      return;
    }
    const candidates = mod.path
      ? [path.resolve(path.dirname(file), mod.path)]
      : [path.join(childDir, `${mod.name}.rs`), path.join(childDir, mod.name, 'mod.rs')];
    for (const candidate of candidates) {
      if (this.seen.has(candidate)) return;
      const text = this.reader.readSource(candidate, this.dir);
      if (text === undefined) continue;
      this.seen.add(candidate);
      const modRs = path.basename(candidate) === 'mod.rs' || mod.path !== undefined;
      this.readFile(
        target,
        candidate,
        text,
        modRs ? path.dirname(candidate) : path.join(path.dirname(candidate), mod.name),
      );
      return;
    }
  }

  /**
   * An item-level macro call: its body read as items when it parses as items (`cfg_rt! { pub mod task; }`), with the
   * attributes the crate's `macro_rules!` of that name wraps them in. A body that is not items (`cfg_if!`'s branches,
   * a DSL) adds nothing.
   */
  private expandCall(
    module: CrateModule,
    call: ModuleSyntax['calls'][number],
    file: string,
    childDir: string,
    outer: Attributes | undefined,
  ): void {
    const name = call.macro.split('::').at(-1) ?? call.macro;
    const tree = this.reader.parse(call.body);
    if (tree === null) return;
    try {
      if (tree.rootNode.hasError) return;
      const body = moduleSyntax(tree.rootNode, (relative) => this.include(file, relative));
      const wrap = merge(merge(outer, call.attributes), this.wrappers.get(name));
      this.add(module, body, file, childDir, wrap);
    } finally {
      tree.delete();
    }
  }

  /** What `macro_rules! name { ($($item:item)*) => { $( #[cfg(…)] $item )* } }` puts on each item it wraps. */
  private learnWrapper(wrapper: ItemWrapper): void {
    const variable = /\$(\w+)\s*:\s*item\b/.exec(wrapper.rule)?.[1];
    const arrow = wrapper.rule.indexOf('=>');
    if (variable === undefined || arrow === -1) return;
    const transcriber = wrapper.rule
      .slice(arrow + 2)
      .trim()
      .slice(1);
    const at = transcriber.indexOf(`$${variable}`);
    if (at === -1) return;
    const prefix = transcriber.slice(0, at).replaceAll('$(', '');
    const tree = this.reader.parse(`${prefix}\nstruct DocsWrapped;`);
    if (tree === null) return;
    try {
      const nodes = tree.rootNode.namedChildren.filter(
        (n): n is NonNullable<typeof n> => n !== null && n.type !== 'struct_item',
      );
      this.wrappers.set(
        wrapper.name,
        readAttributes(nodes, () => undefined),
      );
    } finally {
      tree.delete();
    }
  }

  private include(file: string, relative: string): string | undefined {
    return this.reader.readSource(path.resolve(path.dirname(file), relative), this.dir);
  }
}

function wrapped<T extends Attributes>(item: T, wrap: Attributes | undefined): T {
  if (wrap === undefined) return item;
  return {
    ...item,
    doc: joinDoc(wrap.doc, item.doc),
    cfg: [...new Set([...wrap.cfg, ...item.cfg])],
    hidden: item.hidden || wrap.hidden,
    macroExport: item.macroExport || wrap.macroExport,
    ...(item.deprecated === undefined && wrap.deprecated !== undefined ? { deprecated: wrap.deprecated } : {}),
    ...('kind' in item && item.kind === 'macro' && wrap.macroExport ? { public: true } : {}),
  };
}

function withCfg(item: ItemSyntax, cfg: readonly string[]): ItemSyntax {
  return cfg.length === 0 ? item : { ...item, cfg: [...new Set([...cfg, ...item.cfg])] };
}

function merge(a: Attributes | undefined, b: Attributes | undefined): Attributes | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return {
    doc: joinDoc(a.doc, b.doc),
    cfg: [...new Set([...a.cfg, ...b.cfg])],
    hidden: a.hidden || b.hidden,
    macroExport: a.macroExport || b.macroExport,
    ...(a.deprecated !== undefined
      ? { deprecated: a.deprecated }
      : b.deprecated !== undefined
        ? { deprecated: b.deprecated }
        : {}),
  };
}

function joinDoc(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}\n\n${b}`;
}

/** A manifest's dependencies (all tables, targets too), by the name code uses. */
function dependenciesOf(manifest: TomlTable): Map<string, { package: string; requirement: string }> {
  const found = new Map<string, { package: string; requirement: string }>();
  const tables = [manifest.dependencies];
  if (isTable(manifest.target))
    for (const target of Object.values(manifest.target)) if (isTable(target)) tables.push(target.dependencies);
  for (const table of tables) {
    if (!isTable(table)) continue;
    for (const [key, spec] of Object.entries(table)) {
      const requirement =
        typeof spec === 'string' ? spec : isTable(spec) && typeof spec.version === 'string' ? spec.version : '*';
      const pkg = isTable(spec) && typeof spec.package === 'string' ? spec.package : key;
      found.set(key.replaceAll('-', '_'), { package: pkg, requirement });
    }
  }
  return found;
}

/** A Cargo version requirement as a semver range: a bare `1.2` is `^1.2` in Cargo, `=1.2.3` exact, commas are ANDs. */
function cargoRange(requirement: string): string | undefined {
  const parts = requirement
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => (/^\d/.test(p) ? `^${p}` : p.replace(/^=\s*/, '')));
  return semver.validRange(parts.join(' ')) ?? undefined;
}

function manifestVersion(dir: string): string | undefined {
  try {
    const manifest = parse(readFileSync(path.join(dir, 'Cargo.toml'), 'utf8'));
    const version = isTable(manifest.package) ? manifest.package.version : undefined;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeSize(file: string): number | undefined {
  try {
    const info = statSync(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
