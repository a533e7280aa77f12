// The one table of documentation formats. @docs/ingest names the converter of each format, so the table might be
// expected there; it lives here because @docs/sources walks for documentation on its own (a repository's docs folder
// is the first with documentation files in it; a dependency's docs are staged by copying them), and @docs/ingest
// depends on @docs/sources, never the reverse. The walker taking the extensions from its caller instead would have
// every source that walks (folders, git, dependencies, repositories) take them too, from callers that would each pass
// ingest's list. Here the walker, the build's format lookup and its link matching read the same entries.

/** The document formats a package can be built from. */
export type DocFormat = 'markdown' | 'rst' | 'asciidoc' | 'html' | 'text';

/**
 * Every documentation file extension (lower case; matched case-insensitively) and its format: the files
 * `findDocFiles` takes, and what `@docs/ingest` converts each from.
 *
 * @example
 * DOC_FORMATS.get('.adoc'); // → 'asciidoc'
 */
export const DOC_FORMATS: ReadonlyMap<string, DocFormat> = new Map([
  ['.md', 'markdown'],
  ['.mdx', 'markdown'],
  ['.markdown', 'markdown'],
  ['.rst', 'rst'],
  ['.adoc', 'asciidoc'],
  ['.asciidoc', 'asciidoc'],
  ['.html', 'html'],
  ['.htm', 'html'],
  ['.txt', 'text'],
]);

/** File extensions treated as documentation, lower case; matched case-insensitively. The keys of {@link DOC_FORMATS}. */
export const DOC_EXTENSIONS: readonly string[] = Object.freeze([...DOC_FORMATS.keys()]);
