import path from 'node:path';
import {
  type InstalledPackage,
  isStoreError,
  type PackageReader,
  PackageStore,
  resolveHome,
  type StoreError,
  VerifiedPackages,
} from '@docs/store';
import { userConfigDir } from './config/load.js';
import type { GlobalOptions } from './options.js';
import { terminalJson } from './terminal.js';

/**
 * The store the command works on: --home, else $DOCS_HOME, else the user data directory. A store a project config
 * names holds files that came with the project (a `git clone`), not through docs: each package is validated as
 * `docs add` validates a file before it is used, once per file as it is (see VerifiedPackages).
 */
export function openStore(globals: GlobalOptions): PackageStore {
  const home = resolveHome({ home: globals.home });
  if (!globals.homeFromProject) return new PackageStore(home);
  return new PackageStore(home, { verify: projectStoreVerifier() });
}

/** Where the packages of project stores that passed validation are remembered: the user's, not the project's. */
export function verifiedPackagesRecord(): string {
  return path.join(userConfigDir(), 'verified-packages.json');
}

function projectStoreVerifier(): VerifiedPackages {
  return new VerifiedPackages(verifiedPackagesRecord(), {
    onRefused: (pkg, reason) =>
      process.stderr.write(
        `docs: not using ${pkg.file}, which the project's store holds: ${reason} (a project store's packages are validated as docs add validates a file)\n`,
      ),
  });
}

/** Writes one JSON object, the machine-readable form of every command. */
export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

/**
 * A reader on an installed package, or, for a package an earlier docs built
 * in another package format, one damaged since it was installed or one this
 * process may not read, the error that says so: list and sync carry on past
 * such a package (sync builds it again). Other errors are thrown.
 */
export function readerOrFormatError(store: PackageStore, pkg: InstalledPackage): PackageReader | StoreError {
  try {
    return store.reader(pkg);
  } catch (error) {
    if (isStoreError(error, 'unknown-format', 'damaged-package', 'unreadable')) return error;
    throw error;
  }
}
