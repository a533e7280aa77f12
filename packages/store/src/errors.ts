import { type Blame, DocsError, isDocsErrorNamed } from '@docs/errors';

/** Why a store operation failed; stable strings callers can switch on. */
export type StoreErrorCode =
  | 'invalid-name'
  | 'invalid-version'
  | 'invalid-package'
  | 'unknown-format'
  | 'not-installed'
  | 'ambiguous'
  | 'name-taken'
  | 'damaged-package'
  /** The package was removed after it was listed, before it could be opened (another process's `docs remove`). */
  | 'gone'
  /** The package file is there but this process may not read it (its permissions). */
  | 'unreadable'
  | 'io';

/**
 * A real failure of the store (a refused package file, a bad name). Expected
 * outcomes such as "this library is not installed" are results, not errors.
 */
export class StoreError extends DocsError<StoreErrorCode> {
  override readonly name = 'StoreError';

  /** A malformed name or version is the caller's; the rest (a refused or damaged file, the disk) the user's. */
  override get blame(): Blame {
    return this.code === 'invalid-name' || this.code === 'invalid-version' ? 'caller' : 'user';
  }
}

/**
 * Whether `error` is a StoreError, with one of `codes` if any are given; true too for one made by another copy of
 * this package (the CLI's bundle inlines its own), where `instanceof StoreError` would say no.
 */
export function isStoreError(error: unknown, ...codes: readonly StoreErrorCode[]): error is StoreError {
  return isDocsErrorNamed(error, 'StoreError', codes);
}
