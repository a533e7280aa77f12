import { formatPackageId } from '@docs/store';
import { openStore, printJson } from '../context.js';
import type { GlobalOptions } from '../options.js';

/** `docs remove <library>`: a bare name with several versions installed is refused with the list. */
export async function remove(library: string, globals: GlobalOptions): Promise<void> {
  const store = openStore(globals);
  const removed = await store.remove(library);
  if (globals.json) printJson({ removed: formatPackageId(removed), file: removed.file });
  else process.stdout.write(`Removed ${formatPackageId(removed)}\n`);
}
