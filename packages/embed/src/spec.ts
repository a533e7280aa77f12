import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { EmbedError } from './errors.js';

/** What an embedder or re-ranker spec names. */
export type ModelSpec =
  /** A model folder on disk (transformers.js layout). */
  | { readonly provider: 'transformers'; readonly path: string; readonly dimensions?: number | undefined }
  /** A model looked up by name in the models directory and the Hugging Face cache. */
  | { readonly provider: 'transformers'; readonly name: string; readonly dimensions?: number | undefined }
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
  if (looksLikePath(text)) return { provider: 'transformers', path: path.resolve(expandHome(text)) };
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
    return looksLikePath(model)
      ? { provider: 'transformers', path: path.resolve(expandHome(model)), dimensions }
      : { provider: 'transformers', name: model, dimensions };
  }
  return { provider: 'transformers', name: text };
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
