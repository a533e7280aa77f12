import type { PackageId } from './names.js';

/** A package file in the store. */
export interface InstalledPackage extends PackageId {
  readonly file: string;
  readonly bytes: number;
  /** Modification time, so a file replaced under a running process is noticed. */
  readonly mtimeMs: number;
}
