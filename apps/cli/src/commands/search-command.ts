import type { Command } from 'commander';
import { commonCommand, globals, withAlso, withExamples, withQueryOptions } from '../command-kit.js';
import type { QueryOptions } from '../options.js';

/** `docs get <library> <topic...>`: its flags and help; the handler (`search.ts`) is imported when it runs. */
export function defineGet(cli: Command): void {
  const get = withAlso(
    withQueryOptions(
      commonCommand(cli, 'get')
        .description("search one library's documentation")
        .argument(
          '<library>',
          "name or name@version (a bare name uses the project's installed version when it is in the store, else the highest)",
        )
        .argument('<topic...>', 'what to look for'),
    ),
  ).action(async (library: string, topic: string[], options: QueryOptions, command: Command) => {
    const { get } = await import('./search.js');
    await get(library, topic.join(' '), options, globals(command));
  });
  withExamples(get, [
    'docs get vitest "fake timers"',
    'docs get vitest@3 mock timers --format index --limit 20',
    'docs get fastapi "run code at startup" --also "lifespan events"',
  ]);
}

/** `docs search <topic...>`: its flags and help; the handler (`search.ts`) is imported when it runs. */
export function defineSearch(cli: Command): void {
  const search = withAlso(
    withQueryOptions(
      commonCommand(cli, 'search')
        .description('search every installed library at once')
        .argument('<topic...>', 'what to look for')
        .option('--library <name...>', 'only these libraries (name or name@version)'),
    ),
  ).action(async (topic: string[], options: QueryOptions & { library?: string[] }, command: Command) => {
    const { search } = await import('./search.js');
    await search(topic.join(' '), options, globals(command));
  });
  withExamples(search, ['docs search "enable CORS"', 'docs search retries --library httpx hono --tokens 500']);
}
