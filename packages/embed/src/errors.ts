import { type Blame, DocsError } from '@docs/errors';

/** What went wrong, for a caller that handles some failures differently (e.g. answers lexically when `not-found`). */
export type EmbedErrorCode =
  /** The spec does not follow the grammar (see `openEmbedder`). */
  | 'invalid-spec'
  /** No model folder by that name or path, or the folder lacks a file the model needs. */
  | 'not-found'
  /** The local runtime (`@huggingface/transformers`) is not installed. */
  | 'not-installed'
  /** A model gave vectors of another length than expected (its id, an earlier batch, or the caller's). */
  | 'dimension'
  /** The endpoint refused the key (HTTP 401 or 403), or no key was given where one is needed. */
  | 'auth'
  /** The endpoint could not be reached (connection refused, DNS, network). */
  | 'unreachable'
  /** A request or a model load took longer than allowed. */
  | 'timeout'
  /** The endpoint answered something other than the expected JSON shape, or kept failing (5xx, 429). */
  | 'bad-response'
  /** The endpoint refused the request itself (another 4xx): an unknown model, an input too long... */
  | 'rejected'
  /** The model could not be loaded or run (a broken ONNX file, an unsupported architecture). */
  | 'model';

/**
 * A failure of an embedder or a re-ranker: opening one (a bad spec, a missing model or runtime) or
 * using one (an endpoint that refuses, times out or answers nonsense). The message says what to do.
 *
 * @example
 * try { await openEmbedder('bge-small-en-v1.5'); }
 * catch (error) { if (error instanceof EmbedError && error.code === 'not-found') answerLexically(); else throw error; }
 */
export class EmbedError extends DocsError<EmbedErrorCode> {
  override readonly name = 'EmbedError';

  /** A spec that does not follow the grammar is the caller's; a model, runtime or endpoint the user's. */
  override get blame(): Blame {
    return this.code === 'invalid-spec' ? 'caller' : 'user';
  }
}
