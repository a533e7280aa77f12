// A namespace import lets the bundle (scripts/bundle.mjs) keep only the parts of zod used here: 170 KB, not 670 KB.
import * as z from 'zod';

/**
 * How far a setting reaches, which decides whether a project config (one that
 * arrives with a `git clone`) may set it without the user approving it once:
 * - `local`: stays on this machine and inside docs (a token budget, a mode);
 * - `outside`: talks to or loads something outside the project (an endpoint,
 *   a registry, a model folder): approved once per project config content;
 * - `path`: a path, gated only when it resolves outside the project folder.
 */
export type Reach = 'local' | 'outside' | 'path';

interface SettingSpec<T extends z.ZodType> {
  /** Validates a value from a config file, and an environment value after `fromEnv`. */
  readonly schema: T;
  /** The environment variable that sets it. */
  readonly env: string;
  readonly reach: Reach;
  /** One line for `docs config`. */
  readonly describe: string;
  /**
   * The command-line flag it is the default of, as commander names the option
   * (`--tokens` → `tokens`); the flag takes precedence. Applied to every command
   * with that option unless `commands` lists the ones it applies to.
   */
  readonly flag?: string;
  readonly commands?: readonly string[];
  /** A path: resolved against the folder of the config file that sets it (`~/` is the home folder). */
  readonly isPath?: boolean;
}

const text = z.string().trim().min(1);
const wholeNumber = z.coerce.number().int().min(0);
const yesNo = z.preprocess(
  (value) => (typeof value === 'string' ? { true: true, '1': true, false: false, '0': false }[value] : value),
  z.boolean(),
);

/**
 * Every setting a config file or the environment can give. Precedence:
 * flag > environment > project config (`docs.config.json`) > user config.
 *
 * Adding a setting is one line here. When a command has a flag of the same
 * name (`flag`), the config fills it in before the command runs, so the
 * command needs no change; code without a flag reads it with
 * `(await loadConfig()).get('key')`.
 */
export const settings = {
  home: {
    schema: text,
    env: 'DOCS_HOME',
    reach: 'path',
    isPath: true,
    flag: 'home',
    describe: 'the store directory',
  },
  tokens: {
    schema: wholeNumber,
    env: 'DOCS_TOKENS',
    reach: 'local',
    flag: 'tokens',
    commands: ['get', 'search'],
    describe: 'token budget of get and search (0 = none)',
  },
  mode: {
    schema: z.enum(['lexical', 'hybrid']),
    env: 'DOCS_MODE',
    reach: 'local',
    flag: 'mode',
    describe: 'retrieval mode: lexical or hybrid',
  },
  embedder: {
    schema: text,
    env: 'DOCS_EMBED',
    reach: 'outside',
    flag: 'embed',
    // Not add or sync: --embed there embeds before the command ends; the configured embedder makes vectors in the
    // background instead (background-vectors.ts), read there with config.get.
    commands: ['get', 'search', 'embed', 'serve'],
    describe: 'embedder: a model id, a local model folder or an endpoint',
  },
  backgroundVectors: {
    schema: yesNo,
    env: 'DOCS_BACKGROUND_VECTORS',
    reach: 'local',
    describe:
      'add and sync: make vectors in the background with the embedder (default true; false: docs embed by hand)',
  },
  reranker: {
    schema: text,
    env: 'DOCS_RERANK',
    reach: 'outside',
    flag: 'rerank',
    commands: ['get', 'search', 'serve'],
    describe: 're-ranker: a model id, a local model folder or an endpoint',
  },
  scope: {
    schema: z.string().regex(/^@[a-z0-9][\w.-]*$/i, 'a scope such as @acme'),
    env: 'DOCS_SCOPE',
    reach: 'local',
    flag: 'scope',
    describe: 'npm scope documentation packages are published under',
  },
  registry: {
    schema: z.url({ protocol: /^https?$/ }),
    env: 'DOCS_REGISTRY',
    reach: 'outside',
    flag: 'registry',
    describe: 'npm registry URL for publish and install',
  },
  fromRepo: {
    schema: yesNo,
    env: 'DOCS_FROM_REPO',
    // It fetches every repository the installed packages name: not something a cloned project turns on unasked.
    reach: 'outside',
    flag: 'fromRepo',
    commands: ['sync'],
    describe: 'sync: build docs from the repository at the installed version',
  },
} as const satisfies Record<string, SettingSpec<z.ZodType>>;

/** The name of a setting, as written in a config file. */
export type SettingKey = keyof typeof settings;

/** The type of a setting's value. */
export type SettingValue<K extends SettingKey> = z.output<(typeof settings)[K]['schema']>;

/** The settings, typed: what a config file holds. */
export type Settings = { readonly [K in SettingKey]?: SettingValue<K> };

export const settingKeys: readonly SettingKey[] = Object.keys(settings) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settings, key);
}
