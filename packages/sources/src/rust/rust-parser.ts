import { createRequire } from 'node:module';
import type { Parser as TreeSitterParser } from 'web-tree-sitter';

let loading: Promise<TreeSitterParser> | undefined;

/**
 * A tree-sitter parser for Rust: web-tree-sitter's runtime and tree-sitter-rust's grammar, both WebAssembly loaded
 * from their installed npm packages (never the network), once per process (~160 ms). Rust source is parsed, never
 * compiled or run: a crate's build script and macros stay unexecuted.
 */
export function rustParser(): Promise<TreeSitterParser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<TreeSitterParser> {
  const require = createRequire(import.meta.url);
  const runtime = require.resolve('web-tree-sitter/tree-sitter.wasm');
  const grammar = require.resolve('tree-sitter-rust/tree-sitter-rust.wasm');
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init({ locateFile: () => runtime });
  const parser = new Parser();
  parser.setLanguage(await Language.load(grammar));
  return parser;
}
