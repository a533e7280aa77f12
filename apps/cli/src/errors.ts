import { type Blame, DocsError } from '@docs/errors';

/**
 * Bad input from the user: printed as one line, exit code 2. `code` names it
 * for `--json` output (`{ "error": { "code", "message" } }`).
 */
export class UsageError extends DocsError {
  override readonly name = 'UsageError';

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(options.code ?? 'usage', message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  override get blame(): Blame {
    return 'caller';
  }
}

/** The user interrupted the command (Ctrl-C); whatever it was writing was discarded. Exit code 130. */
export class InterruptedError extends DocsError<'interrupted'> {
  override readonly name = 'InterruptedError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('interrupted', message, options);
  }
}
