// Bundles the start of every `docs` process into dist/bundle.cjs with esbuild, after tsc has written dist/: the
// argument parser, the config and the query commands (search, get, read, list) with the parts of @docs/search,
// @docs/store, @docs/sources, @docs/rank and @docs/errors they use, as one CommonJS script. The bin, dist/bin.cjs (src/bin.ts as
// CommonJS), runs it through vm.Script with V8's code cache (src/code-cache.ts), which Node 20 has for scripts but
// not for ES modules. The
// commands that build, install or serve stay the files tsc wrote beside it and load their packages from
// node_modules as before, on demand; better-sqlite3 (native) and the optional @huggingface/transformers are never
// bundled. What the bundled code imports only when it needs it (the tokenizer to cut a page) is an ES module of its
// own beside it (dist/bundle-*.js), read on that first use. (@docs/store runs the SQL Kysely compiled ahead of time and
// never loads Kysely.) `docs serve` and `docs add` have a bundle each (dist/bundle-serve.cjs, dist/bundle-add.cjs),
// which inline what those commands run as well.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const cli = new URL('../', import.meta.url);
const dist = new URL('dist/', cli);
const src = new URL('src/', cli).pathname;
/** Commands bundled: the ones a user or an agent runs again and again. */
const bundled = new Set([
  './commands/search.js',
  './commands/read.js',
  './commands/list.js',
  // The shell asks `docs __complete` at each Tab.
  './commands/completion.js',
]);
/**
 * The packages inlined: what the query commands run. Any other import stays an import from node_modules (native
 * better-sqlite3, the optional @huggingface/transformers, @docs/ingest and @docs/server, the registry clients).
 * smol-toml reads a Cargo.lock for the version a bare crate name means, and resolves only from @docs/sources;
 * stemmer (an ES module) stems question words for @docs/search's heading boost.
 */
const inlined =
  /^(@docs\/(search|store|sources|rank|errors)|commander|zod|semver|stemmer|env-paths|is-safe-filename|smol-toml)(\/|$)/;
/** Native, or optional and loaded on demand: never inlined, in any bundle. */
const native = /^(better-sqlite3|sqlite-vec|@huggingface\/transformers)(\/|$)/;
/** Optional packages a library requires in a try/catch (linkedom's canvas): left a require, and may be missing. */
const optional = new Set(['canvas']);
/** Imported on first use only, each an ES module of its own beside the bundle, by the name here. */
const lazy = { 'gpt-tokenizer/encoding/o200k_base': 'bundle-o200k_base.js' };
/** Marks a dynamic import of a file beside the bundle, for the rewrite into `__docsImport` below. */
const imported = 'docs-import:';

// The previous build's files go first, so dist/ holds only this build's (older builds wrote hashed chunks).
for (const file of await readdir(dist))
  if (/^(bin-.*|bin\.cjs|bundle(-.*)?\.(c?js|json))$/.test(file)) await rm(new URL(file, dist));

/** What every output of this build shares. */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
};
/** What a CommonJS output adds: the ES modules it inlines ask import.meta for their URL; it answers with its own. */
const commonJs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__docsImportMetaUrl' },
  // "use strict" first: esbuild's own comes after the banner, where it is no longer a directive.
  banner: { js: '"use strict";\nvar __docsImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

const storeDir = new URL('../', import.meta.resolve('@docs/store')).pathname;
for (const [specifier, file] of Object.entries(lazy)) {
  await build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir: storeDir, loader: 'js' },
    outfile: new URL(file, dist).pathname,
    ...common,
    format: 'esm',
  });
}

/**
 * main.ts as one CommonJS script. `serve` (dist/bundle-serve.cjs) also inlines `docs serve`'s stdio path: the MCP
 * server, its tools and the SDK with every package they import, so an agent host's start of a session runs one
 * cached script instead of Node's ES module loader over some hundreds of files. `docs serve --http` still imports
 * @docs/server from node_modules: its worker threads and the page are files beside it.
 */
async function bundleMain(outfile, { serve = false, add = false }) {
  return build({
    entryPoints: [new URL('src/main.ts', cli).pathname],
    outfile: new URL(outfile, dist).pathname,
    ...commonJs,
    write: false,
    metafile: Boolean(process.env.DOCS_BUNDLE_META),
    plugins: [
      {
        name: 'unbundled',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:') || inlined.test(args.path)) return undefined;
            if (args.path in lazy && args.kind === 'dynamic-import')
              return { path: `${imported}./${lazy[args.path]}`, external: true };
            const dynamic = args.kind === 'dynamic-import';
            if (serve && (args.path === '@docs/server/stdio' || (!dynamic && !native.test(args.path))))
              return undefined;
            // `docs add`: @docs/ingest and what a build of a folder loads (the parser, yaml, the tokenizer, each a
            // lazily run CommonJS module of the bundle, see buildPath below); @docs/embed and the registry clients
            // stay imports.
            if (
              add &&
              !native.test(args.path) &&
              !optional.has(args.path) &&
              (args.kind === 'require-call' || buildPath.test(args.path))
            )
              return undefined;
            return { path: dynamic ? `${imported}${args.path}` : args.path, external: true };
          });
          // A command's definition (commands/<name>-command.ts) imports its handler when it runs: a handler that is
          // not bundled stays the file tsc wrote, imported from beside the bundle by its path under dist/.
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind !== 'dynamic-import' || !args.importer.startsWith(`${src}commands/`)) return undefined;
            const handler = `./${path.relative(src, path.resolve(args.resolveDir, args.path))}`;
            if (!handler.startsWith('./commands/') || bundled.has(handler)) return undefined;
            if (serve && handler === './commands/serve.js') return undefined;
            if (add && handler === './commands/add.js') return undefined;
            return { path: `${imported}${handler}`, external: true };
          });
          if (add)
            build.onLoad({ filter: /[\\/]packages[\\/](ingest|sources)[\\/]dist[\\/].*\.js$/ }, onDemandRequires);
          if (add) build.onLoad({ filter: /[\\/]gpt-tokenizer[\\/]cjs[\\/]bpeRanks[\\/]o200k_base\.js$/ }, ranksAsJson);
        },
      },
    ],
  });
}

/** gpt-tokenizer's o200k_base ranks as JSON, beside the bundle that reads them (see ranksAsJson). */
const ranksFile = 'bundle-o200k_base-ranks.json';

/**
 * gpt-tokenizer's o200k_base rank list is a 2.4 MB array literal: compiled it costs a process ~100 ms of CPU and, in
 * a bundle's code cache, makes every start deserialize it. The same list written as JSON when the bundle is built
 * (and checked to read back equal) parses in ~45 ms, and only when the first token is counted; gpt-tokenizer's own
 * encoder is built from it as from its module, so every count is the library's.
 */
async function ranksAsJson(args) {
  const require = createRequire(args.path);
  const ranks = require(args.path).default;
  if (!Array.isArray(ranks) || Object.keys(ranks).length !== ranks.length)
    throw new Error(`bundle: ${args.path} is not a rank list without holes (JSON would turn a hole into null)`);
  const json = JSON.stringify(ranks);
  if (JSON.stringify(JSON.parse(json)) !== json) throw new Error('bundle: the o200k ranks do not read back from JSON');
  await writeFile(new URL(ranksFile, dist), json);
  return {
    contents: `exports.default = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(ranksFile)}), 'utf8'));`,
    loader: 'js',
  };
}

/** What `docs add` inlines beyond the query path's packages. */
const buildPath = /^(@docs\/ingest|markdown-it|yaml|gpt-tokenizer|entities)(\/|$)/;

/**
 * @docs/ingest and @docs/sources load their CommonJS libraries on first use through `createRequire(import.meta.url)`
 * (`load('markdown-it')`), which keeps them out of a process that never parses. Inlined, `import.meta.url` is the
 * bundle's, beside which none of them resolves: each `load('<name>')` becomes `require('<name>')`, which esbuild
 * inlines as a module run on its first call, so it stays lazy and is compiled into the code cache with the rest.
 * The build worker's file is @docs/ingest's own, found through the package, not beside the bundle.
 */
async function onDemandRequires(args) {
  let code = await readFile(args.path, 'utf8');
  if (/\bconst load = createRequire\(import\.meta\.url\)/.test(code)) {
    code = code.replace(/\bload\((['"][^'"]+['"])\)/g, 'require($1)');
    const left = code.match(/\bload\([^)]*\)/g);
    if (left) throw new Error(`bundle: ${args.path} loads what the bundle cannot inline: ${left.join(', ')}`);
  }
  const worker = "new URL('./process-worker.js', import.meta.url)";
  if (path.basename(args.path) === 'file-pool.js' && !code.includes(worker))
    throw new Error(`bundle: ${args.path} no longer names its worker as ${worker}: the bundle would start none`);
  code = code.replace(
    worker,
    "new URL('./process-worker.js', require('node:url').pathToFileURL(require('node:module').createRequire(__filename).resolve('@docs/ingest')))",
  );
  // Anything else of @docs/ingest's that asks where it is would get the bundle's answer.
  const elsewhere = code.replace(/\bconst load = createRequire\(import\.meta\.url\)/, '');
  if (/[\\/]packages[\\/]ingest[\\/]/.test(args.path) && elsewhere.includes('import.meta'))
    throw new Error(`bundle: ${args.path} reads import.meta, which inlined is the bundle's`);
  return { contents: code, loader: 'js' };
}

// The bin as CommonJS (dist/bin.cjs): the loader above and env-paths, and nothing Node's ES module loader must start
// for. Its dynamic imports (the commands beside the bundle, their packages) stay Node's own import().
await build({
  entryPoints: [new URL('src/bin.ts', cli).pathname],
  outfile: new URL('bin.cjs', dist).pathname,
  ...commonJs,
});

await finish(await bundleMain('bundle.cjs', { serve: false }), 'bundle');
await finish(await bundleMain('bundle-serve.cjs', { serve: true }), 'bundle-serve');
await finish(await bundleMain('bundle-add.cjs', { add: true }), 'bundle-add');

/** Rewrites a bundle's dynamic imports for the loader, checks what it still imports, and writes it. */
async function finish(result, label) {
  // A vm.Script has no import() of its own (not without an experimental flag): each dynamic import of a module
  // outside the bundle goes through the loader's `__docsImport`, which imports from beside the bundle.
  const [output] = result.outputFiles;
  let rewrites = 0;
  const code = output.text.replaceAll(new RegExp(`\\bimport\\("${imported}([^"]+)"\\)`, 'g'), (_, specifier) => {
    rewrites++;
    return `__docsImport(${JSON.stringify(specifier)})`;
  });
  // `import()` with nothing inside is not a call: a comment of an inlined package says it.
  const left = code.match(/\bimport\([^)]+\)/g);
  if (left) throw new Error(`bundle: dynamic imports a vm.Script cannot run: ${left.join(', ')}`);
  if (rewrites === 0) throw new Error('bundle: no dynamic import found to rewrite (the marker changed?)');
  // `__docsImport` resolves from dist/, so a package imported that way must be one the CLI depends on: a package that
  // only a bundled package depends on would be found in this workspace and missing from an npm install.
  const { dependencies } = JSON.parse(await readFile(new URL('package.json', cli), 'utf8'));
  for (const [, specifier] of code.matchAll(/__docsImport\("([^".][^"]*)"\)/g)) {
    const name = specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
    if (!(name in dependencies))
      throw new Error(`bundle: ${specifier} is imported on demand but ${name} is not a dependency of the CLI`);
  }
  await writeFile(output.path, code);
  // DOCS_BUNDLE_META=<file> writes what each output holds there, for a look at the bundle's weight.
  if (result.metafile)
    await writeFile(`${process.env.DOCS_BUNDLE_META}.${label}.json`, JSON.stringify(result.metafile));
  // A static import of an ES-only package would be a require() Node 20 cannot do: only CommonJS ones may be left.
  // (Not one inside a string: Ajv's code generator writes `require("ajv/dist/runtime/…")` into code it never runs here.)
  const required = [...new Set([...code.matchAll(/(?<!['"`])\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].filter(
    (s) => !s.startsWith('node:') && !builtinModules.includes(s),
  );
  for (const specifier of required) {
    if (optional.has(specifier)) continue;
    const manifest = JSON.parse(await readFile(new URL(`node_modules/${specifier}/package.json`, cli), 'utf8'));
    if (manifest.type === 'module') throw new Error(`bundle: require("${specifier}") of an ES module`);
  }
}
