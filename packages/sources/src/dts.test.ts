import { describe, expect, it } from 'vitest';
import { declarationsToMarkdown, documentedDeclarations } from './dts.js';

const source = `import type { Options } from './options.js';
/** A file header that documents nothing. */
export * from './other.js';
/**
 * Parses text into a tree.
 *
 * @param text - The source text.
 * @param options - How to parse, e.g. \`{ strict: true }\`.
 * @returns The tree; see {@link Tree}.
 * @example
 * parse('a + b');
 */
export declare function parse(text: string, options?: { strict: boolean }): Tree;
/** Parses text into a tree. */
export declare function parse(text: string): Tree;
export declare class Parser<T extends { kind: string }> {
  /** Creates a parser. */
  constructor(options: Options);
  /** The text parsed so far. */
  readonly text: string;
  /** @internal */
  secret(): void;
  undocumented(): void;
  /** Parses one node; "quotes; and { braces }" do not confuse it. */
  next(): T | undefined;
}
/** How strict to be. */
export declare enum Mode {
  /** Refuse anything odd. */
  Strict = 0,
  /** Accept what can be read. */
  Loose = 1
}
export interface Tree {
  /** Child nodes. */
  children: Tree[];
}
`;

describe('documentedDeclarations', () => {
  it('finds documented declarations and members with their containers, skipping @internal and undocumented ones', () => {
    const found = documentedDeclarations(source);
    expect(found.map((d) => d.name)).toEqual([
      'parse',
      'parse',
      'Parser.constructor',
      'Parser.text',
      'Parser.next',
      'Mode',
      'Mode.Strict',
      'Mode.Loose',
      'Tree.children',
    ]);
    expect(found[0]?.signature).toBe(
      'export declare function parse(text: string, options?: { strict: boolean }): Tree',
    );
    expect(found.find((d) => d.name === 'Parser.next')?.doc).toBe(
      'Parses one node; "quotes; and { braces }" do not confuse it.',
    );
  });

  it('writes a page with a section per declaration, members under their container, tags as markdown', () => {
    const markdown = declarationsToMarkdown('lib API', documentedDeclarations(source));
    expect(markdown).toContain('# lib API\n\n## parse\n\nParses text into a tree.');
    expect(markdown).toContain('- `text`: The source text.\n- `options`: How to parse');
    expect(markdown).toContain('Returns: The tree; see `Tree`.');
    expect(markdown).toContain("Example:\n\n```ts\nparse('a + b');\n```");
    expect(markdown).toContain('## Parser\n\n### Parser.constructor');
    expect(markdown).toContain('## Tree\n\n### Tree.children');
    expect(markdown).not.toContain('secret');
  });
});
