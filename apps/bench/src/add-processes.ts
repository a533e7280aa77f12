// A build as a user starts it, and as the side-by-side bench times it: `docs add` of each corpus library, a process
// each, into one fresh store. What the in-process figures leave out is here: Node's start, the CLI's modules, the
// parser and tokenizer tables each process loads, worker threads, the install into the store.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Measured, runTimed } from './timed-process.js';

/** The sums over every library's `docs add` process, and the largest process's peak RSS. */
export interface AddProcesses {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssKb: number;
  /** The library whose process peaked highest. */
  readonly peakLibrary: string;
}

/** Runs `docs add` for each library, one process after another, under GNU time. */
export async function benchAddProcesses(options: {
  readonly bin: readonly string[];
  readonly corpus: string;
  readonly libraries: readonly { readonly folder: string; readonly name: string; readonly version: string }[];
  readonly work: string;
}): Promise<{ results: AddProcesses; rows: Array<[string, string]> }> {
  const home = await mkdtemp(path.join(options.work, 'add-home-'));
  const env = { ...process.env, DOCS_HOME: home, NO_COLOR: '1' };
  let wallMs = 0;
  let cpuMs = 0;
  let peak: { kb: number; library: string } = { kb: 0, library: '' };
  try {
    for (const library of options.libraries) {
      const args = ['add', path.join(options.corpus, library.folder), '--name', library.name];
      const done: Measured = await runTimed([...options.bin, ...args, '--version', library.version], env, options.work);
      if (done.code !== 0) throw new Error(`docs ${args.join(' ')} exited ${done.code}: ${done.stderr.slice(0, 2000)}`);
      wallMs += done.wallMs;
      cpuMs += done.cpuMs;
      if (done.peakRssKb > peak.kb) peak = { kb: done.peakRssKb, library: library.folder };
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const results = { wallMs, cpuMs, peakRssKb: peak.kb, peakLibrary: peak.library };
  return {
    results,
    rows: [
      [
        `docs add of each library, a process each (${options.libraries.length})`,
        `${(wallMs / 1000).toFixed(2)} s wall, ${(cpuMs / 1000).toFixed(2)} s CPU, peak RSS ${(peak.kb / 1024).toFixed(0)} MB (${peak.library})`,
      ],
    ],
  };
}
