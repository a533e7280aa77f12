import type { Token } from 'markdown-it';
import type TypeScript from 'typescript';
import { inlineText, markdownParser, passage } from './markdown-tokens.js';

/**
 * What a package's own examples do, in its own words: users ask by what they want done ("create an instance with a
 * base URL"), which the API's comment may not say (`axios.create`). The paragraph that introduces a code example in
 * the README or the docs folder lends its words to the API the example calls, and a README written as a reference
 * (`### uuid.validate(str)`, then "Test a string to see if it is a valid UUID") lends the paragraph under each heading
 * to the API the heading names: a package without doc comments (uuid's declarations have none) says there what each
 * API does. (A paragraph merely naming an API in inline code was measured too, and cost on the projects it was not
 * made from: docs/ranking.md, "Idioms".)
 */

/** Bounds: passages per API, characters per passage, APIs a passage may lend its words to. */
const MAX_PASSAGES = 2;
const MAX_PASSAGE_CHARS = 320;
// An example calling many APIs shows how they fit together, not what any one of them does.
const MAX_NAMED = 3;
// A name more than this many sections share (`parse`, `get`) says nothing about which one is meant.
const MAX_SHARING = 2;
// Shorter names (`z`, `on`, `is`) are too often something else.
const MIN_NAME = 3;
// An API most of the package's examples call (`dayjs(…)` in every example of dayjs) is their setting, not what any one
// of them shows: beside other APIs it takes no words and does not count toward MAX_NAMED. Most, and at least three
// examples: at a quarter, fastify's `register` lost the words of the plugin examples that show it (docs/ranking.md).
const SETTING_SHARE = 0.5;
const SETTING_MIN = 3;

/** An API a passage can lend its words to: its qualified name (`ZodString.email`) and the names it is exported under. */
export interface Named {
  readonly name: string;
  readonly aliases?: readonly string[];
}

/**
 * For each API (by index in `apis`), the passages of `docs` that say what it
 * does, at most two each: first the paragraph right under a heading that is
 * its reference (`### uuid.v4([options])`, `` ### `uuid.NIL` ``; see
 * `headingApi`), then, in the docs' order, the paragraph right before a code
 * block, for each API the block calls or instantiates
 * (`app.notFound(…)`, `z.infer<…>`), when it calls at most three besides the
 * examples' setting (an API most of them call: `dayjs(…)`). A call is
 * matched by its last name (`notFound`; an API's last segment, or an alias); a
 * name more than two APIs share is left alone unless the call also names the
 * owner (`ZodString.email(…)`). The code is read with TypeScript's scanner.
 *
 * @example
 * docsMentions(ts, ['Extract the type:\n\n```ts\ntype A = z.infer<typeof A>\n```\n'], [{ name: 'TypeOf', aliases: ['infer'] }]);
 * // → Map { 0 => ['Extract the type:'] }
 */
export function docsMentions(
  ts: typeof TypeScript,
  docs: readonly string[],
  apis: readonly Named[],
): Map<number, string[]> {
  const byName = new Map<string, number[]>();
  for (const [index, api] of apis.entries()) {
    for (const name of new Set([api.name.split('.').at(-1) ?? api.name, ...(api.aliases ?? [])])) {
      byName.set(name, [...(byName.get(name) ?? []), index]);
    }
  }
  // A heading that is a reference names its API on purpose (`uuid.v4(…)`): a short name there is that API.
  const resolve = (path: readonly string[], minName = MIN_NAME): number[] => {
    const last = path.at(-1);
    const found = last === undefined || last.length < minName ? [] : (byName.get(last) ?? []);
    if (found.length <= MAX_SHARING) return found;
    // `ZodString.email` among many `email`s: the one whose owner the code names too.
    const owner = path.at(-2);
    return owner === undefined ? [] : found.filter((i) => apis[i]?.name.split('.').at(-2) === owner);
  };
  // Each example (a script block) with the APIs it calls, and the paragraph right before it, if any.
  const examples: { prose: string | undefined; named: Set<number> }[] = [];
  // The first paragraph under a heading that names an API (`### uuid.v4([options])`), for that API.
  const defined: { prose: string; named: number[] }[] = [];
  for (const doc of docs) {
    // Raw HTML as tokens of its own, so that an anchor is no paragraph's words.
    const tokens = markdownParser({ html: true }).parse(doc, {});
    let previous: { prose: string; end: number } | undefined;
    for (const [i, token] of tokens.entries()) {
      if (token.type === 'inline' && tokens[i - 1]?.type === 'paragraph_open') {
        previous = { prose: inlineText(token), end: i + 1 };
      } else if (token.type === 'heading_open' && tokens[i + 1]?.type === 'inline') {
        const path = headingApi(ts, plainText(tokens[i + 1] as Token));
        const named = path === undefined ? [] : resolve(path, 1);
        const lead = named.length > 0 ? leadParagraph(tokens, i + 3) : undefined;
        if (lead !== undefined) defined.push({ prose: lead, named });
      } else if (token.type === 'fence' && isScript(token.info)) {
        // The paragraph right before an example says what the example does.
        const prose = previous !== undefined && previous.end === i - 1 ? previous.prose : undefined;
        examples.push({ prose, named: new Set(calledIn(ts, token.content).flatMap((path) => resolve(path))) });
      }
    }
  }
  const calling = new Map<number, number>();
  for (const { named } of examples) for (const index of named) calling.set(index, (calling.get(index) ?? 0) + 1);
  const withCalls = examples.filter(({ named }) => named.size > 0).length;
  const settingAbove = Math.max(SETTING_MIN - 1, SETTING_SHARE * withCalls);
  const isSetting = (index: number) => (calling.get(index) ?? 0) > settingAbove;

  const lent = new Map<number, string[]>();
  // At most MAX_PASSAGES each, each once, in the order lent.
  const lend = (index: number, text: string) => {
    const list = lent.get(index) ?? [];
    if (list.length < MAX_PASSAGES && !list.includes(text)) lent.set(index, [...list, text]);
  };
  // What a heading names, its first paragraph says first.
  for (const { prose, named } of defined) {
    const text = passage(prose, MAX_PASSAGE_CHARS);
    if (text === '') continue;
    for (const index of named) lend(index, text);
  }
  for (const { prose, named } of examples) {
    if (prose === undefined) continue;
    const text = passage(prose, MAX_PASSAGE_CHARS);
    // An example that calls nothing but the setting shows the setting itself.
    const besides = [...named].filter((index) => !isSetting(index));
    const shown = besides.length > 0 ? besides : [...named];
    if (text === '' || shown.length === 0 || shown.length > MAX_NAMED) continue;
    for (const index of shown) lend(index, text);
  }
  return lent;
}

// Code blocks in JavaScript or TypeScript, or unlabelled: a shell session's or another language's calls are not this API's.
const SCRIPT = /^(?:|[cm]?[jt]sx?|javascript|typescript|node)$/i;

function isScript(info: string): boolean {
  return SCRIPT.test(info.trim().split(/\s+/)[0] ?? '');
}

/**
 * The first paragraph from `start` that says something in words of its own, before any other block: raw HTML (the
 * `<a id="decorate"></a>` anchor fastify's docs put under each heading) and a paragraph of links alone (`[src](…)`)
 * are passed over.
 */
function leadParagraph(tokens: readonly Token[], start: number): string | undefined {
  let i = start;
  while (i < tokens.length) {
    const open = tokens[i];
    if (open?.type === 'html_block') {
      i += 1;
      continue;
    }
    const inline = tokens[i + 1];
    if (open?.type !== 'paragraph_open' || inline?.type !== 'inline') return undefined;
    let links = 0;
    let own = false;
    for (const child of inline.children ?? []) {
      if (child.type === 'link_open') links += 1;
      else if (child.type === 'link_close') links -= 1;
      else if (links === 0 && (child.type === 'text' || child.type === 'code_inline')) {
        own ||= child.content.trim() !== '';
      }
    }
    if (own) return inlineText(inline);
    i += 3;
  }
  return undefined;
}

/** An inline run's text with its code spans as plain text: `` `once.strict(func)` `` is `once.strict(func)`. */
function plainText(inline: Token): string {
  return (inline.children ?? [])
    .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : ' '))
    .join('');
}

/**
 * The API a heading is the reference of, as its dotted path: a heading that is a call (`uuid.v4([options])`,
 * `new WebSocketServer(options)`, `pino([options]) => logger`) or a dotted name alone (`uuid.NIL`). A heading of
 * words (`Install`, `Options`, `Using fetch() with retries`) names none.
 */
function headingApi(ts: typeof TypeScript, heading: string): string[] | undefined {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, heading.trim());
  let kind = scanner.scan();
  if (kind === ts.SyntaxKind.NewKeyword) kind = scanner.scan();
  const path: string[] = [];
  while (kind === ts.SyntaxKind.Identifier || (path.length > 0 && isKeyword(ts, kind))) {
    path.push(scanner.getTokenValue());
    kind = scanner.scan();
    if (kind !== ts.SyntaxKind.DotToken) break;
    kind = scanner.scan();
  }
  if (path.length === 0) return undefined;
  if (kind === ts.SyntaxKind.OpenParenToken) return path;
  return kind === ts.SyntaxKind.EndOfFileToken && path.length > 1 ? path : undefined;
}

/** The APIs an example calls or instantiates with type arguments: each `a.b.c(` or `a.b<`, as its dotted path. */
function calledIn(ts: typeof TypeScript, code: string): string[][] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code);
  const calls: string[][] = [];
  let path: string[] = [];
  let afterDot = false;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.Identifier || (afterDot && isKeyword(ts, kind))) {
      path = afterDot ? [...path, scanner.getTokenValue()] : [scanner.getTokenValue()];
      afterDot = false;
    } else if (kind === ts.SyntaxKind.DotToken || kind === ts.SyntaxKind.QuestionDotToken) {
      afterDot = path.length > 0;
    } else {
      if ((kind === ts.SyntaxKind.OpenParenToken || kind === ts.SyntaxKind.LessThanToken) && path.length > 0) {
        calls.push(path);
      }
      path = [];
      afterDot = false;
    }
  }
  return calls;
}

/** A keyword token (`default`, `catch`, `infer`): member names may be keywords (`ZodType.default`). */
function isKeyword(ts: typeof TypeScript, kind: TypeScript.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword;
}
