import envPaths from 'env-paths';

/**
 * Where the store lives: an explicit `home` (the CLI's --home) first, then
 * the DOCS_HOME environment variable, then the user's data directory
 * (e.g. ~/.local/share/docs on Linux).
 */
export function resolveHome(options: { home?: string | undefined; env?: NodeJS.ProcessEnv } = {}): string {
  const env = options.env ?? process.env;
  if (options.home) return options.home;
  if (env.DOCS_HOME) return env.DOCS_HOME;
  return envPaths('docs', { suffix: '' }).data;
}
