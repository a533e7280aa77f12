// Where a build's time goes: each stage of buildPackage and store.install run
// alone over the whole corpus on this thread, timed in CPU time
// (process.cpuUsage), which a busy machine disturbs less than wall time.
import { copyFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { formatOf, parseMarkdown, toMarkdown } from '@docs/ingest';
import { findDocFiles } from '@docs/sources';
import {
  type DocumentInput,
  type InstalledPackage,
  inspectPackageFile,
  type PackageStore,
  writePackage,
} from '@docs/store';

/** CPU milliseconds of one stage over the whole corpus, best of the runs. */
export interface BuildPart {
  readonly cpuMs: number;
  /** Source megabytes per CPU second (stages that see the source). */
  readonly mbPerCpuSecond?: number;
}

/** CPU milliseconds this process (every thread) has used. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A section size estimate in place of o200k counts: parsing without the tokenizer. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * Runs each stage of a build over every library of the corpus, `runs` times,
 * and keeps the least CPU time of each: reading the files, markdown into
 * sections (with a length estimate for token counts), the o200k token counts
 * (parsing with them less parsing without), writing the package file (rows,
 * full-text index, merge), the row checks a package received from elsewhere
 * gets at install (on a copy, as `docs install` does) and the store catalog's
 * update for one package.
 */
export async function benchBuildParts(options: {
  readonly corpus: string;
  readonly libraries: readonly { readonly folder: string; readonly name: string; readonly version: string }[];
  readonly store: PackageStore;
  readonly installed: readonly InstalledPackage[];
  readonly work: string;
  readonly runs: number;
}): Promise<{ results: Record<string, BuildPart>; rows: Array<[string, string]> }> {
  const best = new Map<string, number>();
  const keep = (part: string, ms: number) => best.set(part, Math.min(best.get(part) ?? Number.POSITIVE_INFINITY, ms));
  let bytes = 0;
  for (let run = 0; run < options.runs; run++) {
    const parts = new Map<string, number>();
    const add = (part: string, ms: number) => parts.set(part, (parts.get(part) ?? 0) + ms);
    bytes = 0;
    for (const library of options.libraries) {
      const files = await findDocFiles(path.join(options.corpus, library.folder));
      let started = cpuMs();
      const sources: Array<{ path: string; text: string }> = [];
      for (const file of files) {
        const raw = await readFile(file.absolutePath, 'utf8');
        bytes += Buffer.byteLength(raw);
        const format = formatOf(file.relativePath) ?? 'markdown';
        sources.push({ path: file.relativePath, text: format === 'markdown' ? raw : toMarkdown(raw, format) });
      }
      add('read', cpuMs() - started);
      started = cpuMs();
      for (const source of sources) parseMarkdown(source.text, { path: source.path, countTokens: estimateTokens });
      add('sections', cpuMs() - started);
      started = cpuMs();
      const documents: DocumentInput[] = sources.map((source) => {
        const parsed = parseMarkdown(source.text, { path: source.path });
        const chunks = parsed.sections.map((section) => ({ ...section, indexText: section.text }));
        return { path: source.path, title: parsed.title, content: source.text, chunks };
      });
      add('counted', cpuMs() - started);
      const file = path.join(options.work, `parts-${library.name}@${library.version}.db`);
      started = cpuMs();
      await writePackage(file, { name: library.name, version: library.version }, documents);
      add('write', cpuMs() - started);
      await rm(file, { force: true });
    }
    for (const pkg of options.installed) {
      // What `docs install` does to a received file: a copy checked row by row.
      const copy = path.join(options.work, 'parts-received.db');
      await copyFile(pkg.file, copy);
      let started = cpuMs();
      await inspectPackageFile(copy);
      add('checks', cpuMs() - started);
      await rm(copy, { force: true });
      started = cpuMs();
      await options.store.updateCatalog([pkg]);
      add('catalog', cpuMs() - started);
    }
    add('counts', (parts.get('counted') ?? 0) - (parts.get('sections') ?? 0));
    for (const [part, ms] of parts) keep(part, ms);
  }
  const at = (part: string) => best.get(part) ?? Number.NaN;
  const perCore = (ms: number) => bytes / 1e6 / (ms / 1000);
  const results: Record<string, BuildPart> = {
    readFiles: { cpuMs: at('read'), mbPerCpuSecond: perCore(at('read')) },
    markdownToSections: { cpuMs: at('sections'), mbPerCpuSecond: perCore(at('sections')) },
    tokenCounts: { cpuMs: at('counts'), mbPerCpuSecond: perCore(at('counts')) },
    writePackage: { cpuMs: at('write'), mbPerCpuSecond: perCore(at('write')) },
    installChecksOfReceivedPackage: { cpuMs: at('checks') },
    catalogUpdate: { cpuMs: at('catalog') },
  };
  const row = (label: string, part: BuildPart): [string, string] => [
    label,
    `${part.cpuMs.toFixed(0)} ms CPU${part.mbPerCpuSecond === undefined ? '' : ` (${part.mbPerCpuSecond.toFixed(1)} MB/s on one core)`}`,
  ];
  return {
    results,
    rows: [
      [`  build parts, one thread, ${(bytes / 1e6).toFixed(1)} MB:`, ''],
      row('    read files', results.readFiles as BuildPart),
      row('    markdown → sections (markdown-it, sectioning)', results.markdownToSections as BuildPart),
      row('    o200k token counts (gpt-tokenizer)', results.tokenCounts as BuildPart),
      row('    write package (SQLite rows, FTS index, merge)', results.writePackage as BuildPart),
      row('    row checks of a received package (install)', results.installChecksOfReceivedPackage as BuildPart),
      row('    store catalog update (install)', results.catalogUpdate as BuildPart),
    ],
  };
}
