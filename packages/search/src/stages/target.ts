import type { InstalledPackage, PackageReader, PackageStore } from '@docs/store';
import { formatPackageId, isStoreError } from '@docs/store';

/** One library a query searches: its package, its label in answers (`name@version`) and its reader. */
export interface Target {
  readonly pkg: InstalledPackage;
  readonly label: string;
  /** The package's reader, asked for at each use: the store may close idle ones. */
  readonly reader: () => PackageReader;
}

/** The target for an installed package of the store. */
export function targetOf(store: PackageStore, pkg: InstalledPackage): Target {
  return { pkg, label: formatPackageId(pkg), reader: () => store.reader(pkg) };
}

/**
 * A package that cannot be read as it is (damaged after it was installed, of another format, removed by another
 * process since it was listed, or a file this process may not read): searching every library leaves it out with a
 * warning naming it, so one bad package never breaks the others' answers.
 */
export function isUnreadable(error: unknown): error is Error {
  return isStoreError(error, 'damaged-package', 'unknown-format', 'gone', 'unreadable');
}
