import { expect, test } from 'vitest';
import { isHistoryPage, isOtherEntryPointPage, isOtherVersionPage } from './history.js';
import { synonymsOf } from './synonyms.js';
import { isIdentifier, termAlternatives } from './terms.js';

test.each([
  ['err_pnpm_outdated_lockfile', true],
  ['vi.usefaketimers', true],
  ['frozen-lockfile', true],
  ['32602', true],
  ['v2', true],
  ['timers', false],
  ['cors', false],
  ['42', false],
])('isIdentifier(%s) = %s', (word, expected) => {
  expect(isIdentifier(word)).toBe(expected);
});

test.each([
  ['httpx.connecttimeout', ['httpx.connecttimeout', 'connecttimeout']],
  ['vi.fn', 'vi.fn'],
  ['timers', 'timers'],
  ['print', ['print', 'prints', 'printed', 'printing', 'log', 'logs', 'logging']],
  // Docs say "pretty-printed" where a question says "pretty print" (serde_json's to_string_pretty).
  ['printed', ['printed', 'print', 'prints', 'printing', 'log', 'logs', 'logging']],
  ['env', ['env', 'environment', 'environmental']],
])('termAlternatives(%s) = %j', (word, expected) => {
  expect(termAlternatives(word)).toEqual(expected);
});

test('termAlternatives leaves synonyms out when asked', () => {
  expect(termAlternatives('print', { synonyms: false })).toBe('print');
});

test('synonyms are symmetric and never list the word itself', () => {
  for (const word of ['print', 'log', 'env', 'environment', 'except', 'exclude', 'unknown']) {
    const others = synonymsOf(word);
    expect(others.length).toBeGreaterThan(0);
    expect(others).not.toContain(word);
    for (const other of others) expect(synonymsOf(other)).toContain(word);
  }
});

test.each([
  ['CHANGELOG.md', 'Changelog', true],
  ['release-notes.md', 'Release Notes', true],
  ['guides/migrating-to-v5.md', 'Migrating to v5', true],
  ['v4/index.mdx', 'Release notes', true],
  ['blog/2024-01-01-launch.md', 'Launch', true],
  ['upgrade-guide.md', 'Upgrade guide', true],
  ['guide/mocking.md', 'Mocking', false],
  ['api/changes-detector.md', 'Change detection', false],
])('isHistoryPage(%s, %s) = %s', (path, title, expected) => {
  expect(isHistoryPage(path, title)).toBe(expected);
});

test.each([
  ['api/v4/email.md', 3, true],
  ['api/v4-mini/email.md', 3, true],
  ['versioned_docs/version-2.x/intro.md', 3, true],
  ['api/v3/email.md', 3, false],
  ['api/email.md', 3, false],
  ['migrating/v4.md', 3, false],
  ['api/v4/email.md', undefined, false],
] as const)('isOtherVersionPage(%s, %s) = %s', (path, major, expected) => {
  expect(isOtherVersionPage(path, major)).toBe(expected);
});

test('a validator is what validates (Python names them so: field_validator, validate_call)', () => {
  expect(synonymsOf('validate')).toEqual(expect.arrayContaining(['validator', 'validators', 'validation']));
  expect(synonymsOf('validator')).toContain('validate');
});

test('a parameter is a param: routers name path parameters so (c.Param, req.params, :id params)', () => {
  expect(synonymsOf('parameter')).toEqual(expect.arrayContaining(['param', 'params', 'parameters']));
  expect(synonymsOf('param')).toContain('parameter');
});

test.each([
  ['api/other-entry-points/node/index.md', true],
  ['api/other-entry-points/v4/core/ZodType.md', true],
  ['api/node/index.md', false],
  ['guide/other-entry-points/index.md', false],
  ['other-entry-points.md', false],
])('isOtherEntryPointPage(%s) = %s', (path, expected) => {
  expect(isOtherEntryPointPage(path)).toBe(expected);
});
