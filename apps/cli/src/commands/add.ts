import { mkdir } from 'node:fs/promises';
import type { Embedder } from '@docs/embed';
import { type BuildProgress, type BuildSummary, buildPackage, type EmbedSummary } from '@docs/ingest';
import { detectSource, installPackageFile, openSource, type ResolvedSource, type SourceProgress } from '@docs/sources';
import { assertValidName, assertValidVersion, formatPackageId, type PackageStore } from '@docs/store';
import { type BackgroundVectors, describeBackgroundVectors, startBackgroundVectors } from '../background-vectors.js';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import { interruptible } from '../interruptible.js';
import type { GlobalOptions } from '../options.js';
import { progressLine } from '../progress-line.js';
import { savePackage } from '../save-package.js';
import { groupDigits, printErrorLine, printLine } from '../terminal.js';
import { embedOne } from './embed.js';

export interface AddOptions {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly ref?: string;
  readonly path?: string;
  readonly save?: string;
  readonly maxPages?: number;
  readonly timeout?: number;
  /** An embedder to make vectors with before the command ends; false with --no-embed (no background vectors either). */
  readonly embed?: string | false;
}

/**
 * `docs add <source>`: a folder, a git repository, a website or a package
 * file. Every kind but the package file is resolved to a folder of documents,
 * built, and installed; temporary folders are removed however it ends.
 */
export async function add(input: string, options: AddOptions, globals: GlobalOptions): Promise<void> {
  const spec = await detectSource(input);
  const store = openStore(globals);
  if (spec.kind === 'package-file') {
    await addPackageFile(store, spec.file, options, globals);
    return;
  }
  if (spec.kind !== 'website' && (options.maxPages !== undefined || options.timeout !== undefined)) {
    throw new UsageError('--max-pages and --timeout apply to websites');
  }
  if (spec.kind === 'website' && options.name === undefined && spec.name === undefined) {
    // Known before fetching anything: a website's name can only come from its host.
    throw new UsageError(`say which library ${input} documents: --name <name>`);
  }
  // Opened before the build, so a model that is not there fails in a second, not after the build.
  const embedder =
    typeof options.embed === 'string' ? await (await import('@docs/embed')).openEmbedder(options.embed) : undefined;
  try {
    await addSource(store, input, spec, options, globals, embedder);
  } finally {
    await embedder?.close();
  }
}

async function addSource(
  store: PackageStore,
  input: string,
  spec: Exclude<Awaited<ReturnType<typeof detectSource>>, { kind: 'package-file' }>,
  options: AddOptions,
  globals: GlobalOptions,
  embedder: Embedder | undefined,
): Promise<void> {
  const progress = !globals.json && process.stderr.isTTY ? progressLine() : undefined;
  const built = await interruptible(`interrupted; nothing was added to ${store.dir}`, async (signal) => {
    let source: ResolvedSource | undefined;
    try {
      source = await openSource(spec, {
        ...(options.ref === undefined ? {} : { ref: options.ref }),
        ...(options.path === undefined ? {} : { path: options.path }),
        website: {
          ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
          ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
        },
        signal,
        ...(progress ? { onProgress: (p: SourceProgress) => progress.source(p) } : {}),
      });
      const name = options.name ?? source.name;
      const version = options.version ?? source.version;
      if (!name || !version) {
        throw new UsageError(
          `say which library and version ${input} documents: --name <name> --version <version>` +
            (spec.kind === 'folder' ? ' (or name the folder "name@version")' : ''),
        );
      }
      assertValidName(name);
      assertValidVersion(version);
      await mkdir(store.dir, { recursive: true });
      const description = options.description ?? source.description;
      const summary = await buildPackage({
        root: source.root,
        name,
        version,
        output: store.partialPath({ name, version }),
        source: source.source,
        signal,
        ...(description ? { description } : {}),
        ...(progress ? { onProgress: (p: BuildProgress) => progress.build(p) } : {}),
      });
      progress?.clear();
      const { installed, replaced } = await store.install(summary.output, { move: true });
      return { source, summary, installed, replaced };
    } finally {
      progress?.clear();
      await source?.dispose();
    }
  });
  // The package is installed and answers lexically from here; the vectors replace it whole when all are made.
  const embedded = embedder
    ? await embedOne(store, built.installed, embedder, { announce: false }, globals)
    : undefined;
  const installed = embedded?.installed ?? built.installed;
  const saved = options.save === undefined ? undefined : await savePackage(installed, options.save);
  // Made here with --embed; otherwise by the store's worker when an embedder is configured.
  const vectors = embedded ? undefined : await startBackgroundVectors(store, globals, options.embed === false);
  report(
    built.source,
    built.summary,
    { library: formatPackageId(installed), file: installed.file, replaced: built.replaced, saved },
    globals,
    embedded,
    vectors,
  );
}

async function addPackageFile(store: PackageStore, file: string, options: AddOptions, globals: GlobalOptions) {
  const misplaced = (
    ['name', 'version', 'description', 'ref', 'path', 'save', 'maxPages', 'timeout', 'embed'] as const
  ).filter((key) => options[key] !== undefined && !(key === 'embed' && options.embed === false));
  if (misplaced.length > 0) {
    throw new UsageError(
      `a package file is installed as it was built; ${misplaced.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} do not apply`,
    );
  }
  const { installed, info, replaced } = await installPackageFile(store, file);
  const result = {
    library: formatPackageId(installed),
    file: installed.file,
    replaced,
    kind: 'package-file',
    source: info.source,
    builtAt: info.builtAt,
    bytes: installed.bytes,
  };
  // A package file that carries vectors is used as it is; one without gets them in the background.
  const vectors = await startBackgroundVectors(store, globals, options.embed === false);
  if (globals.json) {
    printJson({ ...result, ...(vectors ? { vectors } : {}) });
    return;
  }
  // built_at is the package file's own text.
  printLine(
    `${replaced ? 'Replaced' : 'Added'} ${result.library} from ${file}: ${(installed.bytes / 1e6).toFixed(1)} MB package built ${info.builtAt}`,
  );
  if (vectors) printLine(describeBackgroundVectors(vectors));
}

function report(
  source: ResolvedSource,
  summary: BuildSummary,
  installed: { library: string; file: string; replaced: boolean; saved: string | undefined },
  globals: GlobalOptions,
  embedded: EmbedSummary | undefined,
  vectors: BackgroundVectors | undefined,
): void {
  const skipped = [...source.skipped, ...summary.skipped];
  if (globals.json) {
    const { output: _output, skipped: _skipped, ...totals } = summary;
    printJson({
      library: installed.library,
      file: installed.file,
      replaced: installed.replaced,
      ...(installed.saved ? { saved: installed.saved } : {}),
      kind: source.kind,
      source: source.source,
      ...(source.commit ? { commit: source.commit } : {}),
      ...totals,
      ...(embedded ? { embedder: embedded.embedder, embedMs: Math.round(embedded.elapsedMs) } : {}),
      ...(vectors ? { vectors } : {}),
      warnings: source.warnings,
      skipped,
    });
    return;
  }
  const seconds = (summary.elapsedMs / 1000).toFixed(1);
  process.stdout.write(
    `${installed.replaced ? 'Replaced' : 'Added'} ${installed.library}: ${summary.documents} documents, ${summary.chunks} sections, ` +
      `${groupDigits(summary.tokens)} tokens, ${(summary.bytes / 1e6).toFixed(1)} MB package, in ${seconds} s\n`,
  );
  if (source.kind !== 'folder') process.stdout.write(`  from ${source.source}\n`);
  if (embedded) {
    process.stdout.write(
      `  ${embedded.total} sections embedded with ${embedded.embedder} in ${(embedded.elapsedMs / 1000).toFixed(1)} s\n`,
    );
  }
  if (vectors) printLine(describeBackgroundVectors(vectors));
  if (installed.saved) process.stdout.write(`  saved to ${installed.saved}\n`);
  if (summary.duplicates > 0) process.stdout.write(`  ${summary.duplicates} duplicate sections dropped\n`);
  // Paths and warnings come from the source (a repository, a website): shown, never obeyed by the terminal.
  for (const skip of skipped) printLine(`  skipped ${skip.path}: ${skip.reason}`);
  for (const warning of source.warnings) printErrorLine(`docs: warning: ${warning}`);
}
