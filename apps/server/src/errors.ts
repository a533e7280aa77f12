/** Why a server could not start. */
export type ServerErrorCode = 'token-required' | 'address-in-use' | 'cannot-listen';

/** A server that could not start, for a reason the user can fix. */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  readonly code: ServerErrorCode;

  constructor(code: ServerErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
