import { ADD_DOCS_HINT, shortDescription } from '@docs/search';
import {
  formatPackageId,
  type InstalledPackage,
  isStoreError,
  type PackageInfo,
  type PackageStats,
  type PackageStore,
  type StoreError,
} from '@docs/store';
import { openStore, printJson, readerOrFormatError } from '../context.js';
import type { GlobalOptions } from '../options.js';
import { printErrorLine, printLine } from '../terminal.js';

/** `docs list`: installed libraries with version, description, sections and size. */
export async function list(globals: GlobalOptions): Promise<void> {
  const store = openStore(globals);
  try {
    const rows = [];
    const unreadable: { library: string; problem: string }[] = [];
    for (const pkg of await store.list()) {
      // Listed, not fatal: this is where a user looks to find what to rebuild or remove.
      const read = await readListing(store, pkg);
      if (isStoreError(read)) {
        unreadable.push({ library: formatPackageId(pkg), problem: read.message });
        continue;
      }
      const { info, stats } = read;
      rows.push({
        library: formatPackageId(pkg),
        name: pkg.name,
        version: pkg.version,
        // Written by the package's maker, at any length: a listing shows each cut to a few lines.
        description: shortDescription(info.description),
        source: shortDescription(info.source),
        builtAt: info.builtAt,
        documents: stats.documents,
        sections: stats.chunks,
        tokens: stats.tokens,
        bytes: pkg.bytes,
      });
    }
    if (globals.json) {
      printJson({ home: store.dir, libraries: rows, ...(unreadable.length > 0 ? { unreadable } : {}) });
      return;
    }
    for (const u of unreadable) {
      // A damaged package's message already says how to rebuild it.
      const advice = /rebuild it:/.test(u.problem) ? '' : ` (docs add its source again, or docs remove ${u.library})`;
      printErrorLine(`docs: ${u.problem}${advice}`);
    }
    if (rows.length === 0 && unreadable.length === 0) {
      process.stdout.write(`No libraries installed in ${store.dir}. ${ADD_DOCS_HINT}\n`);
      return;
    }
    const width = Math.max(...rows.map((r) => r.library.length));
    for (const r of rows) {
      const size = `${(r.bytes / 1e6).toFixed(1)} MB`;
      const about = r.description ? `  ${r.description}` : '';
      printLine(`${r.library.padEnd(width)}  ${String(r.sections).padStart(6)} sections  ${size.padStart(8)}${about}`);
    }
  } finally {
    await store.close();
  }
}

/** A package's description and counts, or why it cannot be read (another format, damaged since, not permitted). */
async function readListing(
  store: PackageStore,
  pkg: InstalledPackage,
): Promise<{ info: PackageInfo; stats: PackageStats } | StoreError> {
  const reader = readerOrFormatError(store, pkg);
  if (isStoreError(reader)) return reader;
  try {
    return { info: await reader.info(), stats: await reader.stats() };
  } catch (error) {
    if (isStoreError(error, 'damaged-package', 'unreadable')) return error;
    throw error;
  }
}
