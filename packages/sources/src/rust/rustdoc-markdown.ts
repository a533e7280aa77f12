// Fence info words rustdoc reads as Rust (a bare fence is Rust too); anything else (`text`, `toml`, `sh`) is kept.
const RUST_FENCE = /^(?:rust|no_run|ignore|should_panic|compile_fail|edition\d{4}|test_harness|standalone_crate)$/;

/**
 * A doc comment's markdown as rustdoc renders it, to sit under a heading of `level`: its own headings moved below it
 * (`# Examples` under a `##` section becomes `### Examples`), code fences that rustdoc compiles marked `rust` with their
 * hidden lines (`# use tokio::task;`) left out as rustdoc leaves them out, and link definitions that point at Rust
 * paths (`[spawn]: crate::task::spawn`), which rustdoc resolves and a reader of markdown cannot, dropped.
 *
 * @example
 * rustdocMarkdown('# Examples\n\n```\n# fn main() {\nrun();\n# }\n```', 2); // → '### Examples\n\n```rust\nrun();\n```'
 */
export function rustdocMarkdown(doc: string, level: number, link?: (target: string) => string | undefined): string {
  const out: string[] = [];
  const defined = new Set<string>();
  const referenced = new Set<string>();
  let fence: { marker: string; rust: boolean } | undefined;
  for (const line of doc.split('\n')) {
    const opening = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(line);
    if (fence === undefined && opening) {
      const info = (opening[3] ?? '').split(/[,\s]+/).filter((w) => w !== '');
      const rust = info.length === 0 || info.every((w) => RUST_FENCE.test(w) || w.startsWith('edition'));
      fence = { marker: opening[2] ?? '```', rust };
      out.push(`${opening[1]}${fence.marker}${rust ? 'rust' : info.join(',')}`);
      continue;
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, '') === '') {
        out.push(line);
        fence = undefined;
        continue;
      }
      if (fence.rust) {
        const trimmed = line.trimStart();
        if (trimmed === '#' || trimmed.startsWith('# ')) continue;
        out.push(trimmed.startsWith('##') ? line.replace('##', '#') : line);
      } else out.push(line);
      continue;
    }
    const heading = /^(#{1,6})(\s.*)$/.exec(line);
    if (heading) {
      out.push(`${'#'.repeat(Math.min(6, (heading[1]?.length ?? 1) + level))}${heading[2]}`);
      continue;
    }
    const definition = /^\s{0,3}\[([^\]]+)\]:\s*(\S+)\s*$/.exec(line);
    if (definition) {
      const [, label = '', target = ''] = definition;
      defined.add(label.toLowerCase());
      if (/^(?:https?:|mailto:|#)/.test(target)) out.push(line);
      else {
        const resolved = link?.(target);
        if (resolved !== undefined) out.push(`[${label}]: ${resolved}`);
      }
      continue;
    }
    out.push(inlineLinks(line, link, referenced));
  }
  // rustdoc links `[Foo]` and `[`Foo`]` with no definition to the item in scope of that name: so do the pages.
  const added: string[] = [];
  for (const label of referenced) {
    if (defined.has(label.toLowerCase())) continue;
    const resolved = link?.(label.replace(/`/g, ''));
    if (resolved !== undefined) added.push(`[${label}]: ${resolved}`);
  }
  return [out.join('\n').trim(), ...(added.length > 0 ? [added.join('\n')] : [])].join('\n\n');
}

/**
 * A line's inline links to Rust paths (`[spawn](crate::task::spawn)`) pointed at the pages, or left as their text
 * where the path names nothing documented; the labels of shorthand links (`[Builder]`) gathered into `referenced`.
 */
function inlineLinks(
  line: string,
  link: ((target: string) => string | undefined) | undefined,
  referenced: Set<string>,
): string {
  const rewritten = line.replace(/\[([^\][]+)\]\(([^()\s]+(?:\(\))?)\)/g, (whole, text: string, target: string) => {
    if (/^(?:[a-z][a-z+.-]*:(?!:)|#|\.{0,2}\/)/i.test(target) || /\.(?:md|html?)(?:#|$)/.test(target)) return whole;
    const resolved = link?.(target);
    return resolved === undefined ? text : `[${text}](${resolved})`;
  });
  for (const match of rewritten.matchAll(/\[(`?[A-Za-z_][\w:]*(?:!|\(\))?`?)\](?![([:])/g)) {
    if (match[1] !== undefined) referenced.add(match[1]);
  }
  return rewritten;
}
