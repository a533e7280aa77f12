/**
 * Bad input from the user: printed as one line, exit code 2. `code` names it
 * for `--json` output (`{ "error": { "code", "message" } }`).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code: string;

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? 'usage';
  }
}

/** The user interrupted the command (Ctrl-C); whatever it was writing was discarded. Exit code 130. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}
