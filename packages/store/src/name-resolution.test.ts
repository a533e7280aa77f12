import { describe, expect, it, test } from 'vitest';
import type { InstalledPackage } from './installed-package.js';
import { packageToRemove, type ResolveResult, resolveName } from './name-resolution.js';
import { compareNames, compareVersions } from './names.js';
import { prereleaseNote, removeErrorMessage, resolveErrorMessage } from './resolution-messages.js';

/** A listing as PackageStore.list() gives it: by name, highest version first. */
function listing(...ids: string[]): InstalledPackage[] {
  return ids
    .map((id) => {
      const at = id.lastIndexOf('@');
      const [name, version] = [id.slice(0, at), id.slice(at + 1)];
      return { name, version, file: `/store/${name}@${version}.db`, bytes: 1, mtimeMs: 1 };
    })
    .sort((a, b) => compareNames(a.name, b.name) || compareVersions(b, a));
}

function label(result: ResolveResult): string {
  return result.ok ? `${result.value.name}@${result.value.version}` : result.error.code;
}

describe('resolveName', () => {
  const installed = listing(
    'vitest@4.0.0',
    'vitest@5.0.0-rc.2',
    'vitest@5.0.0',
    '@tanstack/query@5.1.0',
    'serde_json@1.0.135',
    'tokio-util@0.7.13',
    'a-b@1.0.0',
    'a_b@2.0.0',
  );

  test.each([
    ['VITEST', 'vitest@5.0.0'],
    ['vitest@latest', 'vitest@5.0.0'],
    ['vitest@5.0.0-rc.2', 'vitest@5.0.0-rc.2'],
    ['vitest@4', 'vitest@4.0.0'],
    ['@tanstack/query', '@tanstack/query@5.1.0'],
    // Cargo treats `-` and `_` in crate names as one, when no library has the name exactly.
    ['serde-json', 'serde_json@1.0.135'],
    ['TOKIO_UTIL@0.7', 'tokio-util@0.7.13'],
    // A name held exactly is that library, never its look-alike.
    ['a_b', 'a_b@2.0.0'],
    ['serde.json', 'unknown-library'],
    ['vitest@9.9.9', 'unknown-version'],
    [' vitest ', 'vitest@5.0.0'],
  ])('%s → %s', (spec, expected) => {
    expect(label(resolveName(installed, spec))).toBe(expected);
  });

  it('takes the version argument over the spec', () => {
    expect(label(resolveName(installed, 'vitest@5.0.0', '4.0.0'))).toBe('vitest@4.0.0');
    expect(label(resolveName(installed, 'vitest', ''))).toBe('vitest@5.0.0');
  });

  it('says what is installed and what is close when a library is not', () => {
    const missing = resolveName(installed, 'vitset');
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'unknown-library', name: 'vitset', suggestion: 'vitest' },
    });
    expect(!missing.ok && missing.error.installed).toBe(installed);
    const far = resolveName(installed, 'zzzzzzzz');
    expect(!far.ok && 'suggestion' in far.error).toBe(false);
  });

  it('says which versions are installed when the one asked for is not', () => {
    const result = resolveName(installed, 'vitest', '9.9.9');
    if (result.ok || result.error.code !== 'unknown-version') throw new Error('expected unknown-version');
    expect(result.error.version).toBe('9.9.9');
    expect(result.error.versions.map((p) => p.version)).toEqual(['5.0.0', '5.0.0-rc.2', '4.0.0']);
    expect(result.error.suggestion).toBe('vitest@5.0.0');
  });

  it('answers no-packages for an empty listing', () => {
    expect(resolveName([], 'anything')).toEqual({ ok: false, error: { code: 'no-packages', installed: [] } });
  });

  it('resolves a range to a release, else to a prerelease of a version in it, and marks the prerelease', () => {
    const versions = listing('vitest@4.2.0', 'vitest@5.0.0-rc.2', 'vitest@5.0.0-beta.1', 'vitest@4.3.0-beta.0');
    const cases: [string, string, boolean][] = [
      ['vitest@5', '5.0.0-rc.2', true],
      ['vitest@^5.0.0', '5.0.0-rc.2', true],
      ['vitest@5.x', '5.0.0-rc.2', true],
      ['vitest@~5.0.0', '5.0.0-rc.2', true],
      // A release in the range wins over a higher prerelease of it.
      ['vitest@4', '4.2.0', false],
      ['vitest@>=4.2.0', '4.2.0', false],
      // A range that names a prerelease of its own tuple takes it as semver does, with no mark.
      ['vitest@>=5.0.0-beta.0 <5.0.0', '5.0.0-rc.2', false],
    ];
    for (const [spec, version, marked] of cases) {
      const found = resolveName(versions, spec);
      if (!found.ok) throw new Error(`${spec}: ${found.error.code}`);
      expect(found.value.version, spec).toBe(version);
      expect(found.prerelease !== undefined, spec).toBe(marked);
    }
    const five = resolveName(versions, 'vitest@5');
    expect(five.ok && five.prerelease).toEqual({ asked: '5' });
    expect(label(resolveName(versions, 'vitest@6'))).toBe('unknown-version');
  });
});

describe('packageToRemove', () => {
  const installed = listing('vitest@4.0.0', 'vitest@5.0.0', 'hono@4.1.0', 'Mixed@1.0.0', 'mixed@1.0.0');

  test.each([
    ['vitest@4.0.0', 'vitest@4.0.0'],
    ['HONO', 'hono@4.1.0'],
    ['vitest', 'ambiguous'],
    ['vitest@6.0.0', 'not-installed'],
    ['nope', 'not-installed'],
    // Two spellings installed by an older docs: the exact spelling picks one.
    ['Mixed@1.0.0', 'Mixed@1.0.0'],
    ['MIXED@1.0.0', 'ambiguous'],
  ])('%s → %s', (spec, expected) => {
    const found = packageToRemove(installed, spec);
    expect(found.ok ? `${found.value.name}@${found.value.version}` : found.error.code).toBe(expected);
  });

  it('lists the library’s versions when it has some, else everything', () => {
    const wrongVersion = packageToRemove(installed, 'vitest@6.0.0');
    expect(!wrongVersion.ok && wrongVersion.error).toMatchObject({ code: 'not-installed', spec: 'vitest@6.0.0' });
    expect(!wrongVersion.ok && wrongVersion.error.code === 'not-installed' && wrongVersion.error.known.length).toBe(2);
    const unknown = packageToRemove(installed, 'nope');
    expect(!unknown.ok && unknown.error.code === 'not-installed' && unknown.error.known).toBe(installed);
  });
});

describe('the messages, written once', () => {
  const installed = listing('vitest@4.0.0', 'vitest@5.0.0', 'hono@4.1.0');
  const failure = (spec: string, version?: string) => {
    const result = resolveName(installed, spec, version);
    if (result.ok) throw new Error(`${spec} resolved`);
    return resolveErrorMessage(result.error);
  };

  test.each([
    [
      'vitset',
      undefined,
      'Library "vitset" is not installed. Did you mean "vitest"? Installed: hono@4.1.0, vitest@5.0.0, vitest@4.0.0',
    ],
    ['zzzzzzzz', undefined, 'Library "zzzzzzzz" is not installed. Installed: hono@4.1.0, vitest@5.0.0, vitest@4.0.0'],
    ['Vitest', '9', 'vitest has no version "9". Installed versions: 5.0.0, 4.0.0'],
  ])('%s %s', (spec, version, message) => {
    expect(failure(spec, version)).toBe(message);
  });

  it('says nothing is installed', () => {
    const result = resolveName([], 'x');
    expect(!result.ok && resolveErrorMessage(result.error)).toBe('No documentation packages are installed');
  });

  it('notes a prerelease taken for a range', () => {
    const pre = listing('vitest@5.0.0-rc.2');
    const found = resolveName(pre, 'vitest@5');
    if (!found.ok || !found.prerelease) throw new Error('expected a prerelease');
    expect(prereleaseNote(found.value, found.prerelease.asked)).toBe(
      'vitest has no release matching "5"; using the prerelease 5.0.0-rc.2',
    );
  });

  test.each([
    ['vitest', 'vitest has 2 versions installed; say which to remove: vitest@5.0.0, vitest@4.0.0'],
    ['vitest@6', 'vitest@6 is not installed. Installed: vitest@5.0.0, vitest@4.0.0'],
    ['nope', 'nope is not installed. Installed: hono@4.1.0, vitest@5.0.0, vitest@4.0.0'],
  ])('remove %s', (spec, message) => {
    const found = packageToRemove(installed, spec);
    expect(!found.ok && removeErrorMessage(found.error)).toBe(message);
  });

  it('lists (none) when nothing is installed to remove', () => {
    const found = packageToRemove([], 'x');
    expect(!found.ok && removeErrorMessage(found.error)).toBe('x is not installed. Installed: (none)');
  });
});
