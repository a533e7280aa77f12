import { getDocs, type SearchResponse, searchAll } from '@docs/search';
import { openStore, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions, QueryOptions } from '../main.js';

/** `docs get <library> <topic>`: search one library. */
export async function get(
  library: string,
  topic: string,
  options: QueryOptions,
  globals: GlobalOptions,
): Promise<void> {
  const store = openStore(globals);
  try {
    show(await getDocs(store, library, topic, options), globals);
  } finally {
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
  try {
    show(
      await searchAll(store, topic, { ...options, ...(options.library ? { libraries: options.library } : {}) }),
      globals,
    );
  } finally {
    await store.close();
  }
}

function show(response: SearchResponse, globals: GlobalOptions): void {
  // An unknown library is bad input: one line on stderr, exit 2. "Nothing matched" is an answer.
  if (response.status === 'unknown-library' || response.status === 'unknown-version')
    throw new UsageError(response.message, { code: response.status });
  if (globals.json) {
    printJson(response);
    return;
  }
  if (response.results.length === 0) {
    process.stdout.write(`${response.message}\n`);
    return;
  }
  const out: string[] = [];
  for (const r of response.results) {
    const trail = r.breadcrumb[0] === r.title ? r.breadcrumb : [r.title, ...r.breadcrumb];
    const cut = r.truncated ? ' · truncated' : '';
    out.push(
      `── ${r.library} · ${trail.join(' > ')} · ${r.path} · score ${r.score.toFixed(2)} · ${r.tokens} tokens${cut}`,
    );
    if (r.content !== undefined) out.push('', r.content, '');
  }
  out.push(`${response.message}; ${response.totalTokens} tokens`);
  process.stdout.write(`${out.join('\n')}\n`);
}
