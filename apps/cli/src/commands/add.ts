import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type BuildProgress, buildPackage } from '@docs/ingest';
import { formatPackageId, parsePackageSpec } from '@docs/store';
import { openStore, printJson } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import type { GlobalOptions } from '../main.js';

interface AddOptions {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
}

/** `docs add <folder>`: build a package from a folder and install it. */
export async function add(folder: string, options: AddOptions, globals: GlobalOptions): Promise<void> {
  const root = path.resolve(folder);
  const inferred = await inferIdentity(root);
  const name = options.name ?? inferred.name;
  const version = options.version ?? inferred.version;
  if (!name || !version) {
    throw new UsageError(
      `say which library and version ${folder} documents: --name <name> --version <version> (or name the folder "name@version")`,
    );
  }
  const store = openStore(globals);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(store.dir, { recursive: true });
  const output = store.partialPath({ name, version });
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = !globals.json && process.stderr.isTTY ? progressLine() : undefined;
  try {
    const summary = await buildPackage({
      root,
      name,
      version,
      output,
      source: root,
      signal: abort.signal,
      ...((options.description ?? inferred.description)
        ? { description: options.description ?? inferred.description }
        : {}),
      ...(progress ? { onProgress: progress.update } : {}),
    });
    progress?.clear();
    const { installed, replaced } = await store.install(summary.output, { move: true });
    const result = {
      library: formatPackageId(installed),
      file: installed.file,
      replaced,
      ...summary,
      output: undefined,
    };
    if (globals.json) {
      printJson(result);
      return;
    }
    const seconds = (summary.elapsedMs / 1000).toFixed(1);
    process.stdout.write(
      `${replaced ? 'Replaced' : 'Added'} ${result.library}: ${summary.documents} documents, ${summary.chunks} sections, ` +
        `${summary.tokens.toLocaleString('en')} tokens, ${(summary.bytes / 1e6).toFixed(1)} MB package, in ${seconds} s\n`,
    );
    if (summary.duplicates > 0) process.stdout.write(`  ${summary.duplicates} duplicate sections dropped\n`);
    for (const skip of summary.skipped) process.stdout.write(`  skipped ${skip.path}: ${skip.reason}\n`);
  } catch (error) {
    // The build removed its partial file on the way out; say so instead of reporting a failure.
    if (abort.signal.aborted)
      throw new InterruptedError(`interrupted; nothing was added to ${store.dir}`, { cause: error });
    throw error;
  } finally {
    progress?.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Name, version and description from a package.json in the folder, else from a "name@version" folder name. */
async function inferIdentity(root: string): Promise<{ name?: string; version?: string; description?: string }> {
  try {
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (typeof manifest.name === 'string' && typeof manifest.version === 'string') {
      return {
        name: manifest.name,
        version: manifest.version,
        ...(typeof manifest.description === 'string' ? { description: manifest.description } : {}),
      };
    }
  } catch {
    // No readable package.json: fall through to the folder name.
  }
  const { name, version } = parsePackageSpec(path.basename(root));
  return version ? { name, version } : {};
}

function progressLine(): { update: (p: BuildProgress) => void; clear: () => void } {
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.files < p.totalFiles) return;
      last = now;
      shown = true;
      process.stderr.write(
        `\r  ${p.files}/${p.totalFiles} files, ${p.sections} sections, ${(p.bytes / 1e6).toFixed(1)} MB, ${(p.elapsedMs / 1000).toFixed(1)} s `,
      );
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
