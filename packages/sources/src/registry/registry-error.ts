import { type Blame, DocsError } from '@docs/errors';

/** Why a doc package could not be published or installed; stable strings callers can switch on. */
export type RegistryErrorCode =
  /** A package spec or scope that is not what `docs publish`/`docs install` take. */
  | 'invalid-spec'
  /** No such package on the registry. */
  | 'not-found'
  /** The package exists, but no published version matches. */
  | 'no-matching-version'
  /** The registry refused the credentials, or there were none where some are needed. */
  | 'unauthorized'
  /** The version is already published (registries never accept a version twice). */
  | 'already-published'
  /** The tarball does not match the integrity the registry published for it. */
  | 'integrity'
  /** The tarball unpacks to more than the install's limit (refused before it is written). */
  | 'too-large'
  /** A doc package of a package format this docs does not read (older: build it here; newer: upgrade docs). */
  | 'other-format'
  /** The npm package is not a doc package docs can install (no `docs` field, no .db). */
  | 'not-a-doc-package'
  /** Any other failure of the registry or the network. */
  | 'registry-failed';

/** A refused publish or install, with the reason in words a user can act on. */
export class RegistryError extends DocsError<RegistryErrorCode> {
  override readonly name = 'RegistryError';

  /** A malformed spec or scope is the caller's; what the registry says or holds the user's. */
  override get blame(): Blame {
    return this.code === 'invalid-spec' ? 'caller' : 'user';
  }
}

/** npm-registry-fetch's and pacote's errors carry an `E401`-style code and the status. */
interface NpmError {
  readonly code?: string;
  readonly statusCode?: number;
  readonly message: string;
}

/**
 * Turns an error from npm's libraries into a RegistryError that names the
 * package and the registry; errors already translated pass through.
 */
export function toRegistryError(error: unknown, subject: string, registry: string): RegistryError {
  if (error instanceof RegistryError) return error;
  const npm = error as NpmError;
  const detail = firstLine(npm?.message ?? String(error));
  switch (npm?.code) {
    case 'E401':
    case 'E403':
    case 'ENEEDAUTH':
      return new RegistryError(
        'unauthorized',
        `${registry} refused ${subject} (${npm.code === 'ENEEDAUTH' ? 'no credentials' : `HTTP ${npm.code.slice(1)}`}): ` +
          `check the token for this registry in .npmrc (//host/:_authToken=...) or log in with npm login --registry ${registry}. ${detail}`,
        { cause: error },
      );
    case 'E404':
      return new RegistryError('not-found', `${subject} is not published on ${registry}`, { cause: error });
    case 'EINTEGRITY':
      return new RegistryError(
        'integrity',
        `the tarball of ${subject} from ${registry} does not match the integrity the registry published for it; refused. ${detail}`,
        { cause: error },
      );
    default:
      return new RegistryError('registry-failed', `${subject} on ${registry}: ${detail}`, { cause: error });
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}
