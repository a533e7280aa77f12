// Heading comparison as the eval README defines it: a heading may carry
// {#anchors}, markdown links, code marks, bold or inline HTML, and two
// headings match when any of their normalised forms coincide.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e.startsWith('#'))
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10),
      );
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function base(heading: string): string {
  return unescapeHtml(heading)
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/\{\s*#[^}]*\}/g, '')
    .replace(/\[#[^\]]*\]\s*$/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\(.)/g, '$1');
}

function finish(s: string): string {
  return s
    .replace(/`/g, '')
    .replace(/\*/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[:.]+$/, '')
    .trim();
}

/** The normalised forms of a heading. */
export function headingVariants(heading: string | null | undefined): Set<string> {
  if (heading === null || heading === undefined) return new Set(['']);
  const b = base(heading);
  const withoutComponents = b.replace(/<([A-Za-z][\w.-]*)\b[^>]*>.*?<\/\1\s*>/g, '').replace(/<[A-Za-z/][^>]*>/g, '');
  const textOnly = b.replace(/<[A-Za-z/][^>]*>/g, '');
  return new Set([finish(withoutComponents), finish(textOnly), finish(b)].filter((x) => x !== ''));
}

/** True when the two headings have a normalised form in common. */
export function headingsMatch(a: string | null | undefined, b: string | null | undefined): boolean {
  const va = headingVariants(a);
  for (const v of headingVariants(b)) if (va.has(v)) return true;
  return false;
}

/** Library name without its version, lowercased. */
export function libraryName(library: string | null | undefined): string {
  if (!library) return '';
  const at = library.lastIndexOf('@');
  return (at > 0 ? library.slice(0, at) : library).trim().toLowerCase();
}

/** A document path without leading ./, its fragment, or a .md/.mdx extension. */
export function normalisePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/#.*$/, '')
    .replace(/\.mdx?$/i, '');
}
