// Bundles the start of every `docs` process into dist/bin.js with esbuild, after tsc has written dist/: the
// entry, the argument parser, the config and the query commands (search, get, read, list) with the parts of
// @docs/search, @docs/store, @docs/sources and @docs/rank they use, as one file. Node then reads one module
// instead of ~190 (measured in docs/benchmarks.md). The commands that build, install or serve stay the files
// tsc wrote beside it and load their packages from node_modules as before, on demand; better-sqlite3 (native)
// and the optional @huggingface/transformers are never bundled.
import { readdir, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const cli = new URL('../', import.meta.url);
/** Commands bundled into dist/bin.js: the ones a user or an agent runs again and again. */
const bundled = new Set(['./commands/search.js', './commands/read.js', './commands/list.js']);
/**
 * The packages inlined: what the query commands run. Any other import stays an import from node_modules (native
 * better-sqlite3, the optional @huggingface/transformers, @docs/ingest and @docs/server, the registry clients).
 */
const inlined =
  /^(@docs\/(search|store|sources|rank)|commander|zod|semver|env-paths|is-safe-filename|kysely|gpt-tokenizer)(\/|$)/;

// Chunk names carry a content hash: the previous build's chunks go first, so dist/ holds only this build's.
const dist = new URL('dist/', cli);
for (const file of await readdir(dist)) if (/^bin-.*\.js$/.test(file)) await rm(new URL(file, dist));

const result = await build({
  entryPoints: [new URL('src/bin.ts', cli).pathname],
  outdir: dist.pathname,
  // What the bundled code imports only when it needs it (kysely to write, the tokenizer to cut a page) stays in
  // chunks of its own, read on that first use.
  splitting: true,
  chunkNames: 'bin-[name]-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // The CommonJS dependencies inlined here call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __docsRequire } from 'node:module';\nconst require = __docsRequire(import.meta.url);",
  },
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
  metafile: Boolean(process.env.DOCS_BUNDLE_META),
  plugins: [
    {
      name: 'unbundled-commands',
      setup(build) {
        // errors.js stays one module: a command file beside the bundle throws its UsageError, main's instanceof checks it.
        build.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('node:') || inlined.test(args.path) ? undefined : { path: args.path, external: true },
        );
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          if (!args.importer.startsWith(new URL('src/', cli).pathname)) return undefined;
          const fromRoot = args.importer.endsWith('/src/main.ts') || args.importer.endsWith('/src/bin.ts');
          if (fromRoot && args.path.startsWith('./commands/') && !bundled.has(args.path))
            return { path: args.path, external: true };
          if (args.path.endsWith('/errors.js') || args.path === './errors.js') {
            const relative = new URL(args.path, `file://${args.importer}`).pathname.slice(
              new URL('src/', cli).pathname.length,
            );
            return { path: `./${relative}`, external: true };
          }
          return undefined;
        });
      },
    },
  ],
});
// DOCS_BUNDLE_META=<file> writes what each output holds there, for a look at the bundle's weight.
if (result.metafile) await writeFile(String(process.env.DOCS_BUNDLE_META), JSON.stringify(result.metafile));
