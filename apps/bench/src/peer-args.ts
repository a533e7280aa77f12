// `--peer NAME=COMMAND`: which adapter drives an engine, and the command line that starts it.

/** An engine to measure: the adapter's name and the command (program and first arguments) that runs it. */
export interface PeerSpec {
  readonly name: string;
  readonly command: readonly string[];
}

/** An expected outcome at the command line's boundary: a value, or what is wrong with the flag. */
export type PeerParse =
  | { readonly ok: true; readonly value: PeerSpec }
  | { readonly ok: false; readonly error: string };

/**
 * A command line split into words as a POSIX shell would for plain words, '…' and "…" quotes and backslash escapes
 * (no variables, globs or operators: the command is run directly, not by a shell). Undefined for an unclosed quote.
 *
 * @example splitCommand('node24 "/tmp/my peers/qmd.js"') // ['node24', '/tmp/my peers/qmd.js']
 */
export function splitCommand(text: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) return undefined;
  if (inWord) words.push(word);
  return words;
}

/**
 * One `--peer` value, `NAME=COMMAND`, checked against the adapters known by name.
 *
 * @example parsePeerFlag('qmd=node24 /tmp/peers/qmd/dist/cli/qmd.js', ['docs', 'qmd'])
 * // { ok: true, value: { name: 'qmd', command: ['node24', '/tmp/peers/qmd/dist/cli/qmd.js'] } }
 */
export function parsePeerFlag(flag: string, known: readonly string[]): PeerParse {
  const at = flag.indexOf('=');
  if (at <= 0) return { ok: false, error: `--peer ${flag}: expected NAME=COMMAND (NAME one of ${known.join(', ')})` };
  const name = flag.slice(0, at).trim();
  if (!known.includes(name))
    return { ok: false, error: `--peer ${flag}: no adapter named "${name}" (known: ${known.join(', ')})` };
  const command = splitCommand(flag.slice(at + 1));
  if (command === undefined) return { ok: false, error: `--peer ${flag}: unclosed quote in the command` };
  if (command.length === 0) return { ok: false, error: `--peer ${flag}: the command is empty` };
  return { ok: true, value: { name, command } };
}

/**
 * Every engine of a side-by-side run, docs first (with `docs`, its own command, unless a `--peer docs=…` replaces
 * it), then the peers in the order given. A name given twice is an error: each column is one engine.
 */
export function peerSpecs(
  flags: readonly string[],
  known: readonly string[],
  docs: readonly string[],
): { readonly ok: true; readonly value: readonly PeerSpec[] } | { readonly ok: false; readonly error: string } {
  const specs: PeerSpec[] = [];
  for (const flag of flags) {
    const parsed = parsePeerFlag(flag, known);
    if (!parsed.ok) return parsed;
    if (specs.some((s) => s.name === parsed.value.name))
      return { ok: false, error: `--peer ${parsed.value.name} is given twice` };
    specs.push(parsed.value);
  }
  const own = specs.find((s) => s.name === 'docs') ?? { name: 'docs', command: docs };
  return { ok: true, value: [own, ...specs.filter((s) => s.name !== 'docs')] };
}
