import { readFile } from 'node:fs/promises';
import { goOnPath, runGo } from './go-command.js';

/** A module path at a version, or a folder (a `replace` to a local directory has no version). */
export interface ModuleVersion {
  readonly path: string;
  readonly version?: string;
}

/** A `require` line of a go.mod. */
export interface Requirement {
  readonly path: string;
  readonly version: string;
  /** Marked `// indirect`: needed by a dependency, not imported by the module itself. */
  readonly indirect: boolean;
}

/** A `replace` line: `old` (every version, or one) is taken from `new` (another module version, or a folder). */
export interface Replacement {
  readonly old: ModuleVersion;
  readonly new: ModuleVersion;
}

/** What docs reads of a go.mod or go.work file. */
export interface GoModFile {
  /** The module's own path (go.mod). */
  readonly module?: string;
  readonly require: readonly Requirement[];
  readonly replace: readonly Replacement[];
  /** The `use` folders of a go.work, as written. */
  readonly use: readonly string[];
}

/** How a go.mod was read: by `go mod edit -json` (the toolchain's own parser) or by {@link parseGoMod}. */
export type GoModReader = 'go' | 'parser';

/**
 * A go.mod or go.work file, read by the toolchain's own parser where `go` is on PATH (`go mod edit -json` and
 * `go work edit -json` only parse: they neither download nor build), else by {@link parseGoMod}. A file that
 * cannot be parsed throws, with go's message.
 */
export async function readGoMod(file: string): Promise<{ file: GoModFile; reader: GoModReader }> {
  const work = file.endsWith('.work');
  if (await goOnPath()) {
    const run = await runGo([work ? 'work' : 'mod', 'edit', '-json', file], { env: { GOFLAGS: '' } });
    if (!run.ok) throw new Error(`cannot read ${file}: ${run.error}`);
    return { file: fromEditJson(JSON.parse(run.stdout) as EditJson), reader: 'go' };
  }
  return { file: parseGoMod(await readFile(file, 'utf8'), file), reader: 'parser' };
}

interface EditJson {
  readonly Module?: { readonly Path?: string };
  readonly Require?: ReadonlyArray<{ Path: string; Version: string; Indirect?: boolean }> | null;
  readonly Replace?: ReadonlyArray<{
    Old: { Path: string; Version?: string };
    New: { Path: string; Version?: string };
  }> | null;
  readonly Use?: ReadonlyArray<{ DiskPath: string }> | null;
}

function fromEditJson(json: EditJson): GoModFile {
  const version = (v: { Path: string; Version?: string }): ModuleVersion =>
    v.Version ? { path: v.Path, version: v.Version } : { path: v.Path };
  return {
    ...(json.Module?.Path ? { module: json.Module.Path } : {}),
    require: (json.Require ?? []).map((r) => ({ path: r.Path, version: r.Version, indirect: r.Indirect === true })),
    replace: (json.Replace ?? []).map((r) => ({ old: version(r.Old), new: version(r.New) })),
    use: (json.Use ?? []).map((u) => u.DiskPath),
  };
}

/**
 * A go.mod or go.work file parsed by its grammar (golang.org/x/mod/modfile's): lines of tokens, `//` comments,
 * interpreted strings ("…"; raw ones are refused, as go refuses them), and a verb's block in parentheses. It reads `module`, `require` (with
 * its `// indirect` comment), `replace` and `use`; other directives (`go`, `toolchain`, `exclude`, `retract`,
 * `godebug`) are passed over. Used where `go` is not on PATH, and for the version a bare library name answers,
 * which must not start a process per question. Throws on a line it cannot read.
 *
 * @example
 * parseGoMod('module m\nrequire github.com/spf13/cobra v1.8.1\n').require;
 * // → [{ path: 'github.com/spf13/cobra', version: 'v1.8.1', indirect: false }]
 */
export function parseGoMod(text: string, file = 'go.mod'): GoModFile {
  let module: string | undefined;
  const require: Requirement[] = [];
  const replace: Replacement[] = [];
  const use: string[] = [];
  let block: string | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const fail = (why: string): never => {
      throw new Error(`${file}:${index + 1}: ${why}`);
    };
    const { tokens, comment } = lexLine(line, fail);
    if (tokens.length === 0) continue;
    let verb: string;
    let args: string[];
    if (block !== undefined) {
      if (tokens.length === 1 && tokens[0] === ')') {
        block = undefined;
        continue;
      }
      verb = block;
      args = tokens;
    } else if (tokens.length === 2 && tokens[1] === '(') {
      block = tokens[0] as string;
      continue;
    } else {
      [verb, ...args] = tokens as [string, ...string[]];
    }
    switch (verb) {
      case 'module':
        module = args[0] ?? fail('module without a path');
        break;
      case 'require': {
        if (args.length !== 2) fail('require wants a module path and a version');
        const [path, version] = args as [string, string];
        require.push({ path, version, indirect: /^\s*indirect\s*(?:;|$)/.test(comment) });
        break;
      }
      case 'replace': {
        const arrow = args.indexOf('=>');
        if (arrow < 1 || arrow > 2 || args.length - arrow - 1 < 1 || args.length - arrow - 1 > 2) {
          fail('replace wants `path [version] => path [version]`');
        }
        const side = (part: string[]): ModuleVersion =>
          part[1] === undefined ? { path: part[0] as string } : { path: part[0] as string, version: part[1] };
        replace.push({ old: side(args.slice(0, arrow)), new: side(args.slice(arrow + 1)) });
        break;
      }
      case 'use':
        use.push(args[0] ?? fail('use without a folder'));
        break;
      default:
        // go, toolchain, exclude, retract, godebug, ignore, tool: nothing docs reads.
        break;
    }
  }
  if (block !== undefined) throw new Error(`${file}: the ${block} block is not closed`);
  return { ...(module === undefined ? {} : { module }), require, replace, use };
}

/** One line's tokens (strings unquoted) and its `//` comment's text. */
function lexLine(line: string, fail: (why: string) => never): { tokens: string[]; comment: string } {
  const tokens: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (line.startsWith('//', i)) {
      return { tokens, comment: line.slice(i + 2) };
    } else if (c === '(' || c === ')' || c === '[' || c === ']' || c === ',') {
      tokens.push(c);
      i++;
    } else if (line.startsWith('=>', i)) {
      tokens.push('=>');
      i += 2;
    } else if (c === '"') {
      // An interpreted string, as Go's strconv.Unquote reads it (JSON's escapes are a subset docs accepts).
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length) fail('unterminated string');
      try {
        tokens.push(JSON.parse(line.slice(i, j + 1)) as string);
      } catch {
        fail(`cannot read the string ${line.slice(i, j + 1)}`);
      }
      i = j + 1;
    } else if (c === '`') {
      // The lexer knows raw strings, but no module path or version may be one (modfile's parseString).
      fail('invalid quoted string: a raw string cannot be a module path or version');
    } else {
      let j = i;
      while (j < line.length && !' \t()[],"`'.includes(line[j] as string) && !line.startsWith('//', j)) {
        if (line.startsWith('=>', j)) break;
        j++;
      }
      tokens.push(line.slice(i, j));
      i = j;
    }
  }
  return { tokens, comment: '' };
}
