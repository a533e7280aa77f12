import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { INSPECT_SCRIPT } from './inspect-script.js';

/** A definition in a module, as the parser reports it. */
export interface PythonDef {
  readonly kind: 'class' | 'function' | 'method' | 'property' | 'variable' | 'field' | 'attribute';
  readonly name: string;
  readonly line: number;
  readonly signature: string;
  readonly doc: string;
  /** The `@deprecated` message ('' without one), or null when not deprecated. */
  readonly deprecated: string | null;
  readonly overload?: boolean;
  readonly setter?: boolean;
  readonly decorators?: readonly string[];
  readonly members?: readonly PythonDef[];
  /** A variable that names something else (`ValidationError = pydantic_core.ValidationError`): that dotted name. */
  readonly alias?: string;
}

/** An import statement's name: `from <module> import <name> as <local>`, or `import <module>` (name null). */
export interface PythonImport {
  readonly local: string;
  readonly module: string;
  readonly name: string | null;
  /** Under an `if` or a `try` at module level (`TYPE_CHECKING`, an optional dependency): not needed to load it. */
  readonly conditional?: boolean;
  /** An absolute import of the interpreter's standard library. */
  readonly stdlib?: boolean;
}

/** What one module defines and imports. */
export interface PythonModule {
  readonly module: string;
  readonly path: string;
  readonly doc?: string;
  /** Its literal `__all__`, or null without one. */
  readonly all?: readonly string[] | null;
  readonly imports?: readonly PythonImport[];
  readonly defs?: readonly PythonDef[];
  /** Why it could not be parsed (a syntax error, too large); then it holds nothing else. */
  readonly error?: string;
}

/** A file to parse as a module. */
export interface ModuleFile {
  readonly module: string;
  readonly path: string;
  /** An `__init__` file: its module is a package, and relative imports start from it. */
  readonly package: boolean;
}

/** Options for {@link parseModules}. */
export interface ParseOptions {
  /** The interpreters to try, in order; the first that starts parses. */
  readonly interpreters: readonly string[];
  readonly maxFileBytes: number;
  readonly timeoutMs: number;
}

/**
 * The modules in `files`, parsed by Python's own `ast` in a subprocess of the project's interpreter: the grammar
 * the installed code was written for, and docstrings, decorators and signatures as Python reads them. The
 * interpreter runs isolated (`-I -S`: no site-packages, so no `.pth` file of an installed package runs) and only
 * parses; nothing it reads is imported. One call per distribution, killed at `timeoutMs`.
 */
export async function parseModules(files: readonly ModuleFile[], options: ParseOptions): Promise<PythonModule[]> {
  if (files.length === 0) return [];
  const input = JSON.stringify({ files, maxFileBytes: options.maxFileBytes });
  let lastError: Error | undefined;
  for (const interpreter of options.interpreters) {
    try {
      const stdout = await runPython(interpreter, input, options.timeoutMs);
      const parsed = JSON.parse(stdout) as { modules?: PythonModule[] };
      if (!Array.isArray(parsed.modules)) throw new Error('the parser printed no modules');
      return parsed.modules;
    } catch (error) {
      lastError = error as Error;
      // An interpreter that is not there is tried past; one that ran and failed is the answer.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') break;
    }
  }
  throw new Error(`could not parse the Python files: ${lastError?.message ?? 'no interpreter'}`);
}

/** Runs `script` (default: the module parser) with `interpreter`, isolated (`-I -S`), `input` on its stdin. */
export function runPython(
  interpreter: string,
  input: string,
  timeoutMs: number,
  script: string = INSPECT_SCRIPT,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      interpreter,
      ['-I', '-S', '-X', 'utf8', '-c', script],
      { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        if (error) {
          const reason = error.killed
            ? `timed out after ${timeoutMs / 1000} s`
            : (stderr.trim().split('\n').pop() ?? '');
          reject(
            Object.assign(new Error(`${path.basename(interpreter)}: ${reason || error.message}`), { code: error.code }),
          );
        } else resolve(stdout);
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/**
 * The interpreters that may parse a distribution installed in `site`: the virtualenv's own (the Python the code was
 * installed for), then `python3` and `python` on the PATH. The virtualenv's is taken only as `python -m venv` makes
 * it, a link to an interpreter outside the folder holding the virtualenv, and run by that real path: a project
 * arrives with a `git clone`, and an executable committed inside it (a `.venv/bin/python3` that is a script) would be
 * code of the project's choosing. A copied interpreter (`--copies`, Windows) is passed over for the one on the PATH.
 */
export async function interpretersFor(site: string): Promise<string[]> {
  const found: string[] = [];
  let dir = site;
  for (let depth = 0; depth < 4; depth++) {
    dir = path.dirname(dir);
    if (await stat(path.join(dir, 'pyvenv.cfg')).catch(() => undefined)) {
      const holder = `${await realpath(path.dirname(dir)).catch(() => path.dirname(dir))}${path.sep}`;
      for (const candidate of ['bin/python3', 'bin/python', 'Scripts/python.exe']) {
        const real = await realpath(path.join(dir, ...candidate.split('/'))).catch(() => undefined);
        if (real !== undefined && !real.startsWith(holder) && !found.includes(real)) found.push(real);
      }
      break;
    }
  }
  return [...found, 'python3', 'python'];
}
