import { DocsError } from '@docs/errors';

/** Why a build could not start or finish. */
export type IngestErrorCode = 'not-found' | 'not-a-directory' | 'no-documents';

/** A build refused for a reason the user can fix (a missing folder, no docs in it). */
export class IngestError extends DocsError<IngestErrorCode> {
  override readonly name = 'IngestError';
}
