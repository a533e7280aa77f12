import path from 'node:path';

// rustdoc's disambiguators (`struct@Foo`, `fn@bar`) and the suffixes that say a function or macro (`bar()`, `m!`).
const DISAMBIGUATOR =
  /^(?:struct|enum|union|trait|fn|method|tymethod|mod|module|macro|type|const|constant|static|value|derive|attr|field|variant|prim|primitive)@/;
const RUST_PATH = /^(?:[A-Za-z_][\w]*)(?:::[A-Za-z_][\w]*)*(?:!|\(\))?$/;

/**
 * Where each documented item's section is among a crate's pages, to turn rustdoc's intra-doc links
 * (`[spawn](crate::task::spawn)`, `[JoinHandle]: crate::runtime::task::JoinHandle`) into links between the pages, as
 * rustdoc resolves them into links between its HTML pages. A path is found whole (`task::spawn`), else by its last two
 * segments (`JoinHandle::abort`, `task::JoinHandle`) or its last alone where only one item has that name: links often
 * name an item by where it is defined, not by where it is public.
 */
export class IntraDocLinks {
  private readonly byPath = new Map<string, string>();
  private readonly bySuffix = new Map<string, string | null>();

  /** Records the page of the item at `segments` (its path without the crate's name: `['task', 'spawn']`). */
  add(segments: readonly string[], file: string): void {
    const full = segments.join('::');
    if (!this.byPath.has(full)) this.byPath.set(full, file);
    for (const length of [1, 2]) {
      if (segments.length < length) continue;
      const suffix = segments.slice(-length).join('::');
      const seen = this.bySuffix.get(suffix);
      // Two items of one name (regex::Regex and regex::bytes::Regex): the name alone is ambiguous.
      this.bySuffix.set(suffix, seen === undefined || seen === file ? file : null);
    }
  }

  /** A link from the page `from` to what `target` names, relative (`../index.md`), or undefined for none. */
  resolve(target: string, from: string, crate: string): string | undefined {
    const cleaned = target.trim().replace(DISAMBIGUATOR, '');
    if (!RUST_PATH.test(cleaned)) return undefined;
    const segments = cleaned
      .replace(/(?:!|\(\))$/, '')
      .split('::')
      .filter((s, i) => !(i === 0 && (s === 'crate' || s === 'self' || s === 'super' || s === 'Self' || s === crate)));
    while (segments[0] === 'super' || segments[0] === 'self') segments.shift();
    if (segments.length === 0) return undefined;
    const file =
      this.byPath.get(segments.join('::')) ??
      (segments.length >= 2 ? this.bySuffix.get(segments.slice(-2).join('::')) : undefined) ??
      this.bySuffix.get(segments.at(-1) ?? '');
    if (file === undefined || file === null || file === from) return undefined;
    return path.posix.relative(path.posix.dirname(from), file);
  }
}
