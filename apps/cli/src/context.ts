import {
  type InstalledPackage,
  isStoreError,
  type PackageReader,
  PackageStore,
  resolveHome,
  type StoreError,
} from '@docs/store';
import type { GlobalOptions } from './options.js';

/** The store the command works on: --home, else $DOCS_HOME, else the user data directory. */
export function openStore(globals: GlobalOptions): PackageStore {
  return new PackageStore(resolveHome({ home: globals.home }));
}

/** Writes one JSON object, the machine-readable form of every command. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A reader on an installed package, or, for a package an earlier docs built
 * in another package format or one damaged since it was installed, the error
 * that says so: list and sync carry on past such a package (sync builds it
 * again). Other errors are thrown.
 */
export function readerOrFormatError(store: PackageStore, pkg: InstalledPackage): PackageReader | StoreError {
  try {
    return store.reader(pkg);
  } catch (error) {
    if (isStoreError(error, 'unknown-format', 'damaged-package')) return error;
    throw error;
  }
}
