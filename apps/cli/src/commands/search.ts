import { getDocs, headingTrail, openModels, type SearchOptions, type SearchResponse, searchAll } from '@docs/search';
import { installedVersion, installedVersions } from '@docs/sources';
import { type PackageStore, parsePackageSpec } from '@docs/store';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions, QueryOptions } from '../main.js';
import { modelSpecs } from '../models.js';

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
  // Where the next page starts when the limit or the token budget left results out (as the MCP tools say).
  const { nextOffset } = response;
  if (globals.json) {
    printJson(response);
    return;
  }
  // On stderr, so the answer on stdout stays what a pipe expects.
  for (const warning of response.warnings ?? []) process.stderr.write(`docs: note: ${warning}\n`);
  if (response.results.length === 0) {
    process.stdout.write(`${response.message}\n${retrievalLines(response).join('\n')}`);
    return;
  }
  const out: string[] = [];
  // A weak answer says so first, before results that look confident.
  const weak = response.confidence?.weak === true;
  if (weak) out.push(`${response.message}`, '');
  for (const r of response.results) {
    const trail = headingTrail(r);
    const cut = r.truncated ? ' · truncated' : '';
    out.push(
      `── ${r.library} · ${trail.join(' > ')} · ${r.path} · score ${r.score.toFixed(2)} · ${r.tokens} tokens${cut}`,
    );
    if (r.content !== undefined) out.push('', r.content, '');
  }
  const more = nextOffset === undefined ? '' : `. More: the same command with --offset ${nextOffset}`;
  const found = response.phrasings?.map((p) => `"${p.text}" → ${p.results.length > 0 ? p.results.join(', ') : 'none'}`);
  if (found) out.push(`phrasings found (result positions): ${found.join('; ')}`);
  out.push(
    weak ? `${response.totalTokens} tokens${more}` : `${response.message}; ${response.totalTokens} tokens${more}`,
  );
  process.stdout.write(`${[...out, ...retrievalLines(response)].join('\n')}\n`);
}

/**
 * What answered, when there is something to say: hybrid (with which models),
 * or why a library answered lexically. A plain lexical answer says nothing,
 * so its output is as it always was.
 */
function retrievalLines(response: SearchResponse): string[] {
  const { mode, embedder, reranker, notes = [] } = response.retrieval;
  const lines: string[] = [];
  if (mode === 'hybrid' || reranker) {
    const models = [embedder ? `embedder ${embedder}` : '', reranker ? `re-ranked by ${reranker}` : ''].filter(Boolean);
    lines.push(`retrieval: ${mode} (${models.join(', ')})`);
  } else if (notes.length > 0) {
    lines.push('retrieval: lexical');
  }
  for (const note of notes) lines.push(`  ${note}`);
  return lines.length > 0 && response.results.length === 0 ? [...lines, ''] : lines;
}
