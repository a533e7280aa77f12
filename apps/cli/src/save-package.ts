import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type InstalledPackage, packageFileName } from '@docs/store';
import { UsageError } from './errors.js';

/**
 * Copies an installed package to `target` for sharing: into it when it is a
 * folder (or does not end in .db), as it when it names a .db file. Written
 * under a temporary name and renamed, so a reader never sees half a file.
 */
export async function savePackage(installed: InstalledPackage, target: string): Promise<string> {
  const resolved = path.resolve(target);
  const isFolder =
    (await stat(resolved).catch(() => undefined))?.isDirectory() === true ||
    /[\\/]$/.test(target) ||
    !resolved.toLowerCase().endsWith('.db');
  const file = isFolder ? path.join(resolved, packageFileName(installed)) : resolved;
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await copyFile(installed.file, partial);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw new UsageError(`could not save the package to ${target}: ${(error as Error).message}`, { cause: error });
  }
  return file;
}
