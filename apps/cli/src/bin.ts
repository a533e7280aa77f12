#!/usr/bin/env node
import module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import envPaths from 'env-paths';
import { runCachedScript } from './code-cache.js';

const cache = envPaths('docs', { suffix: '' }).cache;
// Node ≥ 22.1 keeps the compiled code of the ES modules loaded later (a command beside the bundle, the packages it
// imports) on disk; Node 20 has no such cache, and the call is skipped there. In the user's cache folder
// (~/.cache/docs), not Node's default under the temp folder: a cache there is wiped by the system and is a folder a
// command leaves behind in $TMPDIR.
(module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache?.(
  process.env.NODE_COMPILE_CACHE || path.join(cache, 'node-compile-cache'),
);

// Output piped into a reader that stops early (`docs search x | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The argument parser, the config and the query commands are one CommonJS bundle (scripts/bundle.mjs), run with
// V8's code cache on every Node version; each command keeps a cache of its own, of the code it runs. This file is
// the package's bin as CommonJS too (dist/bin.cjs), which spares Node its ES module loader at start; tsc's
// dist/bin.js runs the same code as an ES module.
const command = process.argv[2] ?? '';
// `docs serve` has a bundle of its own, which holds the MCP server too, and so has `docs add`, which holds the build
// (@docs/ingest, the parser, the tokenizer; see scripts/bundle.mjs).
const own: Record<string, string> = { serve: 'bundle-serve.cjs', add: 'bundle-add.cjs' };
const bundle = fileURLToPath(new URL(own[command] ?? 'bundle.cjs', import.meta.url));
const { exports, save } = runCachedScript<typeof import('./main.js')>(bundle, {
  cacheDir: path.join(cache, 'code-cache'),
  key: /^(search|get|read|list|serve|add)$/.test(command) ? command : 'other',
  require: createRequire(bundle),
  load: (specifier) => import(specifier),
});
// Not a top-level await, which CommonJS has not.
void exports.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  save();
});
