import {
  getDocs,
  openModels,
  renderText,
  type SearchOptions,
  type SearchResponse,
  searchAll,
  type TextStyle,
} from '@docs/search';
import { installedVersion, installedVersions } from '@docs/sources';
import { type PackageStore, parsePackageSpec } from '@docs/store';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import { modelSpecs } from '../models.js';
import type { GlobalOptions, QueryOptions } from '../options.js';
import { printErrorLine, printLine } from '../terminal.js';

/** `docs get <library> <topic>`: search one library. */
export async function get(
  library: string,
  topic: string,
  options: QueryOptions,
  globals: GlobalOptions,
): Promise<void> {
  const store = openStore(globals);
  // Opened on first use only: a search of packages without vectors loads no model code.
  const models = openModels(modelSpecs(options));
  try {
    const { name, version } = parsePackageSpec(library.trim());
    const projectVersion = version === undefined ? await installedVersion(projectOf(options), name) : undefined;
    show(
      await getDocs(store, library, topic, {
        ...searchOptions(options),
        models,
        ...(projectVersion ? { projectVersion } : {}),
      }),
      globals,
    );
  } finally {
    await models.close();
    await store.close();
  }
}

/** `docs search <topic>`: search every installed library, or those given with --library. */
export async function search(
  topic: string,
  options: QueryOptions & { library?: string[] },
  globals: GlobalOptions,
): Promise<void> {
  const store = openStore(globals);
  const models = openModels(modelSpecs(options));
  try {
    show(
      await searchAll(store, topic, {
        ...searchOptions(options),
        models,
        ...(options.library ? { libraries: options.library } : {}),
        projectVersions: await projectVersions(store, projectOf(options)),
      }),
      globals,
    );
  } finally {
    await models.close();
    await store.close();
  }
}

/** The search options the flags set (the model flags are opened separately); `--also` gives the alternative phrasings. */
function searchOptions(options: QueryOptions): SearchOptions {
  const { embed: _embed, rerank: _rerank, mode, project: _project, also, ...rest } = options;
  return { ...rest, ...(mode ? { mode } : {}), ...(also && also.length > 0 ? { alternatives: also } : {}) };
}

function projectOf(options: QueryOptions): string {
  return options.project ?? process.cwd();
}

/** The versions the project installs of the libraries in the store, by lower-case name. */
async function projectVersions(store: PackageStore, project: string): Promise<Map<string, string>> {
  return installedVersions(
    project,
    (await store.list()).map((p) => p.name.toLowerCase()),
  );
}

function show(response: SearchResponse, globals: GlobalOptions): void {
  // An unknown library is bad input: one line on stderr, exit 2. "Nothing matched" is an answer.
  if (response.status === 'unknown-library' || response.status === 'unknown-version')
    throw new UsageError(response.message, { code: response.status });
  if (globals.json) {
    printJson(response);
    return;
  }
  // On stderr, so the answer on stdout stays what a pipe expects.
  for (const warning of response.warnings ?? []) printErrorLine(`docs: note: ${warning}`);
  // The results are the package's text: shown, never obeyed by the terminal.
  printLine(renderText(response, TERMINAL));
}

/** How the command shows an answer: renderText's plain text, the next page asked for with --offset. */
const TERMINAL: TextStyle = { layout: 'plain', nextPage: (offset) => `the same command with --offset ${offset}` };
