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

// A folder named for a major version (`v4/`, `v4-mini/`, `version-2/`, `version-2.x/`, as versioned docs and packages that ship
// the next major's API beside their own lay them out) holds another version's documentation when the number is
// not the package's own major: a question about the installed version is answered by this version's pages.
const VERSION_FOLDER = /^(?:v|version-)(\d+)(?:\.x|-[a-z]+)?$/;

/**
 * True for a page in a folder named for another major version than `major`
 * (the package's own): `api/v4/email.md` of zod 3.25.76. A file name alone
 * (`v4.md`, a migration guide) is not a folder of another version's docs.
 */
export function isOtherVersionPage(path: string, major: number | undefined): boolean {
  if (major === undefined) return false;
  const folders = path.toLowerCase().split('/').slice(0, -1);
  return folders.some((folder) => {
    const named = VERSION_FOLDER.exec(folder)?.[1];
    return named !== undefined && Number(named) !== major;
  });
}

// The folder `@docs/sources` writes the API pages of a package's other entry points in (its `OTHER_ENTRY_POINTS`).
const OTHER_ENTRY_POINTS = 'other-entry-points';

/**
 * True for an API page of an entry point the package's own docs never show imported (`vitest/node`,
 * `axios/unsafe/utils.js`): docs sync writes those under `api/other-entry-points/`. They serve tools and
 * integrations, and their configuration types hold the words of many a user's question.
 */
export function isOtherEntryPointPage(path: string): boolean {
  const segments = path.split('/');
  return segments[0] === 'api' && segments[1] === OTHER_ENTRY_POINTS;
}
