import { isDocsServer, type ServerEntry } from './server-entry.js';

// A host's JSON configuration, edited as text in, text out: one server added, replaced or taken out, everything else
// (other servers, keys docs does not know, their order, the file's indentation and line ends) kept.

/** What an edit did to the file. */
export type ConfigChange = 'create' | 'update' | 'unchanged' | 'delete' | 'absent';

export type ConfigEdit =
  | {
      readonly ok: true;
      readonly change: ConfigChange;
      /** The file's new text; undefined when the file is to be deleted or is absent. */
      readonly text: string | undefined;
    }
  | { readonly ok: false; readonly code: 'invalid-config' | 'foreign-server'; readonly error: string };

type JsonObject = Record<string, unknown>;

/**
 * `text` (a file's content, undefined when there is no file) with `entry` as the server `name` under `serversKey`.
 * Refused, as a result: text that is not a JSON object (a file with comments included: rewriting it would drop
 * them), and a server of that name that is not docs's.
 *
 * @example
 * withServer('{"mcpServers":{"other":{"command":"x"}}}', 'mcpServers', 'docs', entry);
 * // { ok: true, change: 'update', text: '{\n  "mcpServers": {\n    "other": …,\n    "docs": …\n  }\n}' }
 */
export function withServer(text: string | undefined, serversKey: string, name: string, entry: ServerEntry): ConfigEdit {
  const parsed = parseConfig(text);
  if (!parsed.ok) return parsed;
  const root = parsed.value;
  const servers = root[serversKey] ?? {};
  if (!isObject(servers)) return invalid(`"${serversKey}" is not an object`);
  const existing = servers[name];
  if (existing !== undefined && canonical(existing) === canonical(entry))
    return { ok: true, change: 'unchanged', text };
  if (existing !== undefined && !isDocsServer(existing)) return foreign(name, existing);
  servers[name] = entry;
  root[serversKey] = servers;
  return { ok: true, change: text === undefined ? 'create' : 'update', text: format(root, text) };
}

/**
 * `text` without the server `name`, when it is docs's. A file left holding nothing but an empty `serversKey` is one
 * setup made, and is to be deleted (`text` undefined); in a file with other keys the empty `serversKey` stays, as a
 * host's own template has it (VS Code's `{ "servers": {}, "inputs": [] }`).
 */
export function withoutServer(text: string | undefined, serversKey: string, name: string): ConfigEdit {
  if (text === undefined) return { ok: true, change: 'absent', text };
  const parsed = parseConfig(text);
  if (!parsed.ok) return parsed;
  const root = parsed.value;
  const servers = root[serversKey];
  if (!isObject(servers) || servers[name] === undefined) return { ok: true, change: 'absent', text };
  if (!isDocsServer(servers[name])) return foreign(name, servers[name]);
  delete servers[name];
  if (Object.keys(servers).length === 0 && Object.keys(root).length === 1)
    return { ok: true, change: 'delete', text: undefined };
  return { ok: true, change: 'update', text: format(root, text) };
}

function parseConfig(text: string | undefined): { ok: true; value: JsonObject } | Extract<ConfigEdit, { ok: false }> {
  // An empty file is an empty configuration (a host may create one so).
  if (text === undefined || text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    if (hasComments(text))
      return invalid(
        'it has comments (JSONC), which rewriting it would lose: add the server by hand, or take the comments out and run again',
      );
    return invalid(`it is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) return invalid('it is not a JSON object');
  return { ok: true, value };
}

function invalid(why: string): Extract<ConfigEdit, { ok: false }> {
  return { ok: false, code: 'invalid-config', error: why };
}

function foreign(name: string, existing: unknown): Extract<ConfigEdit, { ok: false }> {
  const command = isObject(existing) ? [existing.command, ...(Array.isArray(existing.args) ? existing.args : [])] : [];
  const shown = command.filter((part) => typeof part === 'string').join(' ');
  return {
    ok: false,
    code: 'foreign-server',
    error: `it has another server named "${name}"${shown ? ` (${shown})` : ''}, which docs leaves alone: rename or remove it, then run again`,
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with its keys sorted, so two entries compare equal whatever order their keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** `value` as JSON written the way `original` was: its indentation, its line ends, a final newline if it had one. */
function format(value: JsonObject, original: string | undefined): string {
  const indent = /^([ \t]+)"/m.exec(original ?? '')?.[1] ?? '  ';
  const crlf = original?.includes('\r\n') ?? false;
  const finalNewline = original === undefined || original.trim() === '' || /\n$/.test(original);
  const json = JSON.stringify(value, null, indent) + (finalNewline ? '\n' : '');
  return crlf ? json.replace(/\n/g, '\r\n') : json;
}

/** Whether `text` holds a `//` or `/*` comment outside its strings (VS Code's JSONC). */
function hasComments(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return true;
  }
  return false;
}
