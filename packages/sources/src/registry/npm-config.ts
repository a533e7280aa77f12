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
  /**
   * Asked whether to use the settings of the project's `.npmrc` that decide where requests go or what they trust
   * (see {@link reachesOutside}): a project arrives with a `git clone`, so a committed
   * `@acme:registry=https://evil.example/` is not followed unasked. Without it, or on a no, they are left out and
   * the user's own configuration (`~/.npmrc`, the environment) decides. @default never: left out
   */
  readonly approveProjectNpmrc?: (npmrc: ProjectNpmrc) => Promise<boolean> | boolean;
}

/** A project `.npmrc` and the settings of it that reach outside, as `key=value` lines. */
export interface ProjectNpmrc {
  readonly file: string;
  readonly settings: readonly string[];
}

/** Settings that decide where docs sends requests, or which server it believes, or which files say so. */
const OUTSIDE = new Set([
  'registry',
  'proxy',
  'https-proxy',
  'http-proxy',
  'noproxy',
  'strict-ssl',
  'ca',
  'cafile',
  'cert',
  'key',
  'userconfig',
  'globalconfig',
  'cache',
  'offline',
  'prefer-offline',
  'replace-registry-host',
  'local-address',
]);

/**
 * Whether a `.npmrc` setting reaches outside the project: a registry (`registry`, `@scope:registry`), a proxy,
 * what TLS trusts (also per registry, `//host/:cafile`), another config file, or the cache. A token for a host
 * (`//host/:_authToken`) is not: it is only ever sent to that host, which a registry setting must name first.
 */
export function reachesOutside(key: string): boolean {
  const normal = key.toLowerCase().replace(/_/g, '-');
  if (normal.endsWith(':registry')) return true;
  if (normal.startsWith('//')) return /:(?:ca|cafile|certfile|keyfile|cert|key)$/.test(normal);
  return OUTSIDE.has(normal);
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
  let config = await loadConfig(options, []);
  const project = config.data.get('project');
  const raw = project?.raw ?? {};
  const gated = Object.keys(raw).filter(reachesOutside);
  // A source that is not a path is npm saying it ignored the file (the same as the user's, global mode).
  if (gated.length > 0 && project?.source !== undefined && path.isAbsolute(project.source)) {
    const settings = gated.map((key) => `${key}=${String(raw[key])}`);
    const approved = (await options.approveProjectNpmrc?.({ file: project.source, settings })) ?? false;
    if (!approved) {
      // The project's choice of config files was read before this could see it: read them again as the user's
      // environment and npm's defaults name them.
      const files = ['userconfig', 'globalconfig'].filter((key) => gated.includes(key));
      if (files.length > 0) {
        const argv = files.map((key) => `--${key}=${String(config.get(key, 'env') ?? config.get(key, 'default'))}`);
        config = await loadConfig(options, argv);
      }
      for (const key of gated) config.delete(key, 'project');
    }
  }
  const flat: NpmOptions = { ...config.flat };
  if (options.registry) {
    flat.registry = options.registry;
    flat[`${options.scope}:registry`] = options.registry;
  }
  return flat;
}

/**
 * The registry URL a package of `scope` is fetched from and published to. `options` come from
 * {@link loadNpmOptions}, whose `registry` holds npm's own default when no configuration names one, so no registry
 * host is written here: a user behind a mirror configured for npm gets that mirror.
 */
export function registryFor(scope: string, options: NpmOptions): string {
  const url = options[`${scope}:registry`] ?? options.registry;
  if (typeof url !== 'string' || url === '') throw new Error(`bug: npm's configuration names no registry for ${scope}`);
  return url;
}

async function loadConfig(options: RegistryOptions, argv: readonly string[]) {
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
    argv: [process.execPath, 'docs', ...argv],
    cwd: options.cwd ?? process.cwd(),
    warn: false,
  });
  await config.load();
  return config;
}
