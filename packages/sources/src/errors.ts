import { type Blame, DocsError } from '@docs/errors';

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
export class SourceError extends DocsError<SourceErrorCode> {
  override readonly name = 'SourceError';

  /** A source named in a way that cannot work is the caller's; a missing folder or a failing git the user's. */
  override get blame(): Blame {
    return this.code === 'invalid-source' ? 'caller' : 'user';
  }
}
