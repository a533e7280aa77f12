import { type Blame, isDocsError } from './docs-error.js';

/** Any error, as every surface (the CLI, MCP, the HTTP API) reports it. */
export interface Classified {
  readonly blame: Blame;
  /** The error's code; `internal` for a bug. */
  readonly code: string;
  readonly message: string;
}

/**
 * The one error policy: a {@link DocsError} is the caller's or the user's to
 * fix, as its class says; anything else thrown (a TypeError, a RangeError from
 * deep down, a string) is a bug. Each surface words the three cases its own
 * way (exit codes, an MCP error result, an HTTP status) from this alone.
 *
 * @example
 * const { blame, code, message } = classify(error);
 * if (blame === 'bug') console.error(`unexpected error (this is a bug): ${message}`);
 */
export function classify(error: unknown): Classified {
  if (isDocsError(error)) return { blame: error.blame, code: error.code, message: error.message };
  return { blame: 'bug', code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
