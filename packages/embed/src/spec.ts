import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { EmbedError } from './errors.js';
import { GRAPH_NAMES, type OnnxDtype } from './model-folder.js';

/** What an embedder or re-ranker spec names. */
export type ModelSpec =
  /** A model folder on disk (transformers.js layout). */
  | {
      readonly provider: 'transformers';
      readonly path: string;
      readonly dimensions?: number | undefined;
      readonly graph?: OnnxDtype | undefined;
    }
  /** A model looked up by name in the models directory and the Hugging Face cache. */
  | {
      readonly provider: 'transformers';
      readonly name: string;
      readonly dimensions?: number | undefined;
      /** The ONNX graph named after `@` (`all-minilm-l6-v2@q8`): the folder's `onnx/model_quantized.onnx`. */
      readonly graph?: OnnxDtype | undefined;
    }
  /** A model served by an OpenAI-compatible endpoint. */
  | { readonly provider: 'openai'; readonly model: string; readonly dimensions?: number | undefined };

const PROVIDERS = ['transformers', 'openai'] as const;

/**
 * Parses a spec (see `openEmbedder` for the grammar): `openai:<model>[:<dims>]`,
 * `transformers:<model>[:<dims>]` (a stored id), a path to a model folder, or a model name.
 */
export function parseSpec(spec: string): ModelSpec {
  const text = spec.trim();
  if (text === '')
    throw new EmbedError('invalid-spec', 'empty model spec: give a model folder, a model name or openai:<model>');
  if (looksLikePath(text)) return local(text, undefined);
  const colon = text.indexOf(':');
  if (colon > 0) {
    const provider = text.slice(0, colon);
    if (!(PROVIDERS as readonly string[]).includes(provider)) {
      throw new EmbedError(
        'invalid-spec',
        `unknown model provider "${provider}" in "${text}": use a model folder, a model name, transformers:<model> or openai:<model>`,
      );
    }
    const { model, dimensions } = splitDimensions(text.slice(colon + 1));
    if (model === '') throw new EmbedError('invalid-spec', `no model named in "${text}"`);
    if (provider === 'openai') return { provider: 'openai', model, dimensions };
    return local(model, dimensions);
  }
  return local(text, undefined);
}

/** A local model's spec: a folder or a name, with the graph an `@<graph>` tail names (`@q8`, `@fp32`…). */
function local(text: string, dimensions: number | undefined): ModelSpec {
  const at = text.lastIndexOf('@');
  const tail = at > 0 ? text.slice(at + 1) : '';
  const graph = (GRAPH_NAMES as readonly string[]).includes(tail) ? (tail as OnnxDtype) : undefined;
  const model = graph === undefined ? text : text.slice(0, at);
  const named = graph === undefined ? {} : { graph };
  return looksLikePath(model)
    ? { provider: 'transformers', path: path.resolve(expandHome(model)), dimensions, ...named }
    : { provider: 'transformers', name: model, dimensions, ...named };
}

/** `model:384` → dimensions 384; a non-numeric tail (an Ollama tag such as `:latest`) stays in the model name. */
function splitDimensions(rest: string): { model: string; dimensions: number | undefined } {
  const match = /^(.*):(\d+)$/.exec(rest);
  if (match?.[1] && Number(match[2]) > 0) return { model: match[1], dimensions: Number(match[2]) };
  return { model: rest, dimensions: undefined };
}

/** A path rather than a name: it is explicit (`/`, `./`, `../`, `~`, `C:\`) or an existing folder. */
function looksLikePath(text: string): boolean {
  if (/^(\.{1,2}[\\/]|[\\/]|~([\\/]|$)|[A-Za-z]:[\\/])/.test(text) || text === '.' || text === '..') return true;
  // `org/name` is a hub name unless a folder of that name is right here.
  return text.includes('/') && existsSync(text) && statSync(text).isDirectory();
}

function expandHome(text: string): string {
  return text === '~' || /^~[\\/]/.test(text) ? path.join(homedir(), text.slice(1)) : text;
}

/**
 * The spec of the configured model `spec` running the graph another id of the same model names: `opened` is the id
 * `spec` opened with, `stored` a package's; when both name the same local model and length and differ only in the
 * graph (`transformers:all-minilm-l6-v2:384`, made before embedders took the int8 graph, against
 * `transformers:all-minilm-l6-v2@q8:384`), the spec that opens the user's own folder with the stored graph. The
 * package's id only picks among the graphs of the model the user configured; undefined for anything else.
 *
 * @example
 * specForGraphOf('all-minilm-l6-v2', 'transformers:all-minilm-l6-v2@q8:384', 'transformers:all-minilm-l6-v2:384');
 * // → 'transformers:all-minilm-l6-v2:384'
 */
export function specForGraphOf(spec: string, opened: string, stored: string): string | undefined {
  const a = localId(opened);
  const b = localId(stored);
  if (!a || !b || a.name !== b.name || a.dimensions !== b.dimensions || a.graph === b.graph) return undefined;
  let parsed: ModelSpec;
  try {
    parsed = parseSpec(spec);
  } catch {
    return undefined;
  }
  if (parsed.provider !== 'transformers') return undefined;
  const where = 'path' in parsed ? parsed.path : parsed.name;
  return `transformers:${where}${b.graph ? `@${b.graph}` : ''}:${b.dimensions}`;
}

/** `transformers:<name>[@<graph>]:<dims>` → its parts; undefined for any other id. */
function localId(id: string): { name: string; graph: string | undefined; dimensions: string } | undefined {
  const match = /^transformers:([^:]+?)(?:@([a-z0-9]+))?:(\d+)$/.exec(id);
  if (!match?.[1] || !match[3]) return undefined;
  if (match[2] !== undefined && !(GRAPH_NAMES as readonly string[]).includes(match[2])) return undefined;
  return { name: match[1], graph: match[2], dimensions: match[3] };
}
