import { inlineText, markdownParser, passage as passageOf } from '../../api/markdown-tokens.js';
import { runPython } from './parse-modules.js';

/**
 * What a Python package's own examples do, in its own words, as for npm packages (api/mentions.ts): the paragraph
 * right before a Python code block of its markdown README lends its words to the API the block calls, so a question in
 * those words ("pretty print data structures in the REPL") finds the API (`pretty.install`). The code is read by
 * Python's `ast` in the project's interpreter, parsed, never run.
 */

/** Bounds, as npm's: passages per API, characters per passage, APIs a passage may lend its words to. */
const MAX_PASSAGES = 2;
const MAX_PASSAGE_CHARS = 320;
// An example calling many APIs shows how they fit together, not what any one of them does.
const MAX_NAMED = 3;
// A name more than this many APIs share (`get`, `run`) says nothing about which one is meant.
const MAX_SHARING = 2;
const MIN_NAME = 3;
// Code blocks read: Python, a Python console session, or unlabelled.
const PYTHON = /^(?:|python3?|py|pycon|ipython)$/i;

// The Python half: each block's calls and decorators as dotted paths, `>>>` prompts taken off. Kept as a string so the
// bundled CLI carries it.
const CALLS_SCRIPT: string = String.raw`
# Prints, as JSON, the dotted names each code block calls or decorates with. Input on stdin: {"blocks": [...]}.
# It parses the code with ast; it never runs it.
import ast, json, sys

def source(block):
    lines = block.splitlines()
    if any(line.lstrip().startswith('>>>') for line in lines):
        kept = []
        for line in lines:
            stripped = line.lstrip()
            if stripped.startswith('>>> ') or stripped.startswith('... '):
                kept.append(stripped[4:])
            elif stripped in ('>>>', '...'):
                kept.append('')
        return '\n'.join(kept)
    return block

def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return list(reversed(parts))
    return None

def calls(block):
    try:
        tree = ast.parse(source(block))
    except (SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Call):
            targets.append(node.func)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets.extend(d for d in node.decorator_list if not isinstance(d, ast.Call))
        for target in targets:
            path = dotted(target)
            if path and path not in found:
                found.append(path)
    return found

request = json.load(sys.stdin)
sys.stdout.write(json.dumps({'calls': [calls(block) for block in request['blocks']]}))
`;

/** An API a passage can lend its words to: `option` of module `click`, `Console.print` (a member, by its class). */
export interface ExampleTarget {
  readonly name: string;
  /** The module it is imported from (`rich.pretty`). */
  readonly module: string;
}

/**
 * For each API (by index in `apis`), the paragraphs of the markdown `docs` that introduce a Python example calling it,
 * at most two each, when the example calls at most three of the APIs. A call is matched by its last name (`option` in
 * `click.option(…)`), and where what it is called on names an owner, to the APIs of that owner only: a member's
 * class, compared without case as an instance is named after it (`console.print` → `Console.print`), or a module
 * (`pretty.install` → `rich.pretty`'s, not `rich.traceback`'s). A name more than two APIs share is matched only so.
 */
export async function readmeExamples(
  docs: readonly string[],
  apis: readonly ExampleTarget[],
  interpreters: readonly string[],
  timeoutMs: number,
): Promise<Map<number, string[]>> {
  const examples = docs.flatMap(exampleBlocks);
  const lent = new Map<number, string[]>();
  if (examples.length === 0 || apis.length === 0) return lent;
  const calls = await blockCalls(
    examples.map((e) => e.code),
    interpreters,
    timeoutMs,
  );
  const byName = new Map<string, number[]>();
  for (const [index, api] of apis.entries()) {
    const last = api.name.split('.').at(-1) ?? api.name;
    if (last.length >= MIN_NAME) byName.set(last, [...(byName.get(last) ?? []), index]);
  }
  // What a call's owner can name: a member's class (an instance is most often named after it, `console.print`), or
  // the module of a function or class (`pretty.install`, `rich.pretty.install`).
  const ownedBy = (api: ExampleTarget, owner: readonly string[]) => {
    const [cls] = api.name.split('.').slice(-2, -1);
    if (cls !== undefined) return cls.toLowerCase() === owner.at(-1)?.toLowerCase();
    const module = api.module.split('.');
    return owner.join('.') === api.module || (owner.length === 1 && module.at(-1) === owner[0]);
  };
  const resolve = (path: readonly string[]): number[] => {
    const found = byName.get(path.at(-1) ?? '') ?? [];
    const owner = path.slice(0, -1);
    // The owner the call names decides between APIs of one name where it names one of them.
    const owned = owner.length === 0 ? [] : found.filter((i) => ownedBy(apis[i] as ExampleTarget, owner));
    if (owned.length > 0) return owned.length <= MAX_SHARING ? owned : [];
    return found.length <= MAX_SHARING ? found : [];
  };
  for (const [i, example] of examples.entries()) {
    const named = new Set((calls[i] ?? []).flatMap(resolve));
    if (named.size === 0 || named.size > MAX_NAMED) continue;
    for (const index of named) {
      const list = lent.get(index) ?? [];
      if (list.length < MAX_PASSAGES && !list.includes(example.passage)) lent.set(index, [...list, example.passage]);
    }
  }
  return lent;
}

/** Each Python code block of a markdown text that a paragraph introduces, with that paragraph as a passage. */
function exampleBlocks(doc: string): { passage: string; code: string }[] {
  const tokens = markdownParser().parse(doc, {});
  const found: { passage: string; code: string }[] = [];
  let previous: { prose: string; end: number } | undefined;
  for (const [i, token] of tokens.entries()) {
    if (token.type === 'inline' && tokens[i - 1]?.type === 'paragraph_open') {
      previous = { prose: inlineText(token), end: i + 1 };
    } else if (token.type === 'fence' && previous !== undefined && previous.end === i - 1) {
      const passage = passageOf(previous.prose, MAX_PASSAGE_CHARS);
      if (PYTHON.test(token.info.trim().split(/\s+/)[0] ?? '') && passage !== '')
        found.push({ passage, code: token.content });
    }
  }
  return found;
}

/** Each block's called and decorating names as dotted paths, read by the first interpreter that starts. */
async function blockCalls(
  blocks: readonly string[],
  interpreters: readonly string[],
  timeoutMs: number,
): Promise<string[][][]> {
  let lastError: Error | undefined;
  for (const interpreter of interpreters) {
    try {
      const parsed = JSON.parse(await runPython(interpreter, JSON.stringify({ blocks }), timeoutMs, CALLS_SCRIPT)) as {
        calls?: unknown;
      };
      if (!Array.isArray(parsed.calls)) throw new Error('the parser printed no calls');
      return parsed.calls as string[][][];
    } catch (error) {
      lastError = error as Error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') break;
    }
  }
  throw new Error(`could not read the README's examples: ${lastError?.message ?? 'no interpreter'}`);
}
