/**
 * Marks every DocsError. `Symbol.for` gives the same symbol to every copy of
 * this module in a process, so an error made by a bundled copy (the CLI's
 * bundle inlines the packages it runs) is recognised by any other copy, where
 * `instanceof` against another copy of the class would say no.
 */
const BRAND = Symbol.for('@docs/errors.DocsError');

/**
 * Whose a failure is to fix:
 * - `caller`: the call's own arguments (an option out of range, a malformed name): change them and call again;
 * - `user`: the world the call ran in (a missing folder, a damaged package, a refused endpoint): the message says
 *   what to fix;
 * - `bug`: neither: docs itself failed, and says so.
 */
export type Blame = 'caller' | 'user' | 'bug';

/**
 * The base of every error a docs package throws on purpose: a stable string
 * `code` a caller can switch on, a message that says what to do, and whose
 * the failure is ({@link Blame}). Anything else thrown is a bug.
 *
 * @example
 * type WidgetErrorCode = 'not-found' | 'invalid-name';
 * class WidgetError extends DocsError<WidgetErrorCode> {
 *   override readonly name = 'WidgetError';
 *   override get blame(): Blame {
 *     return this.code === 'invalid-name' ? 'caller' : 'user';
 *   }
 * }
 */
export abstract class DocsError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Whose the failure is to fix: the user's unless a class says otherwise for some of its codes. */
  get blame(): Blame {
    return 'user';
  }
}

/** Whether `error` is a {@link DocsError}, whichever copy of this package made it. */
export function isDocsError(error: unknown): error is DocsError {
  return typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

/** Whether `error` is a {@link DocsError} of the class named `name` (its `name`), with one of `codes` if any are given. */
export function isDocsErrorNamed(error: unknown, name: string, codes: readonly string[] = []): error is DocsError {
  return isDocsError(error) && error.name === name && (codes.length === 0 || codes.includes(error.code));
}
