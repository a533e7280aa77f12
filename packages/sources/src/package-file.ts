import { stat } from 'node:fs/promises';
import {
  type InstalledPackage,
  inspectPackageFile,
  type PackageInfo,
  type PackageStore,
  StoreError,
} from '@docs/store';
import { SourceError } from './errors.js';
import { formatBytes } from './fetch-document.js';

/** Options for {@link installPackageFile}. */
export interface PackageFileOptions {
  /** Larger files are refused before they are opened. @default 1 GiB */
  readonly maxBytes?: number;
  /**
   * A further check of what the file says about itself (its name and
   * version), made after the file is validated and before it is installed;
   * it throws to refuse the file.
   */
  readonly check?: (info: PackageInfo) => void;
}

/**
 * Installs a package file built elsewhere, treating it as untrusted: it must
 * be a regular file within the size limit, and then pass the store's checks
 * (a SQLite file with exactly the package schema, no triggers, views or extra
 * objects, a known format version, an intact database). Anything else is
 * refused with the reason (SourceError, or StoreError 'invalid-package' /
 * 'unknown-format') and the store is left unchanged.
 *
 * @example
 * const { installed } = await installPackageFile(store, './react@19.2.0.db');
 */
export async function installPackageFile(
  store: PackageStore,
  file: string,
  options: PackageFileOptions = {},
): Promise<{ installed: InstalledPackage; info: PackageInfo; replaced: boolean }> {
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new SourceError('not-found', `package file not found: ${file}`);
  if (!info.isFile()) throw new SourceError('invalid-source', `${file} is not a file`);
  if (info.size > maxBytes) {
    throw new StoreError(
      'invalid-package',
      `${file} is ${formatBytes(info.size)}, over the limit of ${formatBytes(maxBytes)} for a package file`,
    );
  }
  try {
    if (options.check) options.check(await inspectPackageFile(file));
    return await store.install(file);
  } catch (error) {
    // SQLite's integrity report runs to a line per damaged page; the reason is the first few.
    if (error instanceof StoreError && error.message.includes('\n')) {
      const lines = error.message
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const more = lines.length > 3 ? `; and ${lines.length - 3} more problems` : '';
      throw new StoreError(error.code, `${lines.slice(0, 3).join('; ')}${more}`, { cause: error });
    }
    throw error;
  }
}
