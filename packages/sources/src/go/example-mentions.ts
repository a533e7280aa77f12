import type { DocExample } from '../api/doc-examples.js';
import { passage } from '../api/markdown-tokens.js';
import type { GoExampleCall, GoExampleCalls, GoExampleInput, GoPackage } from './doc-helper.js';

/**
 * What a Go module's own examples do, in its own words. A method's doc comment often says what it is
 * (`ShouldBindJSON is a shortcut for c.ShouldBindWith(obj, binding.JSON)`), while its users ask for what it does
 * ("bind a JSON request body to a struct"); the module's README and docs say that around the examples that call
 * it: the heading and the prose before the example, and the comments on the statements around the call
 * (`// Example for binding JSON`). Those words are lent to the API section of what the example calls. The code is
 * read by go/parser in the API reader (`doc-helper.ts`); this module matches its calls to the module's API.
 */

/** Bounds, each with its reason. */
export interface GoMentionOptions {
  /** Passages an API takes at most (in the docs' order): its section stays about it. @default 3 */
  readonly maxPassages: number;
  /** Characters of one passage. @default 320 */
  readonly maxPassageChars: number;
  /**
   * APIs one passage may lend to at most: an example showing more of them shows how they fit together, not what
   * any one does. Counted without the example's setting (below). @default 3
   */
  readonly maxNamed: number;
  /**
   * A name more APIs than this share (`Error`, `String`) is matched only where the example says whose it is (the
   * receiver's declared type, or the package it is called through). @default 2
   */
  readonly maxSharing: number;
  /**
   * An API that more than this share of the module's examples call (creating the router, starting it, writing a
   * response) is the setting of the examples, not what any one of them shows: it takes no words, and does not
   * count toward `maxNamed`. @default 0.1
   */
  readonly settingShare: number;
  /** …and at least this many examples. @default 3 */
  readonly settingMin: number;
}

const GO_MENTION_DEFAULTS: GoMentionOptions = {
  maxPassages: 3,
  maxPassageChars: 320,
  maxNamed: 3,
  maxSharing: 2,
  settingShare: 0.1,
  settingMin: 3,
};

/** Go's fence labels; an unlabelled block is tried too, and read only where it parses whole as Go. */
export function isGoFence(language: string): boolean {
  return /^(?:|go|golang)$/i.test(language);
}

/** The reader's input for the docs' examples. */
export function goExampleInputs(examples: readonly DocExample[]): GoExampleInput[] {
  return examples.map((e) => ({ code: e.code, labelled: e.language !== '' }));
}

/** An API an example can call: a function, a type, or a method (`recv`), in a package named `pkg`. */
interface Api {
  /** The key its section is found by: {@link goApiKey}. */
  readonly key: string;
  readonly name: string;
  readonly pkg: string;
  readonly recv?: string;
  /** For a function grouped under a type (a constructor), that type. */
  readonly returns?: string;
}

/** The key of an API section: its package's import path and its name as headed (`Context.ShouldBindJSON`). */
export function goApiKey(importPath: string, name: string): string {
  return `${importPath} ${name}`;
}

function apisOf(packages: readonly GoPackage[]): Api[] {
  const apis: Api[] = [];
  for (const pkg of packages) {
    const key = (name: string) => goApiKey(pkg.importPath, name);
    for (const fn of pkg.funcs ?? []) apis.push({ key: key(fn.name), name: fn.name, pkg: pkg.name });
    for (const type of pkg.types ?? []) {
      apis.push({ key: key(type.name), name: type.name, pkg: pkg.name });
      for (const fn of type.funcs ?? []) {
        apis.push({ key: key(fn.name), name: fn.name, pkg: pkg.name, returns: type.name });
      }
      for (const fn of type.methods ?? []) {
        const recv = fn.recv ?? type.name;
        apis.push({ key: key(`${recv}.${fn.name}`), name: fn.name, pkg: pkg.name, recv });
      }
    }
  }
  return apis;
}

/**
 * For each API section (by {@link goApiKey}), the passages of the docs that introduce an example calling it, at
 * most `maxPassages` each: the comments on the statements around the call (nearest first), then the example's
 * heading and prose. `calls[i]` is what `examples[i]` calls, as the reader found.
 *
 * @example
 * goMentions(packages, [{ code, language: 'go', heading: 'Model binding', prose: [] }], [calls]);
 * // → Map { 'github.com/gin-gonic/gin Context.ShouldBindJSON' => ['Example for binding JSON', 'Model binding'] }
 */
export function goMentions(
  packages: readonly GoPackage[],
  examples: readonly DocExample[],
  calls: readonly GoExampleCalls[],
  options: GoMentionOptions = GO_MENTION_DEFAULTS,
): Map<string, string[]> {
  const apis = apisOf(packages);
  const byName = new Map<string, Api[]>();
  for (const api of apis) byName.set(api.name, [...(byName.get(api.name) ?? []), api]);
  const packageNames = new Set(packages.map((p) => p.name));
  const resolve = (call: GoExampleCall): Api[] => resolveCall(call, byName, packageNames, options.maxSharing);

  // Which APIs each example calls, and how many examples call each.
  const resolved = calls.map((block) => block.calls.map((call) => ({ call, apis: resolve(call) })));
  const examplesCalling = new Map<string, number>();
  for (const block of resolved) {
    for (const key of new Set(block.flatMap((c) => c.apis.map((a) => a.key)))) {
      examplesCalling.set(key, (examplesCalling.get(key) ?? 0) + 1);
    }
  }
  const withCalls = resolved.filter((block) => block.some((c) => c.apis.length > 0)).length;
  const settingAbove = Math.max(options.settingMin, options.settingShare * withCalls);
  const setting = (key: string) => (examplesCalling.get(key) ?? 0) > settingAbove;

  const lent = new Map<string, string[]>();
  const lend = (words: string, keys: ReadonlySet<string>) => {
    const text = passage(words, options.maxPassageChars);
    if (text === '' || keys.size === 0 || keys.size > options.maxNamed) return;
    for (const key of keys) {
      const list = lent.get(key) ?? [];
      if (list.length < options.maxPassages && !list.includes(text)) lent.set(key, [...list, text]);
    }
  };
  for (const [i, block] of resolved.entries()) {
    const example = examples[i];
    const comments = calls[i]?.comments ?? [];
    if (example === undefined) continue;
    // A comment lends to what is called in the statements it sits on.
    const byComment = new Map<number, Set<string>>();
    for (const { call, apis: found } of block) {
      for (const api of found) {
        if (setting(api.key)) continue;
        for (const index of call.within ?? []) {
          byComment.set(index, (byComment.get(index) ?? new Set()).add(api.key));
        }
      }
    }
    for (const [index, keys] of [...byComment].sort((a, b) => a[0] - b[0])) {
      const comment = comments[index];
      if (comment !== undefined) lend(comment, keys);
    }
    // The heading and prose lend to what the whole example shows.
    const shown = new Set(block.flatMap((c) => c.apis.map((a) => a.key)).filter((key) => !setting(key)));
    lend([example.heading, ...example.prose].filter((p) => p !== '').join(' — '), shown);
  }
  return lent;
}

/**
 * The APIs a call may be: those of its last name, narrowed by what the example says of its receiver. `gin.Default()`
 * (a package's name, not a variable) is package `gin`'s function; `c.JSON(…)` with `c *gin.Context` is
 * `Context.JSON`; `r.GET(…)` with `r := gin.Default()` is a method of what `Default` returns, or, where that type
 * has none of the name (an embedded type's method), the one or two methods of the name.
 */
function resolveCall(
  call: GoExampleCall,
  byName: ReadonlyMap<string, readonly Api[]>,
  packageNames: ReadonlySet<string>,
  maxSharing: number,
): Api[] {
  const name = call.path.at(-1);
  const candidates = name === undefined ? [] : (byName.get(name) ?? []);
  if (candidates.length === 0) return [];
  const first = call.path[0] ?? '';
  if (call.path.length === 1) {
    const loose = candidates.filter((a) => a.recv === undefined);
    return loose.length <= maxSharing ? loose : [];
  }
  // A longer path's receiver is a field of a field (`c.Request.URL.Query()`): whose, the example does not say.
  if (call.path.length > 2) return [];
  if (call.type === undefined && call.from === undefined && packageNames.has(first)) {
    return candidates.filter((a) => a.recv === undefined && a.pkg === first);
  }
  const methods = candidates.filter((a) => a.recv !== undefined);
  const receiver = call.type ?? constructed(call.from, byName);
  const own = receiver === undefined ? [] : methods.filter((a) => a.recv === receiver);
  if (own.length > 0) return own;
  return methods.length <= maxSharing ? methods : [];
}

/** The type a function named `from` returns, where the module's only functions of that name construct one type. */
function constructed(from: string | undefined, byName: ReadonlyMap<string, readonly Api[]>): string | undefined {
  if (from === undefined) return undefined;
  const types = new Set((byName.get(from) ?? []).map((a) => a.returns));
  const [only] = types;
  return types.size === 1 ? only : undefined;
}
