// How the side-by-side benchmark (`pnpm bench --peer NAME=COMMAND`) drives each engine: data, not code. An adapter
// says which arguments, after the engine's own command line, build one library from a folder, ask one question on
// the command line, and start the MCP server over stdio; which tool and arguments answer a single-library and a
// cross-library question; and what an answer with nothing in it looks like. Nothing of the peers is a dependency:
// whoever runs the bench installs them (see `install`) and passes their command.
//
// In every argument, environment value and tool argument these placeholders are replaced:
//   {home}            the engine's own temp directory, also its HOME and XDG dirs (fresh for each build run)
//   {folder}          a library's folder of markdown (absolute)      {name} {version}  that library's name and version
//   {library}         a question's library name                     {libraryVersion}  that library's version
//   {query}           the question
import { z } from 'zod';

const args = z.array(z.string()).describe('arguments after the engine command, with {placeholders}');

const toolCall = z
  .object({
    tool: z.string().min(1).describe('the MCP tool to call'),
    arguments: z.record(z.string(), z.unknown()).describe('its arguments; every string in them is a template'),
  })
  .strict();

/** One engine the benchmark can drive. */
export const peerAdapterSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/)
      .describe('the NAME of --peer NAME=COMMAND'),
    title: z.string().describe('the column heading'),
    install: z.string().describe('how to install it, for the usage text and docs/benchmarks.md'),
    version: args.describe('arguments that print its version'),
    env: z.record(z.string(), z.string()).describe('environment added to every process it runs, templated'),
    build: args.describe('build and install one library, {folder} as {name} at {version}'),
    query: z
      .object({
        single: args.describe('ask {query} of {library} and print the answer'),
        cross: args.nullable().describe('ask {query} of every library; null when it has no such command'),
        nothing: z.string().describe('a regular expression: stdout matching it (or blank) is an empty answer'),
      })
      .strict(),
    serve: z
      .object({
        args: args.describe('start its MCP server over stdio'),
        single: toolCall.nullable().describe('answer {query} from {library}; null when it has no such tool'),
        cross: toolCall.nullable().describe('answer {query} from every library; null when it has no such tool'),
      })
      .strict(),
  })
  .strict();

/** One engine the benchmark can drive (see {@link peerAdapterSchema}). */
export type PeerAdapter = z.infer<typeof peerAdapterSchema>;
/** An MCP tool and its templated arguments. */
export type PeerToolCall = z.infer<typeof toolCall>;

/** The values of the placeholders a template may hold. */
export type PeerTemplateValues = Readonly<Record<string, string>>;

/**
 * `template` with every `{placeholder}` replaced by its value, in strings at any depth of arrays and objects.
 * An unknown placeholder is an error, so a typo in an adapter fails at once instead of sending `{qeury}`.
 *
 * @example fillTemplate(['get', '{library}', '{query}'], { library: 'hono', query: 'cors' }) // ['get', 'hono', 'cors']
 */
export function fillTemplate<T>(template: T, values: PeerTemplateValues): T {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value.replace(/\{([A-Za-z]+)\}/g, (_, key: string) => {
        const replacement = values[key];
        if (replacement === undefined) throw new Error(`unknown placeholder {${key}} in "${value}"`);
        return replacement;
      });
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(template) as T;
}

/** Whether `stdout` of a one-shot question is an answer with nothing in it, by the adapter's pattern. */
export function answeredNothing(adapter: PeerAdapter, stdout: string): boolean {
  return stdout.trim() === '' || new RegExp(adapter.query.nothing, 'm').test(stdout);
}

const adapters: readonly PeerAdapter[] = [
  {
    name: 'docs',
    title: 'docs',
    install: 'this repository, built (`pnpm build`); its command is `node apps/cli/dist/bin.cjs`',
    version: ['--version'],
    env: { DOCS_HOME: '{home}/store' },
    build: ['add', '{folder}', '--name', '{name}', '--version', '{version}'],
    query: {
      single: ['get', '{library}', '{query}'],
      cross: ['search', '{query}'],
      nothing: '^Nothing in .* matched',
    },
    serve: {
      // The store built for the run, not one following the folder the bench runs in.
      args: ['serve', '--no-follow'],
      single: { tool: 'get_docs', arguments: { library: '{library}', topic: '{query}' } },
      cross: { tool: 'search_all', arguments: { topic: '{query}' } },
    },
  },
  {
    name: 'context',
    title: 'context',
    install:
      'neuledge/context (npm @neuledge/context, or a clone built with `pnpm install && pnpm --filter @neuledge/context build`); command `node <clone>/packages/context/dist/cli.js`',
    version: ['--version'],
    env: {},
    // --path .: the whole folder, as the others read it (by itself it reads only a docs/ folder inside when one exists).
    build: ['add', '{folder}', '--name', '{name}', '--pkg-version', '{version}', '--path', '.'],
    query: {
      single: ['query', '{library}', '{query}'],
      cross: null,
      nothing: '"results"\\s*:\\s*\\[\\s*\\]',
    },
    serve: {
      args: ['serve'],
      single: { tool: 'get_docs', arguments: { library: '{library}@{libraryVersion}', topic: '{query}' } },
      cross: null,
    },
  },
  {
    name: 'qmd',
    title: 'qmd',
    install:
      '`npm install @tobilu/qmd` (Node 22+; BM25 only: `qmd search` and the MCP `query` tool with one `lex` search and no re-ranking, so no model is downloaded); command `node <prefix>/node_modules/@tobilu/qmd/dist/cli/qmd.js`',
    version: ['--version'],
    env: {},
    build: ['collection', 'add', '{folder}', '--name', '{name}', '--mask', '**/*.{md,mdx,markdown}'],
    query: {
      single: ['search', '{query}', '-c', '{library}', '--json'],
      cross: ['search', '{query}', '--json'],
      nothing: '^\\s*\\[\\s*\\]\\s*$',
    },
    serve: {
      args: ['mcp'],
      single: {
        tool: 'query',
        arguments: { searches: [{ type: 'lex', query: '{query}' }], collections: ['{library}'], rerank: false },
      },
      cross: { tool: 'query', arguments: { searches: [{ type: 'lex', query: '{query}' }], rerank: false } },
    },
  },
  {
    name: 'docs-mcp-server',
    title: 'docs-mcp-server',
    install:
      'arabold/docs-mcp-server (npm @arabold/docs-mcp-server, or a clone built with `npm ci && npm run build`; Node 22+); full-text only (no embedding model configured); command `node <clone>/dist/index.js`',
    version: ['--version'],
    // Local folders only with file access opened (its default allows ~/Documents alone), no browser download (local
    // files need none), no telemetry, and no OpenAI key, so no embeddings: full-text search.
    env: {
      DOCS_MCP_STORE_PATH: '{home}/store',
      DOCS_MCP_TELEMETRY: 'false',
      DOCS_MCP_SCRAPER_SECURITY_FILE_ACCESS_MODE: 'unrestricted',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      OPENAI_API_KEY: '',
    },
    // No --version: it takes semver only, and half the corpus is versioned by date; each name is one library anyway.
    build: ['scrape', '{name}', 'file://{folder}', '--max-pages', '100000', '--max-depth', '100'],
    query: {
      single: ['search', '{library}', '{query}'],
      cross: null,
      nothing: '^\\s*\\[\\s*\\]\\s*$',
    },
    serve: {
      args: ['mcp', '--protocol', 'stdio'],
      single: { tool: 'search_docs', arguments: { library: '{library}', query: '{query}' } },
      cross: null,
    },
  },
];

/** The adapters shipped with the bench, by name, each checked against the schema. */
export const PEER_ADAPTERS: ReadonlyMap<string, PeerAdapter> = new Map(
  adapters.map((adapter) => [adapter.name, peerAdapterSchema.parse(adapter)]),
);
