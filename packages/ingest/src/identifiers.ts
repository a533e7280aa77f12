// The index text of a section is the store's to define: a package built elsewhere is indexed again at install with
// the same words (see @docs/store's index-text.ts).
export { identifierWords, indexText } from '@docs/store/section-text';
