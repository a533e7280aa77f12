import { lstatSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import type { InstalledPackage } from './installed-package.js';
import { formatPackageId, packageFileName } from './names.js';
import { inspectPackageFile } from './package-file.js';

/** What identifies a file as it is: another file, or this one written, renamed or touched since, differs. */
function identity(file: string): string | undefined {
  try {
    const info = lstatSync(file, { bigint: true });
    if (!info.isFile()) return undefined;
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** Bytes 18 and 19 of a SQLite header are 2 in WAL mode, whose reader would write `-shm` beside the file. */
async function isWalMode(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(20);
    await handle.read(header, 0, 20, 0);
    return header[18] === 2 || header[19] === 2;
  } finally {
    await handle.close();
  }
}

/**
 * The packages of a store that were not installed through docs (a store a project's `docs.config.json` names,
 * which arrives with a `git clone`), validated as `docs add` validates a file before any of them is used: the
 * exact schema, the format, SQLite's check, every row, and that the file is named for the library and version it
 * holds. A file that passes is remembered in `record` (outside the project, in the user's config folder) by its
 * real path and identity (device, inode, size, modification and change times), so it is validated once, and again
 * only when it changes; one that fails is left out of the store's listing, and `onRefused` says why.
 *
 * @example
 * const store = new PackageStore('./.docs', { verify: new VerifiedPackages('~/.config/docs/verified-packages.json') });
 */
export class VerifiedPackages {
  readonly #record: string;
  readonly #onRefused: ((pkg: InstalledPackage, reason: string) => void) | undefined;
  /** Refusals of this process, by path and identity: a refused file is not validated again at every listing. */
  readonly #refused = new Map<string, string>();
  /** Admissions of this process, by path: what a reader checks, without reading the record again. */
  readonly #admitted = new Map<string, string>();

  constructor(record: string, options: { onRefused?: (pkg: InstalledPackage, reason: string) => void } = {}) {
    this.#record = record;
    this.#onRefused = options.onRefused;
  }

  /** The packages of `packages` that are validated as they are now, validating those not yet. */
  async admit(packages: readonly InstalledPackage[]): Promise<InstalledPackage[]> {
    const known = this.#read();
    const admitted: InstalledPackage[] = [];
    let learned = false;
    for (const pkg of packages) {
      const id = identity(pkg.file);
      if (id !== undefined && known[pkg.file] === id) {
        this.#admitted.set(pkg.file, id);
        admitted.push(pkg);
        continue;
      }
      if (id !== undefined && this.#refused.get(pkg.file) === id) continue;
      const reason = id === undefined ? 'it is not a regular file (a symlink?)' : await this.#problem(pkg);
      if (reason === undefined && id !== undefined) {
        known[pkg.file] = id;
        this.#admitted.set(pkg.file, id);
        learned = true;
        admitted.push(pkg);
      } else {
        this.#refused.set(pkg.file, id ?? '');
        this.#onRefused?.(pkg, reason ?? 'it changed while it was validated');
      }
    }
    if (learned) await this.#write(known);
    return admitted;
  }

  /** Whether `pkg` is, as it is now, the file that was validated: a reader checks before it opens one. */
  isVerified(pkg: InstalledPackage): boolean {
    const id = identity(pkg.file);
    return id !== undefined && this.#admitted.get(pkg.file) === id;
  }

  /** Why `pkg` may not be used, or undefined when it is a valid package named for what it holds. */
  async #problem(pkg: InstalledPackage): Promise<string | undefined> {
    try {
      const info = await inspectPackageFile(pkg.file);
      if (packageFileName(info) !== path.basename(pkg.file))
        return `it holds ${formatPackageId(info)}, not what its file name says`;
      if (await isWalMode(pkg.file))
        return 'it is in WAL mode, which a reader would write beside (add it with docs add)';
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  #read(): Record<string, string> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#record, 'utf8'));
      const verified = (parsed as { verified?: unknown } | null)?.verified;
      if (typeof verified !== 'object' || verified === null) return {};
      return Object.fromEntries(Object.entries(verified).filter(([, v]) => typeof v === 'string')) as Record<
        string,
        string
      >;
    } catch {
      // Missing or damaged: every package is validated again, which costs time and nothing else.
      return {};
    }
  }

  async #write(verified: Record<string, string>): Promise<void> {
    try {
      await writeFileAtomic(this.#record, `${JSON.stringify({ verified }, null, 2)}\n`);
    } catch {
      // Unwritable: the packages are validated again next time.
    }
  }
}
