#!/usr/bin/env node
import module from 'node:module';
import path from 'node:path';
import envPaths from 'env-paths';

// Node ≥ 22.1 keeps the compiled code of the modules that follow on disk, so a second `docs` start skips the
// compile (Node 20 has no such cache: the call is skipped there). Enabled before main is imported, which is why
// main comes in through import() below. In the user's cache folder (~/.cache/docs), not Node's default under
// the temp folder: a cache there is wiped by the system and is a folder a command leaves behind in $TMPDIR.
(module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache?.(
  process.env.NODE_COMPILE_CACHE || path.join(envPaths('docs', { suffix: '' }).cache, 'node-compile-cache'),
);

// Output piped into a reader that stops early (`docs search x | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2));
