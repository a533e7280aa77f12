/** Bad input from the user: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
