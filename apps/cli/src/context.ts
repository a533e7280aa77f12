import { PackageStore, resolveHome } from '@docs/store';
import type { GlobalOptions } from './main.js';

/** The store the command works on: --home, else $DOCS_HOME, else the user data directory. */
export function openStore(globals: GlobalOptions): PackageStore {
  return new PackageStore(resolveHome({ home: globals.home }));
}

/** Writes one JSON object, the machine-readable form of every command. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
