import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { UsageError } from '../errors.js';
import { type Approvals, readApprovals } from './approvals.js';
import { isSettingKey, type SettingKey, type Settings, type SettingValue, settingKeys, settings } from './settings.js';

/** The project config's file name, looked for in the working directory and its parents. */
export const projectConfigName = 'docs.config.json';

/** Where a setting's value came from, highest precedence first (flags are applied by the CLI on top). */
export type SettingSource = 'env' | 'project' | 'user';

/** One config file, read and checked. */
export interface ConfigFile {
  readonly file: string;
  readonly exists: boolean;
  readonly values: Settings;
  /** sha256 of the file's bytes: what an approval is given to. */
  readonly hash: string;
}

/** A setting as `docs config` shows it. */
export interface SettingState {
  readonly key: SettingKey;
  readonly env: string;
  readonly describe: string;
  /** The value in effect (before flags), or undefined when none is set or it is held back. */
  readonly value: unknown;
  readonly source?: SettingSource;
  /** A project config value that reaches outside the project and is not approved for this content. */
  readonly heldBack?: { readonly value: unknown; readonly file: string };
}

export interface LoadConfigOptions {
  /** Where to look for a project config (default: the working directory). */
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The user config folder (default: the user config directory, e.g. ~/.config/docs). */
  readonly userDir?: string;
  /**
   * Asks the user whether to use the listed project settings; absent when there
   * is no terminal to ask (MCP, CI), and then they are skipped and `warn` says so.
   */
  readonly ask?: (question: string) => Promise<boolean>;
  readonly warn?: (line: string) => void;
}

/** The user config folder: ~/.config/docs on Linux ($XDG_CONFIG_HOME), the platform's equivalent elsewhere. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  // env-paths reads XDG_CONFIG_HOME from process.env; a test may pass its own env.
  const xdg = env.XDG_CONFIG_HOME;
  if (process.platform === 'linux' && xdg) return path.join(xdg, 'docs');
  return envPaths('docs', { suffix: '' }).config;
}

/**
 * Settings from the environment, the project config and the user config
 * (flags are applied on top by the CLI). A project config's settings that
 * reach outside the project are used only once approved for its current
 * content; `get` asks for that approval when it can.
 *
 * @example
 * const config = await loadConfig();
 * const tokens = await config.get('tokens'); // number | undefined
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const userDir = options.userDir ?? userConfigDir(env);
  const user = readConfigFile(path.join(userDir, 'config.json'));
  const projectFile = findProjectConfig(path.resolve(options.cwd ?? process.cwd()));
  const project = projectFile ? readConfigFile(projectFile) : undefined;
  return new Config(user, project, env, userDir, options);
}

/** The nearest docs.config.json in `dir` or its parents. */
export function findProjectConfig(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, projectConfigName);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/** Reads and checks one config file; a missing file is empty, a broken one a UsageError naming the setting. */
export function readConfigFile(file: string): ConfigFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, values: {}, hash: '' };
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, { code: 'config' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`, { code: 'config' });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new UsageError(`${file} must hold one JSON object of settings, such as { "tokens": 4000 }`, {
      code: 'config',
    });
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$schema') continue;
    if (!isSettingKey(key))
      throw new UsageError(`${file}: unknown setting "${key}" (known: ${settingKeys.join(', ')})`, { code: 'config' });
    const parsed = settings[key].schema.safeParse(value);
    if (!parsed.success)
      throw new UsageError(`${file}: "${key}" is not valid: ${parsed.error.issues[0]?.message ?? 'bad value'}`, {
        code: 'config',
      });
    values[key] = 'isPath' in settings[key] ? resolvePath(parsed.data as string, path.dirname(file)) : parsed.data;
  }
  // Asked for here, not imported: a command run with no config file then never loads node:crypto (~2.5 ms at start).
  const { createHash } = process.getBuiltinModule('node:crypto');
  return { file, exists: true, values: values as Settings, hash: createHash('sha256').update(bytes).digest('hex') };
}

function resolvePath(value: string, base: string): string {
  if (value === '~') return homedir();
  if (value.startsWith('~/')) return path.join(homedir(), value.slice(2));
  return path.resolve(base, value);
}

/**
 * Whether `file` is `dir` or inside it, by real paths: a path that goes through a symlink (a committed
 * `link` → `/elsewhere`) is where the link points, not where its text says.
 */
function isInside(file: string, dir: string): boolean {
  const relative = path.relative(realPathOfExisting(dir), realPathOfExisting(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The real path of `file`: symlinks resolved for the part of the path that exists, the rest (a store folder not
 * made yet) appended as written. `..` after a symlink is resolved from the link's target, as the file system does.
 */
function realPathOfExisting(file: string, links = 0): string {
  const missing: string[] = [];
  for (let current = path.resolve(file); ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      // A link to nothing yet (`store` → `/elsewhere/new`) is where it points, as a mkdir through it would go.
      const target = links < 40 ? readLink(current) : undefined;
      if (target !== undefined)
        return realPathOfExisting(
          path.join(path.resolve(path.dirname(current), target), ...missing.reverse()),
          links + 1,
        );
      if (path.dirname(current) === current) return path.resolve(file);
      missing.push(path.basename(current));
    }
  }
}

function readLink(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/** The loaded settings; see {@link loadConfig}. */
export class Config {
  readonly #env: NodeJS.ProcessEnv;
  readonly #options: LoadConfigOptions;
  #approvals: Approvals;
  #decision: Promise<boolean> | undefined;

  constructor(
    readonly user: ConfigFile,
    readonly project: ConfigFile | undefined,
    env: NodeJS.ProcessEnv,
    readonly userDir: string,
    options: LoadConfigOptions,
  ) {
    this.#env = env;
    this.#options = options;
    this.#approvals = readApprovals(userDir);
  }

  /**
   * The value of a setting from the environment, the project config or the
   * user config, or undefined. A project value that reaches outside the project
   * and is not approved is asked about (once per run) when there is a terminal,
   * else skipped with a warning; the user config's value is used instead.
   */
  async get<K extends SettingKey>(key: K): Promise<SettingValue<K> | undefined> {
    return (await this.getWithSource(key))?.value;
  }

  /** As {@link get}, saying where the value came from: a store folder the project names is not the user's own. */
  async getWithSource<K extends SettingKey>(
    key: K,
  ): Promise<{ value: SettingValue<K>; source: SettingSource } | undefined> {
    const fromEnv = this.#fromEnv(key);
    if (fromEnv !== undefined) return { value: fromEnv, source: 'env' };
    const project = this.project?.values[key];
    if (project !== undefined && this.project) {
      if (!this.needsApproval(key) || (await this.#approve()))
        return { value: project as SettingValue<K>, source: 'project' };
    }
    const user = this.user.values[key] as SettingValue<K> | undefined;
    return user === undefined ? undefined : { value: user, source: 'user' };
  }

  /** The project settings that reach outside the project (see {@link Reach}). */
  gatedKeys(): SettingKey[] {
    const project = this.project;
    if (!project) return [];
    const dir = path.dirname(project.file);
    return settingKeys.filter((key) => {
      const value = project.values[key];
      if (value === undefined) return false;
      const reach = settings[key].reach as string;
      return reach === 'outside' || (reach === 'path' && !isInside(String(value), dir));
    });
  }

  /** Whether the project's value for `key` waits for the user's approval of this content. */
  needsApproval(key: SettingKey): boolean {
    return this.gatedKeys().includes(key) && !this.isApproved();
  }

  /** Whether the project config's current content has been approved. */
  isApproved(): boolean {
    const project = this.project;
    return project !== undefined && this.#approvals.get(project.file) === project.hash;
  }

  /** Every setting with its value and where it came from, without asking anything. */
  states(): SettingState[] {
    return settingKeys.map((key) => {
      const spec = settings[key];
      const base = { key, env: spec.env, describe: spec.describe };
      const fromEnv = this.#fromEnv(key);
      if (fromEnv !== undefined) return { ...base, value: fromEnv, source: 'env' as const };
      const project = this.project?.values[key];
      const heldBack =
        project !== undefined && this.project && this.needsApproval(key)
          ? { heldBack: { value: project, file: this.project.file } }
          : {};
      if (project !== undefined && !heldBack.heldBack) return { ...base, value: project, source: 'project' as const };
      const user = this.user.values[key];
      return { ...base, value: user, ...(user === undefined ? {} : { source: 'user' as const }), ...heldBack };
    });
  }

  #fromEnv<K extends SettingKey>(key: K): SettingValue<K> | undefined {
    const spec = settings[key];
    const raw = this.#env[spec.env];
    if (raw === undefined || raw === '') return undefined;
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success)
      throw new UsageError(`$${spec.env} is not valid: ${parsed.error.issues[0]?.message ?? 'bad value'}`, {
        code: 'config',
      });
    const value = 'isPath' in spec ? resolvePath(parsed.data as string, process.cwd()) : parsed.data;
    return value as SettingValue<K>;
  }

  /** Asks once per run whether to use the gated project settings; remembers a yes for this content. */
  #approve(): Promise<boolean> {
    this.#decision ??= this.#decide();
    return this.#decision;
  }

  async #decide(): Promise<boolean> {
    const project = this.project;
    if (!project) return false;
    const gated = this.gatedKeys();
    const listing = gated.map((key) => `${key} = ${JSON.stringify(project.values[key])}`).join(', ');
    const ask = this.#options.ask;
    if (!ask) {
      this.#options.warn?.(
        `not using ${listing} from ${project.file}: a project config's settings that reach outside the project need your approval once, and there is no terminal to ask (approve with "docs config --approve" in that folder)`,
      );
      return false;
    }
    const yes = await ask(
      `${project.file} sets ${listing}: settings that reach outside this project. Use them (remembered until the file changes)? [y/N] `,
    );
    if (yes) this.#approvals = await this.#approvals.approve(project.file, project.hash);
    else this.#options.warn?.(`not using ${gated.join(', ')} from ${project.file}`);
    return yes;
  }

  /** Approves the project config's current content (`docs config --approve`). */
  async approveProject(): Promise<void> {
    if (!this.project) throw new UsageError(`no ${projectConfigName} here or in a parent folder`, { code: 'config' });
    this.#approvals = await this.#approvals.approve(this.project.file, this.project.hash);
  }
}
