import { copyFile, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type hostedGitInfo from 'hosted-git-info';
import type { InstalledDependency } from './dependencies.js';
import { type StageOptions, type StageResult, stageDependencyDocs } from './dependency-docs.js';
import { DOCS_FOLDERS, git, gitFailure, parseTagListing } from './git.js';
import type { ResolvedSource } from './source.js';
import { tempDir } from './temp-dir.js';
import { findDocFiles } from './walk.js';

/** Where a package's source lives, from its package.json `repository`. */
export interface PackageRepository {
  /** A URL git can fetch from. */
  readonly url: string;
  /** The package's folder inside the repository (`repository.directory`), for monorepos. */
  readonly directory?: string;
}

/** Options for {@link stageFromRepositories}. */
export interface RepositoryDocsOptions extends StageOptions {
  /** Repositories worked on at once. @default 3 */
  readonly concurrency?: number;
  /** Time allowed for each repository (listing its tags, fetching each tag). @default 120 s */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Called as each repository starts and finishes. */
  readonly onProgress?: (progress: RepositoryProgress) => void;
}

/** How far {@link stageFromRepositories} has got. */
export interface RepositoryProgress {
  /** Repositories finished. */
  readonly done: number;
  readonly total: number;
  /** The repository just started or finished. */
  readonly current: string;
}

/** Where a dependency's documentation was staged from, and why not from its repository when it was not. */
export interface RepositoryStage {
  readonly dependency: InstalledDependency;
  /** The staged documentation, or why there is none (as {@link stageDependencyDocs}). */
  readonly result: StageResult;
  /** `repository`: its repository's docs folder at the installed version's tag, with the package's README and API page. */
  readonly from: 'repository' | 'package';
  /** The tag built, when from the repository. */
  readonly tag?: string;
  /** Why the repository was not used (no repository, no tag for the version, no docs folder, the clone failed). */
  readonly fallback?: string;
}

/** A planned dependency: its repository and the tag of its installed version, or why it has none. */
export interface RepositoryPlan {
  readonly dependency: InstalledDependency;
  readonly repository?: PackageRepository;
  /** The tags that would name the installed version, in the order they are tried. */
  readonly tags: readonly string[];
  readonly fallback?: string;
}

/**
 * The repository a package.json names, as a URL git can fetch: hosted
 * shorthands (`github:org/repo`, `org/repo`, `gitlab:…`) and `git+https`,
 * `git+ssh`, `git://` URLs are normalised by npm's own hosted-git-info;
 * `file://` URLs and absolute paths are kept. Anything else (no repository, a
 * transport git could run commands through) is undefined.
 *
 * @example
 * repositoryOf({ repository: { type: 'git', url: 'git+https://github.com/colinhacks/zod.git', directory: 'packages/zod' } });
 * // → { url: 'https://github.com/colinhacks/zod.git', directory: 'packages/zod' }
 */
export function repositoryOf(manifest: Record<string, unknown>): PackageRepository | undefined {
  const field = manifest.repository;
  const raw = typeof field === 'string' ? field : (field as { url?: unknown } | null)?.url;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const directoryField = typeof field === 'object' ? (field as { directory?: unknown } | null)?.directory : undefined;
  const directory =
    typeof directoryField === 'string' ? directoryField.replace(/\\/g, '/').replace(/^\.?\/+|\/+$/g, '') : '';
  const url = fetchableUrl(raw.trim());
  if (url === undefined) return undefined;
  return { url, ...(directory !== '' && !directory.split('/').includes('..') ? { directory } : {}) };
}

// Loaded on first use, so importing @docs/sources stays cheap for commands that never read a repository field.
/** Why `--from-repo` builds a dependency of another ecosystem from what is installed, not from its repository. */
const NOT_FROM_A_REPOSITORY: Record<Exclude<InstalledDependency['ecosystem'], 'npm'>, string> = {
  python: 'Python docs come from its METADATA',
  go: 'a Go module is read at its version from the module cache',
  rust: "a crate's docs come from its source",
};

const load = createRequire(import.meta.url);

function fetchableUrl(raw: string): string | undefined {
  const hosted = (load('hosted-git-info') as typeof hostedGitInfo).fromUrl(raw);
  if (hosted) return hosted.https({ noGitPlus: true, noCommittish: true }) ?? undefined;
  if (path.isAbsolute(raw)) return pathToFileURL(raw).href;
  const plain = raw.replace(/^git\+/, '').replace(/#.*$/, '');
  // Only transports that fetch; `ext::` and friends could run a command named by a package.
  return /^(?:https?|git|ssh|file):\/\//i.test(plain) ? plain : undefined;
}

/**
 * The tags that may name `version` of package `name`, most specific first:
 * `name@1.2.3` (monorepos such as changesets: `@scope/pkg@1.2.3`), `name@v1.2.3`,
 * the unscoped `pkg@1.2.3`, `pkg-v1.2.3` (release-please), then `v1.2.3` and `1.2.3`.
 */
export function candidateTags(name: string, version: string): string[] {
  const unscoped = name.replace(/^@[^/]+\//, '');
  return [
    ...new Set([
      `${name}@${version}`,
      `${name}@v${version}`,
      `${unscoped}@${version}`,
      `${unscoped}-v${version}`,
      `v${version}`,
      version,
    ]),
  ];
}

/** Each npm dependency's repository and candidate tags, read from its installed package.json; nothing is fetched. */
export async function planRepositories(dependencies: readonly InstalledDependency[]): Promise<RepositoryPlan[]> {
  const plans: RepositoryPlan[] = [];
  for (const dependency of dependencies) {
    if (dependency.ecosystem !== 'npm') {
      plans.push({
        dependency,
        tags: [],
        fallback: `not an npm package (${NOT_FROM_A_REPOSITORY[dependency.ecosystem]})`,
      });
      continue;
    }
    const manifest = await readJson(path.join(dependency.dir, 'package.json'));
    const repository = manifest === undefined ? undefined : repositoryOf(manifest);
    if (repository === undefined) {
      plans.push({ dependency, tags: [], fallback: 'its package.json names no git repository' });
      continue;
    }
    plans.push({ dependency, repository, tags: candidateTags(dependency.name, dependency.version) });
  }
  return plans;
}

/**
 * Stages each dependency's documentation from its repository at the tag of
 * its installed version: the docs folder (in `repository.directory` first,
 * then at the repository root: docs/, documentation/, doc/, website/docs)
 * together with the package's README and API page. A dependency without a
 * repository, without a tag for its version or without a docs folder there,
 * or whose repository cannot be fetched in time, is staged from the package
 * as {@link stageDependencyDocs} does, with the reason in `fallback`.
 *
 * Each repository is fetched once, shallow and only the tags needed, however
 * many dependencies come from it; a few repositories at a time. Every clone is
 * removed before this returns; on failure or abort every staged folder is
 * removed too. The caller disposes the staged sources it gets.
 *
 * @example
 * const stages = await stageFromRepositories(installed, { concurrency: 3 });
 * for (const { dependency, result, from, fallback } of stages) { … if (result.ok) await result.value.dispose(); }
 */
export async function stageFromRepositories(
  dependencies: readonly InstalledDependency[],
  options: RepositoryDocsOptions = {},
): Promise<RepositoryStage[]> {
  const plans = await planRepositories(dependencies);
  const byRepository = new Map<string, RepositoryPlan[]>();
  for (const plan of plans) {
    if (plan.repository === undefined) continue;
    const key = plan.repository.url.replace(/\.git$/, '').toLowerCase();
    byRepository.set(key, [...(byRepository.get(key) ?? []), plan]);
  }
  const stages = new Map<InstalledDependency, RepositoryStage>();
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(options.concurrency ?? 3);
  const total = byRepository.size;
  let done = 0;
  try {
    for (const plan of plans) {
      if (plan.repository === undefined) stages.set(plan.dependency, await fromPackage(plan, options));
    }
    // Settled, not all: on a failure the repositories still in flight finish (or abort) before their stages are removed.
    const settled = await Promise.allSettled(
      [...byRepository.values()].map((group) =>
        limit(async () => {
          options.signal?.throwIfAborted();
          const url = (group[0] as RepositoryPlan).repository?.url ?? '';
          options.onProgress?.({ done, total, current: url });
          for (const stage of await stageRepository(url, group, options)) stages.set(stage.dependency, stage);
          done += 1;
          options.onProgress?.({ done, total, current: url });
        }),
      ),
    );
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  } catch (error) {
    limit.clearQueue();
    await Promise.all([...stages.values()].map((s) => (s.result.ok ? s.result.value.dispose() : undefined)));
    throw error;
  }
  return dependencies.map((dependency) => stages.get(dependency) as RepositoryStage);
}

/** One repository: list its tags, fetch each tag needed into one local repository, stage each dependency. */
async function stageRepository(
  url: string,
  group: readonly RepositoryPlan[],
  options: RepositoryDocsOptions,
): Promise<RepositoryStage[]> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const stages: RepositoryStage[] = [];
  const failed = async (reason: string) => {
    for (const plan of group) {
      if (!stages.some((s) => s.dependency === plan.dependency)) {
        stages.push(await fromPackage({ ...plan, fallback: reason }, options));
      }
    }
    return stages;
  };
  const { dir, dispose } = await tempDir('repo');
  try {
    const run = (args: readonly string[]) => git(['-c', 'protocol.ext.allow=never', '-C', dir, ...args], signal);
    let tags: Map<string, string>;
    try {
      await git(['init', '-q', dir], signal);
      // Links would let a repository pull any file of this machine into a package.
      await run(['config', 'core.symlinks', 'false']);
      await run(['remote', 'add', 'origin', url]);
      tags = parseTagListing(await run(['ls-remote', '--tags', 'origin']));
    } catch (error) {
      options.signal?.throwIfAborted();
      return await failed(reasonOf(error, timeout, options.timeoutMs, `cannot list the tags of ${url}`));
    }
    for (const plan of group) {
      options.signal?.throwIfAborted();
      const tag = plan.tags.find((candidate) => tags.has(candidate));
      if (tag === undefined) {
        stages.push(
          await fromPackage({ ...plan, fallback: `no tag for ${plan.dependency.version} in ${url}` }, options),
        );
        continue;
      }
      try {
        await run(['fetch', '-q', '--depth', '1', '--no-tags', 'origin', `refs/tags/${tag}`]);
        await run(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--force', '--detach', 'FETCH_HEAD']);
        const commit = (await run(['rev-parse', 'HEAD'])).trim();
        const docs = await repositoryDocsFolder(dir, plan.repository?.directory);
        if (docs === undefined) {
          stages.push(await fromPackage({ ...plan, fallback: `no docs folder in ${url} at ${tag}` }, options));
          continue;
        }
        stages.push(await withRepositoryDocs(plan, options, { url, tag, commit, ...docs }));
      } catch (error) {
        options.signal?.throwIfAborted();
        const reason = reasonOf(error, timeout, options.timeoutMs, `cannot fetch ${tag} from ${url}`);
        if (timeout.aborted) return await failed(reason);
        stages.push(await fromPackage({ ...plan, fallback: reason }, options));
      }
    }
    return stages;
  } catch (error) {
    await Promise.all(stages.map((s) => (s.result.ok ? s.result.value.dispose() : undefined)));
    throw error;
  } finally {
    await dispose();
  }
}

/** The docs folder of a checked-out repository: in the package's own folder first, then at the root. */
async function repositoryDocsFolder(
  repository: string,
  directory: string | undefined,
): Promise<{ root: string; docsPath: string } | undefined> {
  const top = await realpath(repository);
  const candidates = [
    ...(directory ? DOCS_FOLDERS.map((folder) => `${directory}/${folder}`) : []),
    ...DOCS_FOLDERS.filter((folder) => !directory || !folder.startsWith(`${directory}/`)),
  ];
  for (const candidate of candidates) {
    const root = path.join(repository, ...candidate.split('/'));
    const real = await realpath(root).catch(() => undefined);
    if (real === undefined || !real.startsWith(`${top}${path.sep}`)) continue;
    if (!(await stat(real)).isDirectory()) continue;
    if ((await findDocFiles(real)).length > 0) return { root: real, docsPath: candidate };
  }
  return undefined;
}

/** The package staged as usual, with the repository's docs folder added under its path in the repository. */
async function withRepositoryDocs(
  plan: RepositoryPlan,
  options: StageOptions,
  found: { url: string; tag: string; commit: string; root: string; docsPath: string },
): Promise<RepositoryStage> {
  const staged = await stageDependencyDocs(plan.dependency, options);
  const base: ResolvedSource | undefined = staged.ok ? staged.value : undefined;
  const { dir, dispose } = base ? { dir: base.root, dispose: base.dispose } : await tempDir('dep');
  try {
    for (const file of await findDocFiles(found.root)) {
      const target = path.join(dir, ...found.docsPath.split('/'), ...file.relativePath.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file.absolutePath, target);
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  const { dependency } = plan;
  const value: ResolvedSource = {
    kind: 'dependency',
    root: dir,
    name: dependency.name,
    version: dependency.version,
    ...(dependency.description ? { description: dependency.description } : {}),
    source: `${found.url}#${found.commit} path ${found.docsPath} (tag ${found.tag}), npm:${dependency.name}@${dependency.version}`,
    commit: found.commit,
    warnings: [],
    skipped: [],
    dispose,
  };
  return { dependency, result: { ok: true, value }, from: 'repository', tag: found.tag };
}

async function fromPackage(plan: RepositoryPlan, options: StageOptions): Promise<RepositoryStage> {
  return {
    dependency: plan.dependency,
    result: await stageDependencyDocs(plan.dependency, options),
    from: 'package',
    ...(plan.fallback === undefined ? {} : { fallback: plan.fallback }),
  };
}

function reasonOf(error: unknown, timeout: AbortSignal, timeoutMs: number | undefined, what: string): string {
  if (timeout.aborted) return `${what}: timed out after ${Math.round((timeoutMs ?? 120_000) / 1000)} s`;
  return (gitFailure(error, undefined, what) as Error).message;
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
