import { publishDocPackage } from '@docs/sources';
import { resolveErrorMessage } from '@docs/store';
import { projectNpmrcApproval } from '../config/npmrc-approval.js';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { groupDigits } from '../terminal.js';

/** Options of `docs publish`, as commander parses them. */
export interface PublishCommandOptions {
  readonly scope?: string;
  readonly registry?: string;
  readonly tag?: string;
  readonly dryRun?: boolean;
}

/**
 * `docs publish <library[@version]> --scope @acme`: an installed package to
 * an npm registry as `@acme/docs-<library>` at the library's version, with
 * the registry and token `.npmrc` gives for the scope.
 */
export async function publish(spec: string, options: PublishCommandOptions, globals: GlobalOptions): Promise<void> {
  if (!options.scope) throw new UsageError('say which npm scope to publish under: --scope @acme');
  const store = openStore(globals);
  try {
    const found = await store.resolve(spec);
    if (!found.ok) throw new UsageError(resolveErrorMessage(found.error));
    const result = await publishDocPackage(store, found.value, {
      scope: options.scope,
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.tag ? { tag: options.tag } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
      approveProjectNpmrc: projectNpmrcApproval(),
    });
    if (globals.json) {
      printJson(result);
      return;
    }
    const what = `${result.name}@${result.version} (tag ${result.tag})`;
    process.stdout.write(
      `${result.dryRun ? 'Would publish' : 'Published'} ${what} to ${result.registry}: ` +
        `${result.docs.library}@${result.docs.version}, ${result.docs.sections} sections, ` +
        `${groupDigits(result.docs.tokens)} tokens, ${(result.bytes / 1e6).toFixed(1)} MB tarball, ${result.integrity.slice(0, 20)}…\n`,
    );
  } finally {
    await store.close();
  }
}
