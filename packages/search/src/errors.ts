/**
 * An option value a caller passed that makes no sense (a negative limit, a
 * drop above 1): the caller's to fix. Any other RangeError from a search is
 * not the caller's: ranking functions reject bad numbers too, and those come
 * from data, so they must not be reported as "invalid arguments".
 */
export class SearchOptionError extends RangeError {
  override readonly name = 'SearchOptionError';
}
