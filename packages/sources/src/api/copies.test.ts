import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageApi } from './index.js';
import { ImplementationComments } from './source-comments.js';

// Comments a package's declarations lose or repeat, laid out as installed packages: an overloaded function whose
// comment stayed on its implementation in the shipped source (rxjs), and a utility belt whose wrapper interfaces repeat
// each function with nothing but `@see` (@types/lodash).
let dir: string;
const limits = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024 };

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

const streamsSource = `/**
 * You passed \`any\`: the result is \`unknown\`.
 */
export function joinAll(arg: any): unknown;
export function joinAll(sources: readonly string[]): string;
/** @deprecated Pass an array instead. */
export function joinAll(...sources: string[]): string;
/**
 * Waits for every source to complete, then emits their last values together.
 * @param args The sources, as an array or as arguments.
 * @see mergeAll
 * @see {@link zipAll}
 */
export function joinAll(...args: any[]): unknown {
  return args;
}

export function plain(a: string): string;
export function plain(a: number): number;
export function plain(a: unknown): unknown {
  return a;
}

export class Stream {
  /** Pipes one operator. */
  pipe(a: number): Stream;
  pipe(a: number, b: number): Stream;
  /**
   * Chains operators, each applied to the last one's result, left to right.
   */
  pipe(...operators: number[]): Stream {
    return this;
  }
}
`;

const streamsDeclarations = `/**
 * You passed \`any\`: the result is \`unknown\`.
 */
export declare function joinAll(arg: any): unknown;
export declare function joinAll(sources: readonly string[]): string;
/** @deprecated Pass an array instead. */
export declare function joinAll(...sources: string[]): string;
export declare function plain(a: string): string;
export declare function plain(a: number): number;
export declare class Stream {
    /** Pipes one operator. */
    pipe(a: number): Stream;
    pipe(a: number, b: number): Stream;
}
//# sourceMappingURL=index.d.ts.map`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-copies-'));
  await write(path.join(dir, 'node_modules'), {
    'streamy/package.json': { name: 'streamy', version: '7.8.1', types: './dist/types/index.d.ts' },
    'streamy/dist/types/index.d.ts': streamsDeclarations,
    'streamy/dist/types/index.d.ts.map': {
      version: 3,
      file: 'index.d.ts',
      sourceRoot: '',
      sources: ['../../src/index.ts'],
      names: [],
      mappings: '',
    },
    'streamy/src/index.ts': streamsSource,
    // The same declarations, but a map that leads out of the package: the source there is not read.
    'escaping/package.json': { name: 'escaping', version: '1.0.0', types: './index.d.ts' },
    'escaping/index.d.ts': streamsDeclarations,
    'escaping/index.d.ts.map': { version: 3, sources: ['../streamy/src/index.ts'], names: [], mappings: '' },
    // Two exported errors extending one base that is not exported.
    'errory/package.json': { name: 'errory', version: '9.5.2', types: './index.d.ts' },
    'errory/index.d.ts': `declare abstract class CommonError extends Error {
    /** The command that was run, as the user wrote it. */
    command: string;
}
/** Why an asynchronous run failed. */
export declare class RunError extends CommonError {
    /** Whether the run was cancelled. */
    isCanceled: boolean;
}
/** Why a synchronous run failed. */
export declare class SyncRunError extends CommonError {
}
export {};
`,
    // A utility belt: one interface documents each function, wrappers repeat it with `@see` alone.
    'belt/package.json': { name: 'belt', version: '4.17.21', types: './index.d.ts' },
    'belt/index.d.ts': `declare const _: _.BeltStatic;
declare namespace _ {
    interface BeltStatic {
        /**
         * Creates a duplicate-free version of an array.
         * @param array The array to inspect.
         * @see _.uniqBy
         */
        uniq<T>(array: T[]): T[];
        /**
         * Removes the given values from an array.
         * @see _.uniq
         */
        pull<T>(array: T[], ...values: T[]): T[];
        /**
         * Removes the elements a predicate picks.
         * @see _.pull
         */
        remove<T>(array: T[]): T[];
        /**
         * @see _.pull
         */
        remove<T>(array: T[], n: number): T[];
    }
    interface Wrapper<T> {
        /**
         * @see _.uniq
         */
        uniq(): Wrapper<T>;
        uniq(other: T): Wrapper<T>;
        /**
         * @see _.pull
         * @see _.uniq
         */
        pullish(): Wrapper<T>;
        /**
         * Takes the wrapper's value out.
         * @see _.uniq
         */
        value(): T;
    }
}
export = _;
`,
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function markdownOf(name: string): Promise<string> {
  const folder = { name, dir: path.join(dir, 'node_modules', name) };
  const api = await packageApi(folder, undefined, limits);
  return api.pages.map((page) => page.markdown).join('\n');
}

/** The section of `heading` (up to the next heading of any level). */
function sectionOf(markdown: string, heading: string): string {
  const start = markdown.search(new RegExp(`^#+ ${heading.replace(/[.$]/g, '\\$&')}$`, 'm'));
  if (start < 0) return '';
  const rest = markdown.slice(start);
  const next = rest.search(/\n#+ /);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('comments of implementations, from the shipped sources a declaration map names', () => {
  it("gives an overloaded function its implementation's comment instead of one overload's note", async () => {
    const joinAll = sectionOf(await markdownOf('streamy'), 'joinAll');
    expect(joinAll).toContain('Waits for every source to complete, then emits their last values together.');
    expect(joinAll).toContain('- `args`: The sources, as an array or as arguments.');
    expect(joinAll).not.toContain('You passed');
    // Only one overload is deprecated, not the function.
    expect(joinAll).not.toContain('Deprecated');
  });

  it("gives a class's overloaded method its implementation's comment", async () => {
    const pipe = sectionOf(await markdownOf('streamy'), 'Stream.pipe');
    expect(pipe).toContain("Chains operators, each applied to the last one's result");
    expect(pipe).not.toContain('Pipes one operator.');
  });

  it('leaves a function whose implementation has no comment as its declarations say', async () => {
    const plain = sectionOf(await markdownOf('streamy'), 'plain');
    expect(plain).toContain('function plain(a: string): string;');
    // A heading, how to import it, the signatures: no comment.
    expect(plain.trim().split('\n\n').length).toBe(3);
  });

  it('reads a map and its source once for all the functions of a declaration file, within the limits', () => {
    const root = path.join(dir, 'node_modules', 'streamy');
    const file = path.join(root, 'dist', 'types', 'index.d.ts');
    const options = { noLib: true, types: [], noEmit: true };
    // Parent pointers, as the API reader's compiler host sets them.
    const program = ts.createProgram([file], options, ts.createCompilerHost(options, true));
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error('the declaration file was not read');
    const warnings: string[] = [];
    // Two files: the map and the source, whatever the number of functions asking.
    const comments = new ImplementationComments(
      ts,
      (name) => name.startsWith(`${root}${path.sep}`),
      { maxFiles: 2, maxBytes: 1024 * 1024 },
      (warning) => warnings.push(warning),
    );
    const overloads = (name: string) =>
      source.statements.filter(
        (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name,
      );
    const klass = source.statements.find(ts.isClassDeclaration);
    const pipe = klass?.members.filter(ts.isMethodDeclaration) ?? [];
    expect(comments.of(overloads('joinAll'))?.doc).toMatch(/^Waits for every source to complete/);
    expect(comments.of(pipe)?.doc).toMatch(/^Chains operators/);
    expect(comments.of(overloads('joinAll'))?.tags).toContainEqual({ name: 'see', text: '{@link zipAll}' });
    // A `@see` another tag follows, without the comment star TypeScript keeps from the next line.
    expect(comments.of(overloads('joinAll'))?.tags).toContainEqual({ name: 'see', text: 'mergeAll' });
    expect(comments.of(overloads('plain'))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('does not read a source the map places outside the package', async () => {
    const joinAll = sectionOf(await markdownOf('escaping'), 'joinAll');
    expect(joinAll).toContain('You passed');
    expect(joinAll).not.toContain('Waits for every source');
  });
});

describe('members declared once and reached through several exports', () => {
  it('documents a member of a base that is not exported on the first page, and counts it on the others', async () => {
    const markdown = await markdownOf('errory');
    expect(sectionOf(markdown, 'RunError.command')).toContain('The command that was run, as the user wrote it.');
    expect(sectionOf(markdown, 'SyncRunError.command')).toBe('');
    expect(markdown.match(/The command that was run/g)?.length).toBe(1);
    expect(markdown).toContain('Shares one member with [`RunError`](RunError.md), documented there.');
    expect(sectionOf(markdown, 'RunError.isCanceled')).toContain('Whether the run was cancelled.');
  });
});

describe('members that only point to the same member documented elsewhere', () => {
  it('documents a function once, where its comment is, and counts the copies on the wrapper', async () => {
    const markdown = await markdownOf('belt');
    expect(sectionOf(markdown, 'belt.BeltStatic.uniq')).toContain('Creates a duplicate-free version of an array.');
    expect(sectionOf(markdown, 'belt.Wrapper.uniq')).toBe('');
    expect(sectionOf(markdown, 'belt.Wrapper')).toContain('Shares one member with [`belt.BeltStatic`]');
  });

  it('keeps a member whose `@see` names another function, or that says something of its own', async () => {
    const markdown = await markdownOf('belt');
    expect(sectionOf(markdown, 'belt.Wrapper.pullish')).toContain('See: _.pull');
    expect(sectionOf(markdown, 'belt.Wrapper.value')).toContain("Takes the wrapper's value out.");
    expect(sectionOf(markdown, 'belt.BeltStatic.pull')).toContain('Removes the given values from an array.');
  });

  it("says a tag its overloads repeat once, and a member's different tags each", async () => {
    const markdown = await markdownOf('belt');
    expect(sectionOf(markdown, 'belt.BeltStatic.remove').match(/See: _\.pull/g)?.length).toBe(1);
    const pullish = sectionOf(markdown, 'belt.Wrapper.pullish');
    expect(pullish).toContain('See: _.pull');
    expect(pullish).toContain('See: _.uniq');
    // TypeScript keeps the next line's comment star in a `@see` another tag follows.
    expect(pullish).not.toMatch(/_\.pull \*/);
  });
});
