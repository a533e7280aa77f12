import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { EmbedError } from './errors.js';
import { networkCode } from './http.js';
import { resolveModelsDir } from './locations.js';
import { readModelFolder } from './model-folder.js';
import type { EmbedConfig } from './types.js';

/** The files a model folder needs besides its ONNX graph; those absent from the repository are skipped. */
const SIDE_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'config_sentence_transformers.json',
  'modules.json',
  '1_Pooling/config.json',
];

/** ONNX graphs in order of preference: full precision first (what the CPU runs exactly), then quantised. */
const ONNX_GRAPHS = [
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
  'onnx/model_int8.onnx',
  'onnx/model_uint8.onnx',
  'onnx/model_fp16.onnx',
];

/** The int8 graph (transformers.js dtype `q8`). */
const QUANTIZED = 'onnx/model_quantized.onnx';

/** What `pullModel` fetched. */
export interface PulledModel {
  readonly repo: string;
  readonly path: string;
  readonly kind: 'embedder' | 'reranker';
  readonly files: readonly string[];
  readonly bytes: number;
}

/** Options of `pullModel`: where to put it, and a callback per file fetched. */
export interface PullOptions extends Pick<EmbedConfig, 'modelsDir' | 'env' | 'timeoutMs'> {
  readonly onFile?: ((file: string, bytes: number) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

async function request(
  url: string,
  token: string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted)
      throw new EmbedError('timeout', `${url} did not answer within ${timeoutMs} ms`, { cause: error });
    const code = networkCode(error);
    throw new EmbedError(
      'unreachable',
      `cannot reach ${url}${code ? ` (${code})` : ''}: pull on a machine that can reach the Hugging Face hub, then copy the folder into the models directory`,
      { cause: error },
    );
  }
  if (response.ok) return response;
  await response.body?.cancel();
  if (response.status === 401 || response.status === 403) {
    throw new EmbedError('auth', `${url} refused (${response.status}): a gated or private model needs $HF_TOKEN`);
  }
  if (response.status === 404) throw new EmbedError('not-found', `${url}: no such model or file on the hub (404)`);
  throw new EmbedError('bad-response', `${url} answered ${response.status}`);
}

/**
 * Fetches a model folder from the Hugging Face hub (`$HF_ENDPOINT`, default https://huggingface.co;
 * `$HF_TOKEN` for gated models) into `<models dir>/<org>/<name>`: its config, tokenizer and
 * sentence-transformers files and one ONNX graph (full precision if the repository has it), and for an embedder its
 * int8 graph too (`onnx/model_quantized.onnx`, which it then runs by default). The
 * files go to a temporary folder renamed into place when complete, so an interrupted pull leaves
 * nothing half-written. The repository must carry an ONNX export (the `Xenova/*` and
 * `onnx-community/*` ones do).
 *
 * @example
 * await pullModel('Xenova/bge-small-en-v1.5'); // then openEmbedder('bge-small-en-v1.5')
 */
export async function pullModel(repo: string, options: PullOptions = {}): Promise<PulledModel> {
  const env = options.env ?? process.env;
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    throw new EmbedError(
      'invalid-spec',
      `"${repo}" is not a hub repository name: give <org>/<name>, e.g. Xenova/bge-small-en-v1.5`,
    );
  }
  const hub = (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
  const token = env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN || undefined;
  const timeoutMs = options.timeoutMs ?? 60_000;

  const listing = (await (
    await request(`${hub}/api/models/${repo}`, token, timeoutMs, options.signal)
  )
    .json()
    .catch(() => undefined)) as { siblings?: { rfilename?: unknown }[] } | undefined;
  if (!Array.isArray(listing?.siblings))
    throw new EmbedError('bad-response', `${hub}/api/models/${repo} did not list the files`);
  const available = new Set(listing.siblings.map((s) => String(s.rfilename)));
  const graph = ONNX_GRAPHS.find((g) => available.has(g));
  if (!graph) {
    throw new EmbedError(
      'not-found',
      `${repo} has no ONNX export (onnx/model.onnx): look for its Xenova/ or onnx-community/ version on the hub`,
    );
  }
  // A graph over 2 GB keeps its weights in a file beside it.
  const graphs = [graph, `${graph}_data`];
  const files = [...SIDE_FILES.filter((f) => available.has(f))];

  const modelsDir = resolveModelsDir({ modelsDir: options.modelsDir, env });
  const [org, name] = repo.split('/') as [string, string];
  const target = path.join(modelsDir, org, name);
  mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}-${Date.now()}`;
  let bytes = 0;
  try {
    const fetch = async (file: string) => {
      const response = await request(`${hub}/${repo}/resolve/main/${file}`, token, timeoutMs, options.signal);
      const destination = path.join(partial, file);
      mkdirSync(path.dirname(destination), { recursive: true });
      const body = response.body;
      if (!body) throw new EmbedError('bad-response', `${hub}/${repo}/resolve/main/${file} answered no body`);
      await pipeline(Readable.fromWeb(body as WebReadableStream), createWriteStream(destination));
      const size = statSync(destination).size;
      bytes += size;
      options.onFile?.(file, size);
    };
    for (const file of files) await fetch(file);
    // An embedder runs the int8 graph when the folder has one (model-folder.ts, preferredGraph): fetched beside the
    // full-precision one, which the ids of vectors made before still name. A re-ranker runs its first graph only.
    if (readModelFolder(partial, name).kind === 'embedder' && graph !== QUANTIZED) graphs.push(QUANTIZED);
    for (const file of graphs.filter((f) => available.has(f))) {
      await fetch(file);
      files.push(file);
    }
    const folder = readModelFolder(partial, name);
    if (folder.problem)
      throw new EmbedError('not-found', `${repo}: ${folder.problem.replace(partial, 'the pulled folder')}`);
    // Replace an earlier pull only once the new one is complete.
    const old = `${target}.old-${process.pid}-${Date.now()}`;
    if (existsSync(target)) renameSync(target, old);
    renameSync(partial, target);
    rmSync(old, { recursive: true, force: true });
    return { repo, path: target, kind: folder.kind, files, bytes };
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
