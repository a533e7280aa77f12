// Pages about how a library changed (changelogs, release notes, migration and
// upgrade guides, blog posts) mention every API they touched, often in the
// very words of a question, but the page that documents the API answers it.
const HISTORY_PATH =
  /(^|[/_-])(changelog|changes|history|release-?notes?|releases|migrat(e|ing|ion)s?|upgrad(e|ing)|blog|news|whats-new)([/._-]|$)/i;
const HISTORY_TITLE = /\b(changelog|release notes?|migrat(e|ing|ion)|upgrad(e|ing)|what'?s new)\b/i;

/** True for a changelog, release notes, a migration or upgrade guide, or a blog post. */
export function isHistoryPage(path: string, title: string): boolean {
  return HISTORY_PATH.test(path) || HISTORY_TITLE.test(title);
}
