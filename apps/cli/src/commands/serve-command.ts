import { type Command, Option } from 'commander';
import { commonCommand, globals, positiveNumber, wholeNumber, withExamples } from '../command-kit.js';
import type { ServeOptions } from './serve.js';

/** `docs serve`: its flags and help; the handler (`serve.ts`) is imported when it runs. */
export function defineServe(cli: Command): void {
  const serve = commonCommand(cli, 'serve')
    .description('serve the tools over MCP on stdio, or with --http: MCP at /mcp, a JSON API at /api/, a page at /')
    .option('--http [port]', 'serve HTTP (MCP, the JSON API and the page) on this port instead of stdio (default 7800)')
    .option('--host <host>', 'address to bind with --http (default 127.0.0.1; any other needs a token)')
    .option('--token <token>', 'bearer token every HTTP request must carry (default: $DOCS_TOKEN)')
    .option(
      '--allowed-host <host...>',
      'with --http: host names a reverse proxy forwards (Host/Origin headers accepted)',
    )
    .option('--libs <library...>', 'serve only these libraries (name or name@version)')
    .addOption(
      new Option('--headers-timeout <s>', "with --http: seconds to receive a request's headers (default 10)").argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        '--request-timeout <s>',
        'with --http: seconds to receive a whole request, body included (default 30)',
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        '--max-connections <n>',
        'with --http: requests answered at once, counted after the token check (default 128)',
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option('--max-batch <n>', 'with --http: JSON-RPC calls in one batch (default 16)').argParser(positiveNumber),
    )
    .addOption(
      new Option('--max-response <mib>', 'with --http: largest answer of /mcp and /api/, in MiB (default 4)').argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        '--workers <n>',
        'with --http: threads answering MCP and API requests (0 = the main thread; default: one per core, at most 4)',
      ).argParser(wholeNumber),
    )
    .option(
      '--embed <spec>',
      "query embedder for packages with vectors (default: $DOCS_EMBED, else each package's own)",
    )
    .option('--rerank <spec>', 're-rank the first results with this cross-encoder (default: $DOCS_RERANK)')
    .option(
      '--project <dir>',
      'get_docs answers a bare name from the version this project installs, when installed (default: the working directory)',
    )
    .option(
      '--no-follow',
      "leave the store as it is when the project's installs change (default: stdio, and --http with --project, build what changed)",
    )
    .action(async (options: ServeOptions, command: Command) => {
      const { serve } = await import('./serve.js');
      await serve(options, globals(command));
    });
  withExamples(serve, ['docs serve', 'docs serve --libs vitest hono', 'docs serve --http 7800']);
}
