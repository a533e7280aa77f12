import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { recordedFiles } from '../environment.js';
import { type PythonApiPage, pythonApiPages } from './markdown.js';
import { interpretersFor, type ModuleFile, type PythonDef, type PythonModule, parseModules } from './parse-modules.js';
import { readmeExamples } from './readme-examples.js';
import { isPublicModule, type PythonObject, publicObjects } from './resolve.js';
import { requiredImports, toolModules } from './tool-modules.js';

export type { PythonApiPage } from './markdown.js';

/** Bounds on what is read for one distribution's API. */
export interface PythonApiLimits {
  /** Python files parsed (`.py` and `.pyi`). */
  readonly maxFiles: number;
  /** Bytes of them, in all. */
  readonly maxBytes: number;
  /** The parser's time, after which it is stopped. */
  readonly timeoutMs: number;
}

/** A distribution's API pages, whether its stubs were read, and what kept them from being whole. */
export interface PythonApiDocs {
  readonly pages: readonly PythonApiPage[];
  readonly fromStubs: boolean;
  readonly warnings: readonly string[];
}

/** Where a distribution's files are: its `.dist-info` folder, in a `site-packages`. */
export interface DistributionFolder {
  readonly dir: string;
}

/**
 * The API of an installed Python distribution as markdown pages, read, never run: its modules from its RECORD (and
 * those of its stub distribution, `types-…` or `…-stubs`, whose `.pyi` files give the signatures where the runtime
 * ships none, as for a compiled module), parsed with Python's `ast` (parse-modules.ts), the public names followed to
 * their definitions (resolve.ts), written as pages (markdown.ts). A module that serves another tool (tool-modules.ts:
 * `pydantic.mypy`) has its pages under `api/other-entry-points/`. A file outside its `site-packages` is not read;
 * past the limits the rest is left out with a warning.
 */
export async function pythonApi(
  runtime: DistributionFolder,
  stubs: DistributionFolder | undefined,
  limits: PythonApiLimits,
  readmes: readonly string[] = [],
): Promise<PythonApiDocs> {
  const warnings: string[] = [];
  const site = await realpath(path.dirname(runtime.dir));
  const sources = new Map<string, { py?: string; pyi?: string; package: boolean; stub: boolean }>();
  const collect = async (distribution: DistributionFolder, stub: boolean) => {
    const root = path.dirname(distribution.dir);
    for (const file of await recordedFiles(distribution.dir)) {
      const match = /^(.*?)(?:\/__init__)?\.(pyi?)$/.exec(file);
      if (!match?.[1] || file.includes('.dist-info/') || file.includes('__pycache__')) continue;
      const parts = match[1].split('/');
      // A stub package (`yaml-stubs/`) types the module it is named after (PEP 561).
      if (parts[0]?.endsWith('-stubs')) parts[0] = parts[0].slice(0, -'-stubs'.length);
      if (!parts.every((part) => /^[A-Za-z_][\w]*$/.test(part))) continue;
      const module = parts.join('.');
      const entry = sources.get(module) ?? { package: file.endsWith(`__init__.${match[2]}`), stub };
      // A module whose `.pyi` the stub distribution gives is documented from it (the provenance says so).
      if (match[2] === 'pyi') Object.assign(entry, { pyi: path.join(root, file), stub: entry.stub || stub });
      else entry.py = path.join(root, file);
      sources.set(module, entry);
    }
  };
  await collect(runtime, false);
  if (stubs) await collect(stubs, true);
  if (sources.size === 0) return { pages: [], fromStubs: false, warnings: ['no Python modules in its RECORD'] };

  // Public modules first, shallow before deep, so the limits cut what matters least.
  const ordered = [...sources].sort(
    ([a], [b]) =>
      Number(!isPublicModule(a)) - Number(!isPublicModule(b)) ||
      a.split('.').length - b.split('.').length ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  const files: ModuleFile[] = [];
  let bytes = 0;
  let cut = false;
  for (const [module, entry] of ordered) {
    for (const file of [entry.pyi, entry.py]) {
      if (file === undefined) continue;
      const real = await realpath(file).catch(() => undefined);
      const stubRoot = stubs ? await realpath(path.dirname(stubs.dir)) : undefined;
      if (
        real === undefined ||
        !(real.startsWith(`${site}${path.sep}`) || (stubRoot && real.startsWith(`${stubRoot}${path.sep}`)))
      )
        continue;
      const size = (await stat(real)).size;
      if (files.length + 1 > limits.maxFiles || bytes + size > limits.maxBytes) {
        cut = true;
        continue;
      }
      bytes += size;
      files.push({ module, path: real, package: entry.package });
    }
  }
  if (cut) warnings.push(`the API pages stop at ${limits.maxFiles} Python files or ${limits.maxBytes} bytes`);
  const parsed = await parseModules(files, {
    interpreters: await interpretersFor(site),
    maxFileBytes: limits.maxBytes,
    timeoutMs: limits.timeoutMs,
  });
  const failed = parsed.filter((m) => m.error !== undefined);
  if (failed.length > 0) {
    warnings.push(
      `${failed.length} Python file${failed.length === 1 ? '' : 's'} not parsed (${failed
        .slice(0, 3)
        .map((m) => `${path.basename(m.path)}: ${m.error}`)
        .join('; ')})`,
    );
  }
  const modules = mergeStubs(parsed.filter((m) => m.error === undefined));
  const own = new Set(modules.keys());
  // Plugins for other tools (a type checker's, a test runner's) answer after the modules users import.
  const tools = toolModules(modules, await requiredImports(site, runtime.dir));
  await followOtherDistributions(modules, site, limits, await interpretersFor(site));
  const objects = await withExamples(publicObjects(modules, own), readmes, site, limits, warnings);
  const moduleDocs = new Map([...modules].map(([name, module]) => [name, module.doc ?? '']));
  const pages = pythonApiPages(objects, moduleDocs, (module) => !tools.has(module));
  const stubbed = new Set([...sources].filter(([, entry]) => entry.stub && entry.pyi !== undefined).map(([m]) => m));
  return { pages, fromStubs: pages.some((page) => stubbed.has(page.module)), warnings };
}

/**
 * The objects with the README paragraphs that introduce an example calling them, or their members (readmeExamples);
 * where the examples cannot be read, as they are, with a warning.
 */
async function withExamples(
  objects: readonly PythonObject[],
  readmes: readonly string[],
  site: string,
  limits: PythonApiLimits,
  warnings: string[],
): Promise<PythonObject[]> {
  if (readmes.length === 0) return [...objects];
  const targets: { object: number; member?: string; name: string; module: string }[] = [];
  for (const [i, object] of objects.entries()) {
    targets.push({ object: i, name: object.name, module: object.module });
    for (const member of object.def.members ?? []) {
      if (member.name.startsWith('_') || member.kind === 'field' || member.kind === 'attribute') continue;
      targets.push({ object: i, member: member.name, name: `${object.name}.${member.name}`, module: object.module });
    }
  }
  let lent: Map<number, string[]>;
  try {
    lent = await readmeExamples(readmes, targets, await interpretersFor(site), limits.timeoutMs);
  } catch (error) {
    warnings.push(`the README's examples lend no words to the API: ${(error as Error).message}`);
    return [...objects];
  }
  const result = [...objects];
  for (const [index, passages] of lent) {
    const target = targets[index];
    const object = target === undefined ? undefined : result[target.object];
    if (!target || !object) continue;
    if (target.member === undefined) result[target.object] = { ...object, mentions: passages };
    else {
      const members = new Map(object.memberMentions ?? []);
      members.set(target.member, passages);
      result[target.object] = { ...object, memberMentions: members };
    }
  }
  return result;
}

// Modules of other distributions read to follow re-exports (pydantic's ValidationError from pydantic_core), and how
// many steps of their own imports are followed (pydantic_core → pydantic_core._pydantic_core).
const MAX_OTHER_MODULES = 40;
const OTHER_ROUNDS = 3;

/**
 * Adds to `modules` the modules of other distributions in `site` that the public modules import from (a compiled
 * core, a helper package), read from their stubs where they ship them, so a name re-exported from them is documented
 * where it is re-exported. Only modules found in `site-packages` (never the standard library or anywhere else), at
 * most MAX_OTHER_MODULES, and none of them gets pages of its own.
 */
async function followOtherDistributions(
  modules: Map<string, PythonModule>,
  site: string,
  limits: PythonApiLimits,
  interpreters: readonly string[],
): Promise<void> {
  const tried = new Set(modules.keys());
  let from = [...modules.keys()].filter(isPublicModule);
  let added = 0;
  for (let round = 0; round < OTHER_ROUNDS && added < MAX_OTHER_MODULES; round++) {
    const wanted = new Set<string>();
    for (const name of from) {
      for (const entry of modules.get(name)?.imports ?? []) {
        const candidates = entry.name === null ? [entry.module] : [entry.module, `${entry.module}.${entry.name}`];
        for (const candidate of candidates) if (candidate !== '' && !tried.has(candidate)) wanted.add(candidate);
      }
    }
    const files: ModuleFile[] = [];
    for (const module of wanted) {
      tried.add(module);
      if (added + files.length >= MAX_OTHER_MODULES) break;
      const file = await moduleFile(site, module);
      if (file) files.push(file);
    }
    if (files.length === 0) return;
    const parsed = await parseModules(files, {
      interpreters,
      maxFileBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
    });
    for (const module of parsed) if (module.error === undefined) modules.set(module.module, module);
    added += files.length;
    from = files.map((file) => file.module);
  }
}

/** The file of module `name` in `site`: its stub first (`.pyi`, a `-stubs` package), then its source; none outside. */
async function moduleFile(site: string, name: string): Promise<ModuleFile | undefined> {
  const parts = name.split('.');
  if (!parts.every((part) => /^[A-Za-z_]\w*$/.test(part))) return undefined;
  const [top, ...rest] = parts as [string, ...string[]];
  for (const root of [`${top}-stubs`, top]) {
    for (const [suffix, isPackage] of [
      ['/__init__.pyi', true],
      ['.pyi', false],
      ['/__init__.py', true],
      ['.py', false],
    ] as const) {
      const file = path.join(site, root, ...rest) + suffix.replace('/', path.sep);
      const real = await realpath(file).catch(() => undefined);
      if (real?.startsWith(`${site}${path.sep}`) && (await stat(real)).isFile())
        return { module: name, path: real, package: isPackage };
    }
  }
  return undefined;
}

/**
 * One module per name: where a `.pyi` stub and a `.py` source both exist, the stub's names and signatures (what a
 * type checker reads), with the docstrings of the source where the stub has none (stubs seldom carry them).
 */
function mergeStubs(parsed: readonly PythonModule[]): Map<string, PythonModule> {
  const bySource = new Map<string, PythonModule>();
  const byStub = new Map<string, PythonModule>();
  for (const module of parsed) (module.path.endsWith('.pyi') ? byStub : bySource).set(module.module, module);
  const merged = new Map<string, PythonModule>(bySource);
  for (const [name, stub] of byStub) {
    const source = bySource.get(name);
    if (!source) {
      merged.set(name, stub);
      continue;
    }
    const sourceDefs = new Map((source.defs ?? []).map((def) => [def.name, def]));
    merged.set(name, {
      ...stub,
      doc: stub.doc || source.doc || '',
      all: stub.all ?? source.all ?? null,
      defs: (stub.defs ?? []).map((def) => withDocs(def, sourceDefs.get(def.name))),
    });
  }
  return merged;
}

function withDocs(stub: PythonDef, source: PythonDef | undefined): PythonDef {
  if (!source) return stub;
  const sourceMembers = new Map((source.members ?? []).map((member) => [member.name, member]));
  return {
    ...stub,
    doc: stub.doc || source.doc,
    ...(stub.members
      ? {
          members: stub.members.map((member) => ({
            ...member,
            doc: member.doc || (sourceMembers.get(member.name)?.doc ?? ''),
          })),
        }
      : {}),
  };
}
