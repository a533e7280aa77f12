import { readDoc } from '@docs/search';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { printErrorLine, printLine } from '../terminal.js';

/** `docs read <library> <path>`: a whole document, or a part of it with --tokens/--offset. */
export async function read(
  library: string,
  path: string,
  options: { tokens: number; offset: number },
  globals: GlobalOptions,
): Promise<void> {
  const store = openStore(globals);
  try {
    const page = await readDoc(store, library, path, options);
    if (page.status !== 'ok') throw new UsageError(page.message, { code: page.status });
    if (globals.json) {
      printJson(page);
      return;
    }
    printLine(page.content);
    if (page.nextOffset !== undefined) {
      // The same page size again, or following the hint would print the whole rest of the page.
      const tokens = options.tokens > 0 ? ` --tokens ${options.tokens}` : '';
      printErrorLine(`(more: docs read ${library} ${page.path}${tokens} --offset ${page.nextOffset})`);
    }
  } finally {
    await store.close();
  }
}
