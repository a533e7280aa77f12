import { type Blame, DocsError } from '@docs/errors';

/**
 * An option value a caller passed that makes no sense (a negative limit, a
 * drop above 1): the caller's to fix, with a message that names the option.
 * Any other error from a search is not the caller's: ranking functions reject
 * bad numbers too (RangeError), and those come from data, so they must not be
 * reported as "invalid arguments".
 */
export class SearchOptionError extends DocsError<'invalid-argument'> {
  override readonly name = 'SearchOptionError';

  constructor(message: string) {
    super('invalid-argument', message);
  }

  override get blame(): Blame {
    return 'caller';
  }
}
