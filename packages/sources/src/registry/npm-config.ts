import { createRequire } from 'node:module';
import path from 'node:path';

/** Where to read npm's configuration and which registry to use. */
export interface RegistryOptions {
  /** The npm scope doc packages live under, `@acme`. */
  readonly scope: string;
  /** A registry URL that overrides what `.npmrc` says for the scope. */
  readonly registry?: string;
  /** The project folder whose `.npmrc` applies. @default process.cwd() */
  readonly cwd?: string;
  /** Environment (`npm_config_*`, `HOME`, proxies). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/** npm's flattened options, as npm itself hands them to pacote and npm-registry-fetch. */
export type NpmOptions = Record<string, unknown>;

/**
 * Reads npm's configuration the way the npm CLI does (built-in, global, user
 * and project `.npmrc`, `npm_config_*` variables): registries per scope, auth
 * tokens per registry, proxies, CA certificates, the cache. `--registry`
 * overrides both the default and the scope's registry.
 */
export async function loadNpmOptions(options: RegistryOptions): Promise<NpmOptions> {
  const { default: Config } = await import('@npmcli/config');
  const { definitions, flatten, nerfDarts, shorthands } = (await import('@npmcli/config/lib/definitions/index.js'))
    .default;
  // npmPath is where npm keeps its built-in npmrc; docs has none, so point it at the config library itself.
  const npmPath = path.dirname(createRequire(import.meta.url).resolve('@npmcli/config/package.json'));
  const config = new Config({
    definitions,
    flatten,
    nerfDarts,
    shorthands,
    npmPath,
    // A copy: loading writes npm_config_* variables into the environment it is given.
    env: { ...(options.env ?? process.env) },
    argv: [process.execPath, 'docs'],
    cwd: options.cwd ?? process.cwd(),
    warn: false,
  });
  await config.load();
  const flat: NpmOptions = { ...config.flat };
  if (options.registry) {
    flat.registry = options.registry;
    flat[`${options.scope}:registry`] = options.registry;
  }
  return flat;
}

/** The registry URL a package of `scope` is fetched from and published to. */
export function registryFor(scope: string, options: NpmOptions): string {
  const url = options[`${scope}:registry`] ?? options.registry ?? 'https://registry.npmjs.org/';
  return String(url);
}
