/** Bad input from the user: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The user interrupted the command (Ctrl-C); whatever it was writing was discarded. Exit code 130. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}
