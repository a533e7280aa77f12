import { classify } from '@docs/errors';
import { installDocPackage } from '@docs/sources';
import { formatPackageId } from '@docs/store';
import { projectNpmrcApproval } from '../config/npmrc-approval.js';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { groupDigits, printErrorLine } from '../terminal.js';

/** Options of `docs install`, as commander parses them. */
export interface InstallCommandOptions {
  readonly scope?: string;
  readonly registry?: string;
}

/**
 * `docs install <spec...>`: doc packages from an npm registry, each checked
 * (integrity, then the package file as `docs add` checks one) and installed
 * on its own; one that is refused leaves the store as it was and the rest go on.
 */
export async function install(specs: string[], options: InstallCommandOptions, globals: GlobalOptions): Promise<void> {
  const store = openStore(globals);
  const installed: Array<{ library: string; package: string; registry: string; replaced: boolean; bytes: number }> = [];
  const failed: Array<{ spec: string; reason: string }> = [];
  const approveProjectNpmrc = projectNpmrcApproval();
  try {
    for (const spec of specs) {
      try {
        const done = await installDocPackage(store, spec, {
          ...(options.scope ? { scope: options.scope } : {}),
          ...(options.registry ? { registry: options.registry } : {}),
          approveProjectNpmrc,
        });
        const entry = {
          library: formatPackageId(done.installed),
          package: done.spec,
          registry: done.registry,
          replaced: done.replaced,
          bytes: done.installed.bytes,
        };
        installed.push(entry);
        if (!globals.json) {
          process.stdout.write(
            `${entry.replaced ? 'Replaced' : 'Installed'} ${entry.library} from ${entry.package}: ` +
              `${done.docs.sections} sections, ${groupDigits(done.docs.tokens)} tokens, ${(entry.bytes / 1e6).toFixed(1)} MB\n`,
          );
        }
      } catch (error) {
        if (!isRefusal(error)) throw error;
        failed.push({ spec, reason: (error as Error).message });
        if (!globals.json) printErrorLine(`docs: ${spec} refused: ${(error as Error).message}`);
      }
    }
  } finally {
    await store.close();
  }
  if (failed.length === 0) {
    if (globals.json) printJson({ installed, failed });
    return;
  }
  // Exit code 2. Text: each refusal was reported above and this line sums them up. JSON: one
  // object, the error, which names every refusal and what was installed all the same.
  const installedNote = installed.length > 0 ? ` (installed: ${installed.map((i) => i.library).join(', ')})` : '';
  throw new UsageError(
    globals.json
      ? `${failed.map((f) => `${f.spec} refused: ${f.reason}`).join('; ')}${installedNote}`
      : `${failed.length} of ${specs.length} not installed${installed.length > 0 ? '; the others are in the store' : ''}`,
    { code: 'refused' },
  );
}

/** A package refused for a reason the user or the caller can act on (not a bug). */
function isRefusal(error: unknown): boolean {
  return classify(error).blame !== 'bug';
}
