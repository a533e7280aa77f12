import type { RuleFile } from './hosts.js';

// The usage rule: a few lines, in a file the host reads instructions from, telling the agent when to call which tool
// and to pass phrasings. It is one marked block, so running setup again replaces it rather than adding a second, and
// --remove takes out that block and nothing else.

const BEGIN = '<!-- docs setup: begin (written by `docs setup`; `docs setup <host> --remove` takes it out) -->';
const END = '<!-- docs setup: end -->';

/**
 * The rule's text, naming the tools and inputs of @docs/mcp (get_docs, search_all, read_doc, list_libraries;
 * library, topic, alternatives). The setup test lists the tools of the server it configured and checks them.
 */
export const USAGE_RULE = [
  '## Library documentation: the docs MCP server',
  '',
  "Before answering from memory about a library's API, options, config keys or error messages, look it up with the docs tools (they answer from the docs of the versions installed here):",
  '- `get_docs` when you know the library: `library` is its name (or name@version), `topic` a few specific words ("fake timers", an error message), not a sentence and without the library\'s name.',
  '- `search_all` when you do not know which library documents it, or the task spans several libraries.',
  '- Pass 1-3 `alternatives`: the same question in the library\'s own terms (API names, feature names, config keys), e.g. topic "run code when the app starts", alternatives ["lifespan events"]. They are searched in the same call.',
  '- `read_doc` reads a whole page by the path a result gave; `list_libraries` lists what is installed. When an answer says the match is weak, the docs likely do not cover it: say so rather than guess.',
].join('\n');

/** The block as it stands in a file. */
export const RULE_BLOCK = `${BEGIN}\n${USAGE_RULE}\n${END}`;

export type RuleChange = 'create' | 'update' | 'unchanged' | 'delete' | 'absent';

export type RuleEdit =
  | { readonly ok: true; readonly change: RuleChange; readonly text: string | undefined }
  | { readonly ok: false; readonly code: 'invalid-rule'; readonly error: string };

/**
 * `text` (undefined: no file) with the rule's block: replaced where it is, else added at the end after a blank line,
 * or, in a new file, after the rule file's header.
 */
export function withRule(text: string | undefined, rule: RuleFile): RuleEdit {
  const found = findBlock(text ?? '');
  if (!found.ok) return found;
  if (found.block) {
    const { start, end } = found.block;
    const updated = `${text?.slice(0, start)}${RULE_BLOCK}${text?.slice(end)}`;
    return { ok: true, change: updated === text ? 'unchanged' : 'update', text: updated };
  }
  if (text === undefined || text.trim() === '')
    return { ok: true, change: text === undefined ? 'create' : 'update', text: `${rule.header ?? ''}${RULE_BLOCK}\n` };
  const separator = text.endsWith('\n') ? '\n' : '\n\n';
  return { ok: true, change: 'update', text: `${text}${separator}${RULE_BLOCK}\n` };
}

/**
 * `text` without the rule's block and the blank line put before it; a file left with nothing but the header setup
 * wrote is to be deleted (`text` undefined).
 */
export function withoutRule(text: string | undefined, rule: RuleFile): RuleEdit {
  const found = findBlock(text ?? '');
  if (!found.ok) return found;
  if (text === undefined || !found.block) return { ok: true, change: 'absent', text };
  let { start, end } = found.block;
  if (text[end] === '\n') end++;
  if (text.slice(0, start).endsWith('\n\n')) start--;
  const left = text.slice(0, start) + text.slice(end);
  if (left.trim() === '' || left.trim() === rule.header?.trim()) return { ok: true, change: 'delete', text: undefined };
  return { ok: true, change: 'update', text: left };
}

/** Where the block is in `text`: from its first marker to the end of its last, without the newline after it. */
function findBlock(
  text: string,
): { ok: true; block?: { start: number; end: number } } | Extract<RuleEdit, { ok: false }> {
  const start = text.indexOf(BEGIN.slice(0, BEGIN.indexOf('(')).trimEnd());
  if (start === -1) return { ok: true };
  const end = text.indexOf(END, start);
  if (end === -1)
    return {
      ok: false,
      code: 'invalid-rule',
      error: `it has the start of the docs block ("${BEGIN.slice(0, 24)}…") but not its end ("${END}"): fix or remove the block by hand, then run again`,
    };
  return { ok: true, block: { start, end: end + END.length } };
}
