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
  | 'io';

/**
 * A real failure of the store (a refused package file, a bad name). Expected
 * outcomes such as "this library is not installed" are results, not errors.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
