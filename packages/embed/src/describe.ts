import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { allModels, resolveHubCache, resolveModelsDir } from './locations.js';
import { localEmbedderId, preferredGraph, readModelFolder } from './model-folder.js';
import { INSTALL_RUNTIME } from './transformers-provider.js';
import type { EmbedConfig } from './types.js';

/** One local model folder, as `docs models` lists it. */
export interface LocalModelInfo {
  /** What to pass to `openEmbedder` / `openReranker`: `org/name` when known, else the name. */
  readonly spec: string;
  readonly name: string;
  readonly kind: 'embedder' | 'reranker';
  readonly path: string;
  /** `models-dir` ($DOCS_MODELS or the user data directory) or `hub-cache` (Hugging Face). */
  readonly source: 'models-dir' | 'hub-cache';
  /** An embedder's vector length. */
  readonly dimensions?: number;
  /** The id an embedder opened from it would record (`transformers:<name>:<dims>`). */
  readonly id?: string;
  /** Whether it can be opened now: its files are complete and the runtime is installed. */
  readonly ready: boolean;
  /** Why not, when it is not ready. */
  readonly problem?: string;
}

/** The local models and the runtime that runs them. */
export interface ModelsReport {
  readonly modelsDir: string;
  readonly hubCache: string;
  /** The optional `@huggingface/transformers`: installed (with its version) or how to install it. */
  readonly runtime: { readonly installed: boolean; readonly version?: string; readonly install: string };
  readonly models: readonly LocalModelInfo[];
}

/** The runtime's version if it resolves from here, without loading it. */
function runtimeVersion(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@huggingface/transformers');
    let dir = path.dirname(entry);
    for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
      try {
        const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === '@huggingface/transformers') return manifest.version ?? 'unknown';
      } catch {
        // not this folder: go up
      }
    }
    return 'unknown';
  } catch {
    return undefined;
  }
}

/**
 * Lists the embedders and re-rankers found in the models directory and the Hugging Face cache, and
 * whether each is ready, reading their files only (no model is loaded). For `docs models`.
 *
 * @example
 * for (const m of describeModels().models) console.log(m.kind, m.spec, m.ready ? 'ready' : m.problem);
 */
export function describeModels(config: Pick<EmbedConfig, 'modelsDir' | 'env'> = {}): ModelsReport {
  const env = config.env ?? process.env;
  const modelsDir = resolveModelsDir({ modelsDir: config.modelsDir, env });
  const hubCache = resolveHubCache(env);
  const version = runtimeVersion();
  const runtime = { installed: version !== undefined, ...(version ? { version } : {}), install: INSTALL_RUNTIME };
  const models = allModels(modelsDir, hubCache).map((found): LocalModelInfo => {
    const folder = readModelFolder(found.path, found.name);
    const problem =
      folder.problem ??
      (folder.kind === 'embedder' && !folder.dimensions ? 'config.json does not give the hidden size' : undefined) ??
      (version ? undefined : `the runtime is not installed: ${INSTALL_RUNTIME}`);
    return {
      spec: found.repo ?? found.name,
      name: found.name,
      kind: folder.kind,
      path: found.path,
      source: found.source === 'hub-cache' ? 'hub-cache' : 'models-dir',
      ...(folder.kind === 'embedder' && folder.dimensions
        ? { dimensions: folder.dimensions, id: localEmbedderId(found.name, folder, preferredGraph(folder)) }
        : {}),
      ready: problem === undefined,
      ...(problem ? { problem } : {}),
    };
  });
  return { modelsDir, hubCache, runtime, models };
}

/**
 * The folder of the local embedder whose id is exactly `id` (`transformers:<name>:<dims>`), found among the models
 * `docs models` lists (the models directory and the Hugging Face cache); undefined when none is. An id is only
 * compared, never read as a path or a name to look up: a package's stored id can pick a model the user already
 * has, never a folder elsewhere or an endpoint.
 *
 * @example
 * const folder = localEmbedderWithId('transformers:bge-small-en-v1.5:384');
 * if (folder) await openEmbedder(folder);
 */
export function localEmbedderWithId(
  id: string,
  config: Pick<EmbedConfig, 'modelsDir' | 'env'> = {},
): string | undefined {
  const env = config.env ?? process.env;
  const modelsDir = resolveModelsDir({ modelsDir: config.modelsDir, env });
  for (const found of allModels(modelsDir, resolveHubCache(env))) {
    const folder = readModelFolder(found.path, found.name);
    if (folder.kind !== 'embedder' || !folder.dimensions) continue;
    // The id of each graph it holds: the default graph's id names none, another's does (localEmbedderId).
    for (const graph of folder.graphs) {
      if (localEmbedderId(found.name, folder, graph) === id) {
        return `transformers:${found.path}${graph === folder.dtype ? '' : `@${graph}`}:${folder.dimensions}`;
      }
    }
  }
  return undefined;
}
