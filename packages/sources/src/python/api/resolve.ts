import type { PythonDef, PythonModule } from './parse-modules.js';

/** A public object of a distribution, documented once, where its package's docs would put it. */
export interface PythonObject {
  /** The module it is documented under: the shortest public one that exports it (`pydantic`, not `pydantic.main`). */
  readonly module: string;
  /** The name it is imported by there. */
  readonly name: string;
  readonly def: PythonDef;
  /** The `@overload` signatures before the implementation's, together. */
  readonly overloads: readonly string[];
  /** Other public modules that export it, as `module.name`. */
  readonly aliases: readonly string[];
  /** The README's paragraphs introducing an example that calls it (readme-examples.ts). */
  readonly mentions?: readonly string[];
  /** The same for its members, by member name. */
  readonly memberMentions?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Whether a module path is public: no part with a leading underscore (`__init__` aside) and no test module
 * ({@link isTestModule}).
 */
export function isPublicModule(module: string): boolean {
  return !isTestModule(module) && module.split('.').every((part) => !part.startsWith('_'));
}

/**
 * Whether a module is part of a test suite: in a test folder, or a test module as pytest finds them (`test_*.py`,
 * `*_test.py`, `conftest.py`): a suite shipped for others to run, not API.
 */
function isTestModule(module: string): boolean {
  return module
    .split('.')
    .some(
      (part) =>
        part === 'tests' ||
        part === 'test' ||
        part === 'conftest' ||
        part.startsWith('test_') ||
        part.endsWith('_test'),
    );
}

// How deep a chain of re-exports is followed (`from .a import x` in b, `from .b import x` in c …).
const MAX_HOPS = 16;

/**
 * The public API of a set of parsed modules, as Python's import system resolves it without running anything: each
 * public module's names (its `__all__`, else what it defines and, for a package, what it imports from its own
 * package), each followed through `from … import` and `from … import *` to the module that defines it. An object
 * reachable from several modules is listed once, under the shortest module path (then the one that sorts first),
 * with the others as aliases. Names that lead outside `modules`, or to a module, are left out.
 */
export function publicObjects(
  modules: ReadonlyMap<string, PythonModule>,
  own: ReadonlySet<string> = new Set(modules.keys()),
): PythonObject[] {
  const defsOf = new Map<string, Map<string, PythonDef[]>>();
  for (const [name, module] of modules) {
    const byName = new Map<string, PythonDef[]>();
    for (const def of module.defs ?? []) byName.set(def.name, [...(byName.get(def.name) ?? []), def]);
    defsOf.set(name, byName);
  }
  const exportsCache = new Map<string, readonly string[]>();
  const exportsOf = (moduleName: string, depth = 0): readonly string[] => {
    const cached = exportsCache.get(moduleName);
    if (cached) return cached;
    const module = modules.get(moduleName);
    if (!module || depth > MAX_HOPS) return [];
    exportsCache.set(moduleName, []);
    let names: string[];
    if (module.all) names = [...module.all];
    else {
      const isPackage = /__init__\.pyi?$/.test(module.path);
      const top = moduleName.split('.')[0];
      // Without `__all__`, a module-level variable with no docstring is most often a detail (a logger, a type
      // variable, an alias kept for compatibility), not API; one `__all__` lists is kept, documented or not.
      names = (module.defs ?? []).filter((def) => def.kind !== 'variable' || def.doc !== '').map((def) => def.name);
      for (const entry of module.imports ?? []) {
        if (entry.name === '*') names.push(...exportsOf(entry.module, depth + 1));
        else if (isPackage && entry.name !== null && entry.module.split('.')[0] === top) names.push(entry.local);
      }
      names = names.filter((name) => !name.startsWith('_'));
    }
    const unique = [...new Set(names)];
    exportsCache.set(moduleName, unique);
    return unique;
  };
  /** Where `name` in `moduleName` is defined: the module and the definitions, or undefined. */
  function resolve(moduleName: string, name: string, hops = 0): { module: string; defs: PythonDef[] } | undefined {
    if (hops > MAX_HOPS) return undefined;
    const defined = defsOf.get(moduleName)?.get(name);
    const module = modules.get(moduleName);
    const alias = defined?.[0]?.alias;
    if (defined && alias !== undefined && defined[0]?.doc === '' && module) {
      // `X = pkg.X` after `import pkg`: what `pkg.X` is, when it can be followed.
      const followed = followAlias(module, alias, hops);
      if (followed) return followed;
    }
    if (defined) return { module: moduleName, defs: defined };
    if (!module) return undefined;
    for (const entry of module.imports ?? []) {
      if (entry.local !== name || entry.name === null || entry.name === '*') continue;
      // `from . import sub`: a module, documented on its own page.
      if (modules.has(`${entry.module}.${entry.name}`)) return undefined;
      return resolve(entry.module, entry.name, hops + 1);
    }
    for (const entry of module.imports ?? []) {
      if (entry.name === '*' && exportsOf(entry.module).includes(name)) return resolve(entry.module, name, hops + 1);
    }
    return undefined;
  }
  function followAlias(module: PythonModule, alias: string, hops: number) {
    const [head, ...rest] = alias.split('.');
    const last = rest.pop();
    if (!head || !last) return undefined;
    const imported = (module.imports ?? []).find((entry) => entry.local === head);
    if (!imported) return undefined;
    const base = imported.name === null ? imported.module : `${imported.module}.${imported.name}`;
    return resolve([base, ...rest].join('.'), last, hops + 1);
  }
  const reached = new Map<string, { def: PythonDef[]; places: { module: string; name: string }[] }>();
  // Only the distribution's own modules are documented; others (a compiled core it re-exports) are followed into.
  const publicModules = [...modules.keys()].filter((name) => own.has(name) && isPublicModule(name)).sort();
  for (const moduleName of publicModules) {
    for (const name of exportsOf(moduleName)) {
      const found = resolve(moduleName, name);
      const first = found?.defs[0];
      // A suite's test cases are not API where a package re-exports them either (`from .test_select import *`).
      if (!found || !first || isTestModule(found.module)) continue;
      const key = `${found.module}\0${first.name}`;
      const entry = reached.get(key) ?? { def: found.defs, places: [] };
      entry.places.push({ module: moduleName, name });
      reached.set(key, entry);
    }
  }
  const objects: PythonObject[] = [];
  for (const { def, places } of reached.values()) {
    const [home, ...others] = [...places].sort(
      (a, b) =>
        a.module.split('.').length - b.module.split('.').length ||
        a.module.length - b.module.length ||
        (a.module < b.module ? -1 : a.module > b.module ? 1 : 0),
    );
    if (!home) continue;
    const implementation = def.find((d) => !d.overload) ?? def[def.length - 1];
    if (!implementation) continue;
    const overloads = def.filter((d) => d.overload).map((d) => d.signature);
    const documented = implementation.doc !== '' ? implementation : (def.find((d) => d.doc !== '') ?? implementation);
    objects.push({
      module: home.module,
      name: home.name,
      def: { ...implementation, doc: documented.doc },
      overloads,
      aliases: others.map((o) => `${o.module}.${o.name}`),
    });
  }
  return objects;
}
