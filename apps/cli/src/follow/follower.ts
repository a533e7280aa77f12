import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LibraryBuildState, LibraryBuilds } from '@docs/server';
import { isBeingBuilt, packageFileName, parsePackageSpec, tryBuildLock } from '@docs/store';
import { type ProjectWatch, watchProject } from './project-watch.js';
import { type DocsCommand, type RunningSync, runSync, type SyncRun } from './sync-child.js';

/** Options of a ProjectFollower. */
export interface FollowerOptions {
  /** The project folder (what `docs sync` reads). */
  readonly project: string;
  /** The store it builds into. */
  readonly home: string;
  /** How to run this docs (`docs sync` is what builds). */
  readonly docs: DocsCommand;
  /** More arguments for each `docs sync` (`--dev`, `--no-types`). @default none */
  readonly syncArgs?: readonly string[];
  /** Where to say what went wrong: a build that failed, a project it cannot read, folders it cannot watch. */
  readonly log: (line: string) => void;
  /** Told of each library built, skipped or failed (a failure is also logged). */
  readonly onEvent?: (event: FollowEvent) => void;
  /** How long get_docs waits for a library being built before it answers without it. @default 10000 */
  readonly waitMs?: number;
  /** See ProjectWatchOptions.quietMs. @default 1000 */
  readonly quietMs?: number;
  /** How long after start() the first plan waits, unless a change or a request comes first. @default 2000 */
  readonly startDelayMs?: number;
  /** Look at the lockfiles on each request instead of watching (what a watcher that cannot watch does). @default false */
  readonly statOnly?: boolean;
}

/** What happened to one library a follower built. */
export type FollowEvent =
  | { readonly kind: 'built'; readonly library: string; readonly seconds: number; readonly summary: BuiltSummary }
  | { readonly kind: 'skipped' | 'failed'; readonly library: string; readonly reason: string };

/** What `docs sync --json` says of a package it built. */
export interface BuiltSummary {
  readonly library: string;
  readonly documents: number;
  readonly chunks: number;
  readonly tokens: number;
  readonly bytes: number;
}

interface Planned {
  readonly name: string;
  readonly version: string;
  /** `name@version` in lower case: how the queue and the waiters know it. */
  readonly id: string;
}

/** How long to wait before looking again at a library another docs is building. */
const ELSEWHERE_RETRY_MS = 2000;
/** A build's time before any was measured here: a README and API page build of a typical package, child included. */
const FIRST_GUESS_MS = 2000;
/** How long after start the first look at the project waits. */
const START_DELAY_MS = 2000;
/** How often a project that cannot be watched is looked at when no request comes: a few stats. */
const STAT_POLL_MS = 5000;

/**
 * Keeps a store in step with what a project installs, for `docs serve` and `docs sync --watch`: the project's
 * manifests, lockfiles and install markers are watched (watched-files.ts), and when they change `docs sync --dry-run`
 * says what the store lacks, which is then built one library at a time, each by `docs sync --only <it>` in a child
 * process, under the library's build lock so that two docs following one project never build it twice at once. The
 * rules are sync's: what is built is skipped, and a new version is a package beside the old one, which stays. A change
 * during a build plans again once that library is done, so the last state is the one built.
 *
 * @example
 * const follower = new ProjectFollower({ project, home, docs, log });
 * follower.start();
 * await serveStdio({ ..., builds: follower });
 */
export class ProjectFollower implements LibraryBuilds {
  readonly #options: FollowerOptions;
  #watch: ProjectWatch | undefined;
  /** Planned and not yet built, in sync's order; the ones asked for go first. */
  #pending = new Map<string, Planned>();
  #first: string[] = [];
  /** Each library's waiters, told whether it was built when it leaves the queue. */
  readonly #waiters = new Map<string, Set<(built: boolean) => void>>();
  #running: Promise<void> | undefined;
  /** Set while a plan is being made. */
  #planning = false;
  #planned = false;
  #dirty = false;
  #closed = false;
  #current: RunningSync | undefined;
  /** Libraries whose build failed: not tried again until the project changes. */
  readonly #failed = new Set<string>();
  /**
   * Libraries sync skipped (no README, docs folder or declarations at that version): the same files give the same
   * answer, so they are not tried again, changes or not; a new version is another library.
   */
  readonly #nothingToBuild = new Set<string>();
  #retry: NodeJS.Timeout | undefined;
  #startLater: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  /** Told when the next plan is known. */
  #planWaiters: Array<() => void> = [];
  /** The last builds' times, for how long to say a build takes. */
  readonly #durations: number[] = [];
  /** The last problem said, so that each is said once. */
  #said: string | undefined;

  constructor(options: FollowerOptions) {
    this.#options = options;
  }

  /** Watches the project and plans a first pass: what the store lacks of it is built in the background. */
  start(): void {
    this.#watch = watchProject(this.#options.project, {
      onChange: () => {
        this.#failed.clear();
        this.schedule();
      },
      log: this.#options.log,
      onFallback: () => this.#pollEvery(STAT_POLL_MS),
      ...(this.#options.quietMs === undefined ? {} : { quietMs: this.#options.quietMs }),
      ...(this.#options.statOnly ? { statOnly: true } : {}),
    });
    if (this.#options.statOnly) this.#pollEvery(STAT_POLL_MS);
    // The first look waits until the host's first requests are answered (a process of its own would share the cores
    // with the server's start); a change, or get_docs asking for a library, starts it sooner.
    this.#startLater = setTimeout(() => this.schedule(), this.#options.startDelayMs ?? START_DELAY_MS);
    this.#startLater.unref();
  }

  /**
   * Without a watcher, requests check (check()); a server over HTTP, whose requests run on other threads, and
   * `docs sync --watch`, which has none, are checked on a timer too.
   */
  #pollEvery(ms: number): void {
    if (this.#poll || this.#closed) return;
    this.#poll = setInterval(() => this.#watch?.check(), ms);
    this.#poll.unref();
  }

  /** `events` while the project is watched; `stat` when its lockfiles are looked at on each request instead. */
  get mode(): 'events' | 'stat' {
    return this.#watch?.mode ?? 'events';
  }

  /** Cheap, for each request: a few stats when the project cannot be watched, nothing otherwise. */
  check(): void {
    if (this.#watch?.mode === 'stat') this.#watch.check();
  }

  /** Plans again (now, or after the library being built): what the store lacks is built. */
  schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#startLater);
    this.#dirty = true;
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
  }

  /** Resolves once nothing is planned or being built (for `docs sync --watch` and tests). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async awaitBuild(name: string, version: string): Promise<LibraryBuildState> {
    if (this.#closed) return { state: 'none' };
    const id = `${name}@${version}`.toLowerCase();
    const deadline = performance.now() + (this.#options.waitMs ?? 10_000);
    const left = () => Math.max(0, deadline - performance.now());
    if (!this.#pending.has(id)) {
      // The usual case, a library the store holds at the project's version: one stat.
      if (existsSync(path.join(this.#options.home, packageFileName({ name, version })))) return { state: 'built' };
      // An install not seen yet (within the quiet time, or no watcher) is seen now, and planned.
      this.#watch?.check();
      if (!this.#planned) this.schedule();
      if (this.#dirty || this.#planning) await within(this.#nextPlan(), left());
      if (!this.#pending.has(id)) {
        // Another docs (a second agent window) may be building it.
        const elsewhere = await isBeingBuilt(this.#options.home, name).catch(() => false);
        return elsewhere ? { state: 'building', retryAfterSeconds: this.#retryAfter(id) } : { state: 'none' };
      }
    }
    this.#first = [id, ...this.#first.filter((first) => first !== id)];
    const built = await within(this.#waitFor(id), left());
    if (built === true) return { state: 'built' };
    if (built === false) return { state: 'none' };
    return { state: 'building', retryAfterSeconds: this.#retryAfter(id) };
  }

  building(): readonly string[] {
    return [...this.#pending.values()].map((p) => `${p.name}@${p.version}`);
  }

  /** Stops watching and interrupts the build under way (sync keeps nothing partial); resolves once it has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watch?.close();
    clearTimeout(this.#retry);
    clearTimeout(this.#startLater);
    clearInterval(this.#poll);
    this.#current?.stop();
    for (const [id] of this.#waiters) this.#settle(id, false);
    for (const resolve of this.#planWaiters.splice(0)) resolve();
    await this.#running;
  }

  async #run(): Promise<void> {
    while (this.#dirty && !this.#closed) {
      this.#dirty = false;
      this.#planning = true;
      try {
        const plan = await this.#plan();
        const tried = (p: Planned) => this.#failed.has(p.id) || this.#nothingToBuild.has(p.id);
        this.#pending = new Map(plan.filter((p) => !tried(p)).map((p) => [p.id, p]));
      } finally {
        this.#planned = true;
        this.#planning = false;
        for (const resolve of this.#planWaiters.splice(0)) resolve();
      }
      // Waiting for a library no longer planned: built meanwhile (by another docs), or no longer installed.
      for (const id of [...this.#waiters.keys()]) if (!this.#pending.has(id)) this.#settle(id, true);
      let elsewhere = false;
      while (this.#pending.size > 0 && !this.#dirty && !this.#closed) {
        const next = this.#next();
        const outcome = await this.#build(next);
        this.#pending.delete(next.id);
        this.#first = this.#first.filter((id) => id !== next.id);
        if (outcome === 'elsewhere') elsewhere = true;
        else this.#settle(next.id, outcome === 'built');
        if (outcome === 'unwritable') return;
      }
      if (elsewhere && !this.#closed) {
        // Another docs builds it: looked at again shortly, when it is built (and so skipped) or its builder gone.
        this.#retry = setTimeout(() => this.schedule(), ELSEWHERE_RETRY_MS);
        this.#retry.unref();
      }
    }
  }

  /** What the store lacks of the project, as `docs sync --dry-run` says. */
  async #plan(): Promise<Planned[]> {
    const run = runSync(this.#options.docs, this.#options.project, this.#options.home, [
      ...(this.#options.syncArgs ?? []),
      '--dry-run',
    ]);
    this.#current = run;
    const result = await run.done;
    this.#current = undefined;
    if (this.#closed) return [];
    const build = result.output?.build;
    // A folder with no manifest is no project yet: nothing to build, nothing to say (its manifest is watched for).
    if ((result.output?.error as { code?: unknown } | undefined)?.code === 'not-found') return [];
    if (!Array.isArray(build)) {
      this.#sayOnce(`cannot read what ${this.#options.project} installs: ${failure(result)}`);
      return [];
    }
    this.#said = undefined;
    return build.flatMap((entry: { library?: unknown }) => {
      if (typeof entry.library !== 'string') return [];
      const { name, version } = parsePackageSpec(entry.library);
      return version === undefined ? [] : [{ name, version, id: entry.library.toLowerCase() }];
    });
  }

  /** Builds one library unless another docs builds it now. */
  async #build(library: Planned): Promise<'built' | 'skipped' | 'failed' | 'elsewhere' | 'unwritable' | 'stopped'> {
    const { home, project, docs, log } = this.#options;
    let release: (() => Promise<void>) | undefined;
    try {
      await mkdir(home, { recursive: true });
      release = await tryBuildLock(home, library.name);
    } catch (error) {
      this.close().catch(() => undefined);
      log(`not following ${project}: cannot build into ${home} (${(error as Error).message})`);
      return 'unwritable';
    }
    if (!release) return 'elsewhere';
    const started = performance.now();
    try {
      const spec = `${library.name}@${library.version}`;
      const run = runSync(docs, project, home, [...(this.#options.syncArgs ?? []), '--only', spec]);
      this.#current = run;
      const result = await run.done;
      if (this.#closed) return 'stopped';
      const output = result.output ?? {};
      const seconds = (performance.now() - started) / 1000;
      // `--only` names one library: sync says it was built, failed or skipped, in one of three lists.
      const [built] = listOf<BuiltSummary>(output.built);
      const [failed] = listOf<{ library: string; reason: string }>(output.failed);
      const [skipped] = listOf<{ library: string; reason: string }>(output.skipped);
      if (built) {
        this.#durations.push(seconds * 1000);
        if (this.#durations.length > 5) this.#durations.shift();
        this.#options.onEvent?.({ kind: 'built', library: built.library, seconds, summary: built });
        return 'built';
      }
      if (failed) {
        this.#failed.add(library.id);
        log(`${failed.library} failed: ${failed.reason}`);
        this.#options.onEvent?.({ kind: 'failed', library: failed.library, reason: failed.reason });
        return 'failed';
      }
      if (skipped) {
        if (skipped.reason !== 'already built') this.#nothingToBuild.add(library.id);
        this.#options.onEvent?.({ kind: 'skipped', library: skipped.library, reason: skipped.reason });
        return 'skipped';
      }
      // No JSON, or none about this library: the run itself failed (its error, or why it ended).
      this.#failed.add(library.id);
      const reason = failure(result);
      log(`${spec} failed: ${reason}`);
      this.#options.onEvent?.({ kind: 'failed', library: spec, reason });
      return 'failed';
    } finally {
      this.#current = undefined;
      await release();
    }
  }

  #next(): Planned {
    for (const id of this.#first) {
      const asked = this.#pending.get(id);
      if (asked) return asked;
    }
    return this.#pending.values().next().value as Planned;
  }

  /** Resolves when the plan being made, or the next one, is known. */
  #nextPlan(): Promise<void> {
    return new Promise((resolve) => this.#planWaiters.push(resolve));
  }

  #waitFor(id: string): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      this.#waiters.set(id, waiters);
      waiters.add(resolve);
    });
  }

  #settle(id: string, built: boolean): void {
    for (const resolve of this.#waiters.get(id) ?? []) resolve(built);
    this.#waiters.delete(id);
  }

  /** About how long until `id` is built: the libraries before it in the queue, and it, at the recent builds' pace. */
  #retryAfter(id: string): number {
    const each = this.#durations.length
      ? this.#durations.reduce((sum, ms) => sum + ms, 0) / this.#durations.length
      : FIRST_GUESS_MS;
    const ahead = this.#first.includes(id) ? this.#first.indexOf(id) : this.#pending.size;
    return Math.max(2, Math.ceil(((ahead + 1) * each) / 1000));
  }

  #sayOnce(line: string): void {
    if (line === this.#said) return;
    this.#said = line;
    this.#options.log(line);
  }
}

/** `promise`'s value, or undefined once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** Why a `docs sync` run gave no answer: its JSON error, else the last line of its stderr, else how it ended. */
function failure(run: SyncRun): string {
  const error = run.output?.error as { message?: unknown } | undefined;
  if (typeof error?.message === 'string') return error.message;
  const last = run.stderr.trim().split('\n').at(-1);
  if (last) return last.replace(/^docs: /, '');
  return run.signal ? `ended by ${run.signal}` : `ended with exit code ${run.code}`;
}
