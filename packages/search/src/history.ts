// Pages about how a library changed (changelogs, release notes, migration and
// upgrade guides, blog posts) mention every API they touched, often in the
// very words of a question, but the page that documents the API answers it.
const HISTORY_SEGMENTS = new Set([
  'changelog',
  'changes',
  'history',
  'releases',
  'blog',
  'news',
  'whats-new',
  'whatsnew',
]);
const HISTORY_PREFIX = /^(changelog|release-?notes?|migrat(e|ing|ion)|upgrad(e|ing))/;
const HISTORY_TITLE = /\b(changelog|release notes?|migrat(e|ing|ion)|upgrad(e|ing)|what['’]?s new)\b/i;

/** True for a changelog, release notes, a migration or upgrade guide, or a blog post. */
export function isHistoryPage(path: string, title: string): boolean {
  const segments = path
    .toLowerCase()
    .split('/')
    .map((segment) => segment.replace(/\.[a-z]+$/, ''));
  return segments.some((s) => HISTORY_SEGMENTS.has(s) || HISTORY_PREFIX.test(s)) || HISTORY_TITLE.test(title);
}
