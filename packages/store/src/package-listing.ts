import { statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from './errors.js';
import type { InstalledPackage } from './installed-package.js';
import { compareNames, compareVersions, isSemverLabel, parsePackageFileName } from './names.js';
import { readBuiltAt } from './package-file.js';
import { isLockFile, removeLeftoversSync } from './partial-files.js';
import type { VerifiedPackages } from './verified-packages.js';

/**
 * The packages in a store's directory, in the one order every reader of "the highest version" takes: by name
 * ascending, highest version first as {@link compareVersions} orders them (semver versions above labels that are not,
 * those newest build first). Read afresh when the directory changed, so packages added or removed by another process
 * are seen.
 *
 * @example
 * const listing = new PackageListing(store.dir);
 * const [first] = await listing.list();
 */
export class PackageListing {
  readonly #dir: string;
  readonly #verify: VerifiedPackages | undefined;
  #last: { version: string; packages: InstalledPackage[] } | undefined;
  /** Build times read to order labels that are not semver, by file, with the file's size and time when read. */
  #builtAt = new Map<string, { mtimeMs: number; bytes: number; builtAt: string | undefined }>();

  /**
   * @param verify - for a store whose packages docs did not install: each package is validated before it is listed,
   *   and left out when it fails.
   */
  constructor(dir: string, verify?: VerifiedPackages) {
    this.#dir = dir;
    this.#verify = verify;
  }

  /** The installed packages, in order (a fresh array each call). A missing directory is an empty store. */
  async list(): Promise<InstalledPackage[]> {
    // Installing, replacing or removing a package renames or unlinks a file in
    // the directory, which changes the directory's mtime; package files are
    // never modified in place. One stat then tells whether the last listing holds.
    let version: string;
    let entries: string[];
    try {
      // Synchronous on purpose: a directory stat takes microseconds, while the
      // thread-pool round trip of the async one costs more than a search.
      version = String(statSync(this.#dir, { bigint: true }).mtimeNs);
      if (this.#last?.version === version) return [...this.#last.packages];
      entries = await readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new StoreError('io', `cannot read the store at ${this.#dir}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    // Every change shows here, so this is where a killed build's files are first seen.
    if (entries.some((e) => e.startsWith('.') && (e.includes('.partial') || isLockFile(e)))) {
      removeLeftoversSync(this.#dir);
    }
    const found: InstalledPackage[] = [];
    for (const entry of entries) {
      const id = parsePackageFileName(entry);
      if (!id) continue;
      const file = path.join(this.#dir, entry);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) found.push({ ...id, file, bytes: info.size, mtimeMs: info.mtimeMs });
    }
    const packages = this.#verify ? [...(await this.#verify.admit(found))] : found;
    const builtAt = this.#buildTimes(packages);
    const label = (p: InstalledPackage) => ({ version: p.version, builtAt: builtAt.get(p.file) });
    packages.sort((a, b) => compareNames(a.name, b.name) || compareVersions(label(b), label(a)));
    this.#last = { version, packages };
    return [...packages];
  }

  /**
   * The build times that order a library's version labels that are not semver (a commit, a date: see
   * compareVersions), by file. Read only for a library with two or more such labels, which is rare, and once per
   * file as it is: a listing of semver versions opens no package.
   */
  #buildTimes(packages: readonly InstalledPackage[]): Map<string, string | undefined> {
    const byName = new Map<string, InstalledPackage[]>();
    for (const p of packages) if (!isSemverLabel(p.version)) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
    const known = this.#builtAt;
    this.#builtAt = new Map();
    const times = new Map<string, string | undefined>();
    for (const labels of byName.values()) {
      if (labels.length < 2) continue;
      for (const p of labels) {
        const read = known.get(p.file);
        const builtAt = read?.mtimeMs === p.mtimeMs && read.bytes === p.bytes ? read.builtAt : readBuiltAt(p.file);
        this.#builtAt.set(p.file, { mtimeMs: p.mtimeMs, bytes: p.bytes, builtAt });
        times.set(p.file, builtAt);
      }
    }
    return times;
  }
}
