/**
 * The sections a caller has been sent in full, by key: an MCP session's memory (see SessionMemory in @docs/mcp).
 * A search given one lists each section it holds without its content (`sentEarlier`), which costs nothing against
 * the budget, so the budget goes to the sections that follow; and it adds each section it sends in full.
 *
 * @example
 * const sent = new Set<string>();
 * const memory: SentSections = { has: (key) => sent.has(key), add: (key) => void sent.add(key) };
 * await getDocs(store, 'vitest', 'fake timers', { sent: memory }); // sections in full
 * await getDocs(store, 'vitest', 'fake timers', { sent: memory }); // the same ones listed as sent earlier, then the next
 */
export interface SentSections {
  /** True when the section with this key was sent in full before. */
  has(key: string): boolean;
  /** The section with this key is sent in full now, with this many tokens of content. */
  add(key: string, tokens: number): void;
}

/**
 * A section's key: its library (`name@version`), document path, place in the document and stored token count, all
 * known before its content is read; the token count tells a section rebuilt with other text at the same place apart.
 */
export function sectionKey(
  label: string,
  section: { readonly path: string; readonly ord: number; readonly tokens: number },
): string {
  return `${label}\0${section.path}\0${section.ord}\0${section.tokens}`;
}
