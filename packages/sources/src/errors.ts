/** Why a source could not be opened. */
export type SourceErrorCode =
  /** The folder, file or path named does not exist. */
  | 'not-found'
  /** A source the user named cannot be used as given (an unknown kind, a bad URL, a path outside a repository). */
  | 'invalid-source'
  /** `git` failed or is missing: an unknown repository or ref, no access. */
  | 'git-failed'
  /** A website gave nothing usable. */
  | 'fetch-failed';

/** A source refused for a reason the user can fix (a missing folder, an unknown ref, a site with no pages). */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  readonly code: SourceErrorCode;

  constructor(code: SourceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
