import {
  type InstalledPackage,
  isStoreError,
  type PackageReader,
  PackageStore,
  resolveHome,
  type StoreError,
} from '@docs/store';
import type { GlobalOptions } from './options.js';
import { terminalJson } from './terminal.js';

/** The store the command works on: --home, else $DOCS_HOME, else the user data directory. */
export function openStore(globals: GlobalOptions): PackageStore {
  return new PackageStore(resolveHome({ home: globals.home }));
}

/** Writes one JSON object, the machine-readable form of every command. */
export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

/**
 * A reader on an installed package, or, for a package an earlier docs built
 * in another package format, the error that says so: list and sync carry on
 * past such a package, where a search stops at it. Other errors are thrown.
 */
export function readerOrFormatError(store: PackageStore, pkg: InstalledPackage): PackageReader | StoreError {
  try {
    return store.reader(pkg);
  } catch (error) {
    if (isStoreError(error, 'unknown-format')) return error;
    throw error;
  }
}
