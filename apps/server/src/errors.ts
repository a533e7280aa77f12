import { DocsError } from '@docs/errors';

/** Why a server could not start. */
export type ServerErrorCode = 'token-required' | 'address-in-use' | 'cannot-listen';

/** A server that could not start, for a reason the user can fix. */
export class ServerError extends DocsError<ServerErrorCode> {
  override readonly name = 'ServerError';
}
